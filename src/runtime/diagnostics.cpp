#include "runtime/diagnostics.hpp"

#include <mutex>

#include "runtime/memory.hpp"
#include "runtime/state_data.hpp"

namespace aclnn_cpu {
namespace runtime {

LiveCounts live_counts() {
  LiveCounts counts;
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    counts.streams = s.streams.size();
    counts.default_stream = s.default_stream != nullptr;
    counts.events = s.events.size();
    counts.contexts = s.contexts.size();
    counts.init_refs = s.init_refs;
    counts.device_refs = s.device_refs;
  }
  const MemoryCounts memory = memory_counts();
  counts.blocks = memory.blocks;
  counts.device_bytes = memory.device_bytes;
  return counts;
}

}  // namespace runtime
}  // namespace aclnn_cpu
