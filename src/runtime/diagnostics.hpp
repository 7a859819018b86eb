// How many runtime objects are alive: for tests (the soak ends with everything released) and diagnostics.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aclnn_cpu {
namespace runtime {

struct LiveCounts {
  size_t streams = 0;           // created by aclrtCreateStream and not destroyed
  bool default_stream = false;  // the NULL stream has been used since the device was set
  size_t events = 0;
  size_t contexts = 0;      // the primary context included
  size_t blocks = 0;        // aclrtMalloc* / aclrtMallocHost blocks
  size_t device_bytes = 0;  // bytes reserved by live device blocks
  uint64_t init_refs = 0;
  uint64_t device_refs = 0;
};

LiveCounts live_counts();

}  // namespace runtime
}  // namespace aclnn_cpu
