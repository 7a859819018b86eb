// The operator layer's view of the runtime (runtime.hpp).
#include "runtime/runtime.hpp"

#include <memory>
#include <utility>

#include "runtime/memory.hpp"
#include "runtime/state.hpp"
#include "runtime/status.hpp"

namespace aclnn_cpu {
namespace runtime {

aclError enqueue(aclrtStream stream, std::function<aclError()> work, bool on_caller_when_idle) {
  static const char kApi[] = "launch on stream";
  return guarded(kApi, [&] { return push_work(kApi, stream, std::move(work), on_caller_when_idle); });
}

bool find_allocation(const void *p, const unsigned char **begin, const unsigned char **end) {
  return find_block(p, begin, end);
}

void find_allocations(size_t count, const void *const *ps, bool *found, const unsigned char **begins,
                      const unsigned char **ends) {
  find_blocks(count, ps, found, begins, ends);
}

}  // namespace runtime
}  // namespace aclnn_cpu
