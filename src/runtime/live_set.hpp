// A thread-safe set of live object addresses, for handle kinds that need nothing else (data buffers,
// allocator descriptors): a handle is used only after it was found here, so garbage is refused untouched.
#pragma once

#include <mutex>
#include <unordered_set>

namespace aclnn_cpu {
namespace runtime {

class LiveSet {
 public:
  void add(const void *p) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.insert(p);
  }
  // Removes `p`; false when it was not live.
  bool remove(const void *p) {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.erase(p) != 0;
  }
  bool contains(const void *p) {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.count(p) != 0;
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  // Runs `f` while `p` is known live and cannot be removed concurrently; false when not live.
  template <class F>
  bool with(const void *p, F &&f) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (items_.count(p) == 0) return false;
    f();
    return true;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<const void *> items_;
};

}  // namespace runtime
}  // namespace aclnn_cpu
