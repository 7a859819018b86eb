// aclScalar and the int/float/bool arrays: creation, destruction and size queries (docs/contract.md §1.6).
#include <cstring>
#include <memory>
#include <string>

#include "api/api_util.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace {

// Copies `size` elements of `value` into `out`. CANN's arrays treat a NULL `value` or a zero `size` as an
// empty array rather than an error. A count no vector can hold becomes std::bad_alloc before any pointer
// arithmetic on `value`.
template <class T, class Elem>
void copy_values(const Elem *value, uint64_t size, std::vector<T> *out) {
  if (value == nullptr || size == 0) return;
  if (size > out->max_size()) throw std::bad_alloc();
  out->assign(value, value + size);
}

template <class T>
int get_size(const char *api, const char *param, HandleKind kind, const T *handle, uint64_t *size) {
  if (int st = check_handle(api, param, kind, handle)) return st;
  if (size == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, api, "size is nullptr");
  *size = handle->values.size();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace aclnn_cpu

using namespace aclnn_cpu;

extern "C" {

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
  static const char kApi[] = "aclCreateScalar";
  return pointer_guard<aclScalar>(kApi, [&]() -> aclScalar * {
    if (value == nullptr) {
      param_error(ACLNN_ERR_PARAM_NULLPTR, kApi, "value is nullptr");
      return nullptr;
    }
    const aclDataType dtype = normalise_dtype(dataType);
    size_t bytes = dtype_size(dtype);
    if (bytes == 0 || bytes > sizeof(aclScalar::bytes)) {
      param_error(ACLNN_ERR_PARAM_INVALID, kApi,
                  std::string("dataType ") + dtype_name(dtype) + " (" + std::to_string(dtype) +
                      ") has no whole-byte element (or is unknown), so a scalar of it cannot be read");
      return nullptr;
    }
    std::unique_ptr<aclScalar> s(new aclScalar);
    s->dtype = dtype;
    std::memcpy(s->bytes, value, bytes);
    return register_new(HandleKind::kScalar, s.release());
  });
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
  return pointer_guard<aclIntArray>("aclCreateIntArray", [&] {
    std::unique_ptr<aclIntArray> a(new aclIntArray);
    copy_values(value, size, &a->values);
    return register_new(HandleKind::kIntArray, a.release());
  });
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
  return pointer_guard<aclFloatArray>("aclCreateFloatArray", [&] {
    std::unique_ptr<aclFloatArray> a(new aclFloatArray);
    copy_values(value, size, &a->values);
    return register_new(HandleKind::kFloatArray, a.release());
  });
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
  return pointer_guard<aclBoolArray>("aclCreateBoolArray", [&] {
    std::unique_ptr<aclBoolArray> a(new aclBoolArray);
    // Read the caller's bools as bytes: a byte other than 0/1 is not a valid bool, and loading it as one
    // would be undefined; any non-zero byte counts as true.
    copy_values(reinterpret_cast<const unsigned char *>(value), size, &a->values);
    for (uint8_t &v : a->values) v = v != 0 ? 1 : 0;
    return register_new(HandleKind::kBoolArray, a.release());
  });
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
  return status_guard("aclDestroyScalar",
                      [&] { return destroy_handle("aclDestroyScalar", "scalar", HandleKind::kScalar, scalar); });
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
  return status_guard("aclDestroyIntArray",
                      [&] { return destroy_handle("aclDestroyIntArray", "array", HandleKind::kIntArray, array); });
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
  return status_guard("aclDestroyFloatArray", [&] {
    return destroy_handle("aclDestroyFloatArray", "array", HandleKind::kFloatArray, array);
  });
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
  return status_guard("aclDestroyBoolArray",
                      [&] { return destroy_handle("aclDestroyBoolArray", "array", HandleKind::kBoolArray, array); });
}

aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size) {
  return status_guard("aclGetIntArraySize",
                      [&] { return get_size("aclGetIntArraySize", "array", HandleKind::kIntArray, array, size); });
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size) {
  return status_guard("aclGetFloatArraySize", [&] {
    return get_size("aclGetFloatArraySize", "array", HandleKind::kFloatArray, array, size);
  });
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size) {
  return status_guard("aclGetBoolArraySize",
                      [&] { return get_size("aclGetBoolArraySize", "array", HandleKind::kBoolArray, array, size); });
}

}  // extern "C"
