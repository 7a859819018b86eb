// Integer division rounding toward −∞ / +∞ for a positive divisor (C++ '/' truncates toward zero), used
// to turn "o·s − pb + κ·dil ∈ [0, In)" into closed-form loop bounds.
#pragma once

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

inline int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

inline int64_t ceil_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
