// aclTensor: creation, re-initialisation, destruction and queries (docs/contract.md §1.6).
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "api/api_util.hpp"

namespace aclnn_cpu {
namespace {

// CANN keeps shapes and strides in fixed arrays of 25 dims (op::MAX_DIM_NUM, gert::Shape::kMaxDimNum), so no
// CANN tensor has more. Refusing larger counts also keeps a garbage count from sizing an allocation.
constexpr uint64_t kMaxTensorDims = 25;

// Row-major strides of `shape`, multiplied in wrapping unsigned arithmetic: CANN does no overflow check here
// either, and an absurd shape is rejected later by the operator's validation, never by tensor creation.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    uint64_t s = static_cast<uint64_t>(strides[i]) * static_cast<uint64_t>(shape[i]);
    strides[i - 1] = static_cast<int64_t>(s);
  }
  return strides;
}

struct TensorArgs {
  const int64_t *view_dims;
  uint64_t view_dims_num;
  aclDataType dtype;
  const int64_t *stride;
  int64_t offset;
  aclFormat format;
  const int64_t *storage_dims;
  uint64_t storage_dims_num;
  void *data;
};

// Checks the pointer/count pairs; returns 0 or a status with a message naming `api`.
int check_tensor_args(const char *api, const TensorArgs &a) {
  if (a.view_dims == nullptr && a.view_dims_num > 0) {
    return param_error(ACLNN_ERR_PARAM_NULLPTR, api,
                       "viewDims is nullptr but viewDimsNum is " + std::to_string(a.view_dims_num));
  }
  if (a.storage_dims == nullptr && a.storage_dims_num > 0) {
    return param_error(ACLNN_ERR_PARAM_NULLPTR, api,
                       "storageDims is nullptr but storageDimsNum is " + std::to_string(a.storage_dims_num));
  }
  if (a.view_dims_num > kMaxTensorDims) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "viewDimsNum is " + std::to_string(a.view_dims_num) + "; a tensor has at most " +
                           std::to_string(kMaxTensorDims) + " dims");
  }
  if (a.storage_dims_num > kMaxTensorDims) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "storageDimsNum is " + std::to_string(a.storage_dims_num) + "; a tensor has at most " +
                           std::to_string(kMaxTensorDims) + " dims");
  }
  return ACLNN_SUCCESS;
}

// Fills `t` from checked arguments (may throw std::bad_alloc, leaving `t` partly written).
void fill_tensor(const TensorArgs &a, aclTensor *t) {
  t->view_shape.assign(a.view_dims, a.view_dims + a.view_dims_num);
  if (a.stride != nullptr) {
    t->strides.assign(a.stride, a.stride + a.view_dims_num);
  } else {
    t->strides = contiguous_strides(t->view_shape);
  }
  t->offset = a.offset;
  t->dtype = a.dtype;
  t->format = a.format;
  t->storage_shape.assign(a.storage_dims, a.storage_dims + a.storage_dims_num);
  t->data = a.data;
}

// Copies `values` into a new[] array the caller delete[]s; 561103 when that allocation fails.
int copy_out(const char *api, const char *what, const std::vector<int64_t> &values, int64_t **out,
             uint64_t *count) {
  int64_t *copy = new (std::nothrow) int64_t[values.size()];
  if (copy == nullptr) {
    return inner_error(ACLNN_ERR_INNER_NULLPTR, api, std::string("cannot allocate the ") + what + " array");
  }
  if (!values.empty()) std::memcpy(copy, values.data(), values.size() * sizeof(int64_t));
  *out = copy;
  *count = values.size();
  return ACLNN_SUCCESS;
}

using ArrayMember = std::vector<int64_t> aclTensor::*;

int get_dims(const char *api, const char *what, ArrayMember member, const aclTensor *tensor, int64_t **values,
             uint64_t *count, const char *values_name, const char *count_name) {
  if (int st = check_handle(api, "tensor", HandleKind::kTensor, tensor)) return st;
  if (values == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, api, std::string(values_name) + " is nullptr");
  if (count == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, api, std::string(count_name) + " is nullptr");
  return copy_out(api, what, tensor->*member, values, count);
}

}  // namespace
}  // namespace aclnn_cpu

using namespace aclnn_cpu;

extern "C" {

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                           uint64_t storageDimsNum, void *tensorData) {
  static const char kApi[] = "aclCreateTensor";
  return pointer_guard<aclTensor>(kApi, [&]() -> aclTensor * {
    TensorArgs a{viewDims,          viewDimsNum, normalise_dtype(dataType), stride, offset, normalise_format(format),
                 storageDims,       storageDimsNum, tensorData};
    if (check_tensor_args(kApi, a) != ACLNN_SUCCESS) return nullptr;
    std::unique_ptr<aclTensor> t(new aclTensor);
    fill_tensor(a, t.get());
    return register_new(HandleKind::kTensor, t.release());
  });
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorDataAddr) {
  static const char kApi[] = "aclInitTensor";
  return status_guard(kApi, [&]() -> int {
    if (int st = check_handle(kApi, "tensor", HandleKind::kTensor, tensor)) return st;
    TensorArgs a{viewDims,    viewDimsNum,    normalise_dtype(dataType), stride, offset, normalise_format(format),
                 storageDims, storageDimsNum, tensorDataAddr};
    if (int st = check_tensor_args(kApi, a)) return st;
    aclTensor fresh;  // built aside so that a failure leaves `tensor` unchanged
    fill_tensor(a, &fresh);
    *tensor = std::move(fresh);
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
  static const char kApi[] = "aclDestroyTensor";
  return status_guard(kApi, [&] {
    return destroy_handle(kApi, "tensor", HandleKind::kTensor, tensor);
  });
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
  static const char kApi[] = "aclGetViewShape";
  return status_guard(kApi, [&] {
    return get_dims(kApi, "view shape", &aclTensor::view_shape, tensor, viewDims, viewDimsNum, "viewDims",
                    "viewDimsNum");
  });
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
  static const char kApi[] = "aclGetStorageShape";
  return status_guard(kApi, [&] {
    return get_dims(kApi, "storage shape", &aclTensor::storage_shape, tensor, storageDims, storageDimsNum,
                    "storageDims", "storageDimsNum");
  });
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
  static const char kApi[] = "aclGetViewStrides";
  return status_guard(kApi, [&] {
    return get_dims(kApi, "strides", &aclTensor::strides, tensor, stridesValue, stridesNum, "stridesValue",
                    "stridesNum");
  });
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
  static const char kApi[] = "aclGetViewOffset";
  return status_guard(kApi, [&]() -> int {
    if (int st = check_handle(kApi, "tensor", HandleKind::kTensor, tensor)) return st;
    if (offset == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, kApi, "offset is nullptr");
    *offset = tensor->offset;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
  static const char kApi[] = "aclGetFormat";
  return status_guard(kApi, [&]() -> int {
    if (int st = check_handle(kApi, "tensor", HandleKind::kTensor, tensor)) return st;
    if (format == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, kApi, "format is nullptr");
    *format = tensor->format;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
  static const char kApi[] = "aclGetDataType";
  return status_guard(kApi, [&]() -> int {
    if (int st = check_handle(kApi, "tensor", HandleKind::kTensor, tensor)) return st;
    if (dataType == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, kApi, "dataType is nullptr");
    *dataType = tensor->dtype;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr) {
  static const char kApi[] = "aclSetRawTensorAddr";
  return status_guard(kApi, [&]() -> int {
    if (int st = check_handle(kApi, "tensor", HandleKind::kTensor, tensor)) return st;
    tensor->data = addr;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr) {
  static const char kApi[] = "aclGetRawTensorAddr";
  return status_guard(kApi, [&]() -> int {
    if (int st = check_handle(kApi, "tensor", HandleKind::kTensor, tensor)) return st;
    if (addr == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, kApi, "addr is nullptr");
    *addr = tensor->data;
    return ACLNN_SUCCESS;
  });
}

}  // extern "C"
