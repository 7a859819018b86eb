// Overflow-checked int64 arithmetic for sizes and offsets that come from callers.
#pragma once

#include <cstdint>

namespace aclnn_cpu {

// Each returns false (leaving *out unspecified) when the exact result does not fit in int64.
inline bool checked_add(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
inline bool checked_sub(int64_t a, int64_t b, int64_t *out) { return !__builtin_sub_overflow(a, b, out); }
inline bool checked_mul(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }

}  // namespace aclnn_cpu
