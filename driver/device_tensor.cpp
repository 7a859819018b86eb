#include "device_tensor.hpp"

#include <algorithm>

#include "conformance_tensor.hpp"

namespace aclnn_cpu {
namespace demo {

std::string recent_error() {
  const char *message = aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

bool DeviceTensor::create(const std::vector<int64_t> &shape, aclDataType dtype, aclFormat format, std::string *error) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  bytes_ = static_cast<size_t>(count) * conformance::element_bytes(dtype);
  void *dev = nullptr;
  // aclrtMalloc refuses size 0; an empty tensor still gets a (tiny) buffer.
  aclError ret = aclrtMalloc(&dev, std::max<size_t>(bytes_, 1), ACL_MEM_MALLOC_HUGE_FIRST);
  if (ret != ACL_SUCCESS) {
    *error =
        "aclrtMalloc of " + std::to_string(bytes_) + " bytes failed (" + std::to_string(ret) + "): " + recent_error();
    return false;
  }
  data_.reset(dev);
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(shape[i], 1);
  tensor_.reset(
      aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format, shape.data(), shape.size(), dev));
  if (!tensor_) {
    *error = "aclCreateTensor failed: " + recent_error();
    return false;
  }
  return true;
}

bool DeviceTensor::upload(const std::vector<unsigned char> &bytes, std::string *error) {
  if (bytes.empty()) return true;
  aclError ret = aclrtMemcpy(data_.get(), bytes_, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  if (ret == ACL_SUCCESS) return true;
  *error = "aclrtMemcpy to the device failed (" + std::to_string(ret) + "): " + recent_error();
  return false;
}

bool DeviceTensor::download(std::vector<unsigned char> *bytes, std::string *error) const {
  bytes->assign(bytes_, 0);
  if (bytes_ == 0) return true;
  aclError ret = aclrtMemcpy(bytes->data(), bytes->size(), data_.get(), bytes_, ACL_MEMCPY_DEVICE_TO_HOST);
  if (ret == ACL_SUCCESS) return true;
  *error = "aclrtMemcpy to the host failed (" + std::to_string(ret) + "): " + recent_error();
  return false;
}

IntArray make_int_array(const std::vector<int64_t> &values) {
  return IntArray(aclCreateIntArray(values.data(), values.size()), aclDestroyIntArray);
}

BoolArray make_bool_array(const std::vector<bool> &values) {
  std::unique_ptr<bool[]> raw(new bool[values.size() + 1]);  // std::vector<bool> has no bool* to hand over
  for (size_t i = 0; i < values.size(); ++i) raw[i] = values[i];
  return BoolArray(aclCreateBoolArray(raw.get(), values.size()), aclDestroyBoolArray);
}

}  // namespace demo
}  // namespace aclnn_cpu
