// The operator layer's view of the runtime (runtime.hpp).
#include "runtime/runtime.hpp"

#include <memory>
#include <utility>

#include "runtime/memory.hpp"
#include "runtime/state.hpp"
#include "runtime/status.hpp"

namespace aclnn_cpu {
namespace runtime {

aclError enqueue(aclrtStream stream, Work work, bool on_caller_when_idle) {
  static const char kApi[] = "launch on stream";
  return guarded(kApi, [&] { return push_work(kApi, stream, std::move(work), on_caller_when_idle); });
}

bool find_allocation(const void *p, Allocation *out) {
  bool found = false;
  find_blocks(1, &p, &found, out);
  return found;
}

bool find_allocation(const void *p, const unsigned char **begin, const unsigned char **end) {
  Allocation a;
  if (!find_allocation(p, &a)) return false;
  *begin = a.begin;
  *end = a.end;
  return true;
}

void find_allocations(size_t count, const void *const *ps, bool *found, Allocation *out) {
  find_blocks(count, ps, found, out);
}

std::string allocation_text(const Allocation &a) {
  return std::string("the ") + (a.host ? "aclrtMallocHost" : "aclrtMalloc") + " allocation of " +
         std::to_string(a.requested) + " bytes (" + std::to_string(a.end - a.begin) + " usable)";
}

}  // namespace runtime
}  // namespace aclnn_cpu
