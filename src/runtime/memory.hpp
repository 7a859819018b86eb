// "Device" and pinned-host memory: 32-byte aligned host blocks, sized as CANN sizes device allocations, kept in
// an ordered registry so that frees of unknown pointers are refused and any address can be mapped back to the
// block that contains it.
#pragma once

#include <cstddef>

#include "acl/acl_base.h"
#include "runtime/runtime.hpp"

namespace aclnn_cpu {
namespace runtime {

enum class MemoryKind { kDevice, kHost };

constexpr size_t kMemoryAlignment = 32;
constexpr size_t kMemoryPadding = 32;

// The bytes CANN reserves for a request of `size` bytes: rounded up to 32 and, when `padded`, 32 more.
// Returns false when that does not fit in size_t.
bool block_size(size_t size, bool padded, size_t *out);

// Allocates a block for `size` (> 0) bytes. Reports failures for `api`. Device blocks count against
// ACLNN_CPU_MEM_LIMIT (their reserved bytes); past it: ACL_ERROR_RT_MEMORY_ALLOCATION, nothing allocated.
aclError allocate_block(const char *api, MemoryKind kind, size_t size, bool padded, void **out);

// Frees the block that starts at `p`. An unknown pointer, an interior pointer or a block of the other kind
// is refused (ACL_ERROR_INVALID_PARAM) and nothing is freed.
aclError free_block(const char *api, MemoryKind kind, void *p);

// Frees every live block (device reset, aclFinalize).
void free_all_blocks();

struct MemoryCounts {
  size_t blocks = 0;        // live blocks of both kinds
  size_t device_bytes = 0;  // bytes reserved by live device blocks
};
MemoryCounts memory_counts();

// For each of `count` pointers, whether it lies inside a live block and that block, under one lock (an
// operator's tensors: one lock per call instead of six).
void find_blocks(size_t count, const void *const *ps, bool *found, Allocation *out);

// When `p` lies inside a live block, `bytes` from `p` must stay inside it; otherwise the call is refused with
// ACL_ERROR_INVALID_PARAM naming `param`. Pointers outside every block are not checked.
aclError check_span(const char *api, const char *param, const void *p, size_t bytes);

}  // namespace runtime
}  // namespace aclnn_cpu
