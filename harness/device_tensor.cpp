#include "harness/device_tensor.hpp"

#include <algorithm>

namespace aclnn_cpu {
namespace harness {

bool DeviceTensor::create(const std::vector<int64_t> &shape, aclDataType dtype, aclFormat format, std::string *error) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  bytes_ = static_cast<size_t>(count) * aclDataTypeSize(dtype);
  void *dev = nullptr;
  const aclError ret = aclrtMalloc(&dev, std::max<size_t>(bytes_, 1), ACL_MEM_MALLOC_HUGE_FIRST);
  if (ret != ACL_SUCCESS) {
    *error =
        "aclrtMalloc of " + std::to_string(bytes_) + " bytes failed (" + std::to_string(ret) + "): " + recent_error();
    return false;
  }
  data_.reset(dev);
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(shape[i], 1);
  tensor_ = make_tensor(shape, strides, 0, dtype, format, shape, dev);
  if (!tensor_) {
    *error = "aclCreateTensor failed: " + recent_error();
    return false;
  }
  return true;
}

bool DeviceTensor::upload(const std::vector<unsigned char> &bytes, std::string *error) {
  if (bytes.empty()) return true;
  const aclError ret = aclrtMemcpy(data_.get(), bytes_, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  if (ret == ACL_SUCCESS) return true;
  *error = "aclrtMemcpy to the device failed (" + std::to_string(ret) + "): " + recent_error();
  return false;
}

bool DeviceTensor::download(std::vector<unsigned char> *bytes, std::string *error) const {
  bytes->assign(bytes_, 0);
  if (bytes_ == 0) return true;
  const aclError ret = aclrtMemcpy(bytes->data(), bytes->size(), data_.get(), bytes_, ACL_MEMCPY_DEVICE_TO_HOST);
  if (ret == ACL_SUCCESS) return true;
  *error = "aclrtMemcpy to the host failed (" + std::to_string(ret) + "): " + recent_error();
  return false;
}

}  // namespace harness
}  // namespace aclnn_cpu
