// The live-handle registry: one set of addresses per kind of aclnn object, behind one mutex.
#include <mutex>
#include <unordered_set>

#include "api/diagnostics.hpp"
#include "api/objects.hpp"

namespace aclnn_cpu {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_set<const void *> live[kHandleKindCount];
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

size_t live_handle_count(HandleKind kind) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return set_of(r, kind).size();
}

}  // namespace aclnn_cpu
