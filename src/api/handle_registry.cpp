// The live-handle registry: one set of addresses per kind of aclnn object, behind one mutex.
#include <mutex>
#include <unordered_set>

#include "api/objects.hpp"

namespace aclnn_cpu {
namespace {

constexpr int kKindCount = static_cast<int>(HandleKind::kExecutor) + 1;

struct Registry {
  std::mutex mutex;
  std::unordered_set<const void *> live[kKindCount];
};

// Never destroyed: programs destroy their descriptors from static destructors and unique_ptr deleters that
// may run after this translation unit's statics are gone.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

std::unordered_set<const void *> &set_of(Registry &r, HandleKind kind) { return r.live[static_cast<int>(kind)]; }

}  // namespace

void register_handle(HandleKind kind, const void *handle) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  set_of(r, kind).insert(handle);
}

bool unregister_handle(HandleKind kind, const void *handle) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return set_of(r, kind).erase(handle) == 1;
}

bool is_live_handle(HandleKind kind, const void *handle) {
  if (handle == nullptr) return false;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return set_of(r, kind).count(handle) == 1;
}

}  // namespace aclnn_cpu
