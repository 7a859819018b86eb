// aclTensorList and aclScalarList. As in CANN, a list takes ownership of the objects it is created from:
// destroying the list destroys them, and the caller must not destroy them again (CANN doc of
// aclDestroyTensorList: "the aclTensors in the list need not be destroyed again").
#include <memory>
#include <string>
#include <vector>

#include "api/api_util.hpp"

namespace aclnn_cpu {
namespace {

// Copies the element pointers of a new list. NULL elements are kept (CANN keeps them too); a non-NULL element
// that is not a live handle of `kind` makes the creation fail, so a list never owns a stale pointer.
template <class T>
bool copy_items(const char *api, HandleKind kind, const T *const *value, uint64_t size, std::vector<T *> *items) {
  // CANN: a NULL value (or size 0) gives an empty list.
  if (value == nullptr || size == 0) return true;
  if (size > items->max_size()) throw std::bad_alloc();
  for (uint64_t i = 0; i < size; ++i) {
    if (value[i] != nullptr && !is_live_handle(kind, value[i])) {
      check_optional_handle(api, ("value[" + std::to_string(i) + "]").c_str(), kind, value[i]);
      return false;
    }
  }
  items->reserve(size);
  for (uint64_t i = 0; i < size; ++i) items->push_back(const_cast<T *>(value[i]));
  return true;
}

// Destroys the list and then each owned element that is still live. An element the caller destroyed anyway
// (or that appears twice) is skipped instead of being freed twice.
template <class List>
int destroy_list(const char *api, HandleKind list_kind, HandleKind item_kind, const List *list) {
  if (list == nullptr) return ACLNN_SUCCESS;
  if (!unregister_handle(list_kind, list)) return check_optional_handle(api, "array", list_kind, list);
  for (auto *item : list->items) {
    if (item != nullptr && unregister_handle(item_kind, item)) delete item;
  }
  delete list;
  return ACLNN_SUCCESS;
}

template <class List>
int get_list_size(const char *api, const char *param, HandleKind kind, const List *list, uint64_t *size) {
  if (int st = check_handle(api, param, kind, list)) return st;
  if (size == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, api, "size is nullptr");
  *size = list->items.size();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace aclnn_cpu

using namespace aclnn_cpu;

extern "C" {

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
  static const char kApi[] = "aclCreateTensorList";
  return pointer_guard<aclTensorList>(kApi, [&]() -> aclTensorList * {
    std::unique_ptr<aclTensorList> list(new aclTensorList);
    if (!copy_items(kApi, HandleKind::kTensor, value, size, &list->items)) return nullptr;
    return register_new(HandleKind::kTensorList, list.release());
  });
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
  static const char kApi[] = "aclCreateScalarList";
  return pointer_guard<aclScalarList>(kApi, [&]() -> aclScalarList * {
    std::unique_ptr<aclScalarList> list(new aclScalarList);
    if (!copy_items(kApi, HandleKind::kScalar, value, size, &list->items)) return nullptr;
    return register_new(HandleKind::kScalarList, list.release());
  });
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
  static const char kApi[] = "aclDestroyTensorList";
  return status_guard(kApi,
                      [&] { return destroy_list(kApi, HandleKind::kTensorList, HandleKind::kTensor, array); });
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
  static const char kApi[] = "aclDestroyScalarList";
  return status_guard(kApi,
                      [&] { return destroy_list(kApi, HandleKind::kScalarList, HandleKind::kScalar, array); });
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
  static const char kApi[] = "aclGetTensorListSize";
  return status_guard(kApi,
                      [&] { return get_list_size(kApi, "tensorList", HandleKind::kTensorList, tensorList, size); });
}

aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size) {
  static const char kApi[] = "aclGetScalarListSize";
  return status_guard(kApi,
                      [&] { return get_list_size(kApi, "scalarList", HandleKind::kScalarList, scalarList, size); });
}

}  // extern "C"
