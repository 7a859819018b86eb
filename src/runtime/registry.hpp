// Live handles of one kind (streams, events, contexts, ...): a handle is the address of its object, and only
// handles found here are ever used, so a stale or garbage handle is refused without being dereferenced.
#pragma once

#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace aclnn_cpu {
namespace runtime {

// Not synchronized: the owner guards it.
template <class T>
class HandleTable {
 public:
  void *add(std::shared_ptr<T> object) {
    void *handle = object.get();
    items_.emplace(handle, std::move(object));
    return handle;
  }

  std::shared_ptr<T> find(const void *handle) const {
    auto it = items_.find(handle);
    return it == items_.end() ? nullptr : it->second;
  }

  // Removes and returns the object (nullptr when the handle is not live).
  std::shared_ptr<T> remove(const void *handle) {
    auto it = items_.find(handle);
    if (it == items_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(it->second);
    items_.erase(it);
    return object;
  }

  std::vector<std::shared_ptr<T>> take_all() {
    std::vector<std::shared_ptr<T>> all;
    all.reserve(items_.size());
    for (auto &item : items_) all.push_back(std::move(item.second));
    items_.clear();
    return all;
  }

  std::vector<std::shared_ptr<T>> snapshot() const {
    std::vector<std::shared_ptr<T>> all;
    all.reserve(items_.size());
    for (const auto &item : items_) all.push_back(item.second);
    return all;
  }

  size_t size() const { return items_.size(); }

 private:
  std::unordered_map<const void *, std::shared_ptr<T>> items_;
};

}  // namespace runtime
}  // namespace aclnn_cpu
