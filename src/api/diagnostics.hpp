// How many aclnn objects and runtime objects are alive: the soak test ends by checking that every registry is
// empty. Internal; not exported.
#pragma once

#include <cstddef>
#include <string>

#include "api/objects.hpp"
#include "runtime/diagnostics.hpp"

namespace aclnn_cpu {

constexpr int kHandleKindCount = static_cast<int>(HandleKind::kExecutor) + 1;

// Live handles of one kind in the aclnn registry (api/handle_registry.cpp).
size_t live_handle_count(HandleKind kind);
// aclCreateDataBuffer / aclrtAllocatorCreateDesc objects not yet destroyed.
size_t live_data_buffer_count();
size_t live_allocator_desc_count();

struct LiveObjects {
  size_t handles[kHandleKindCount] = {};
  size_t data_buffers = 0;
  size_t allocator_descs = 0;
  runtime::LiveCounts runtime;

  // Nothing alive: no aclnn object, data buffer, descriptor, stream, event, context, allocation or reference.
  bool empty() const;
  // "aclTensor 2, streams 1, ..." listing what is alive ("nothing" when empty()).
  std::string describe() const;
};

LiveObjects live_objects();

}  // namespace aclnn_cpu
