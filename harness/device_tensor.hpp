// A contiguous tensor in device memory made only with public CANN calls (aclrtMalloc, aclrtMemcpy,
// aclCreateTensor); released by its CANN destroy functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "harness/conv_call.hpp"

namespace aclnn_cpu {
namespace harness {

class DeviceTensor {
 public:
  // Allocates the buffer (an empty tensor still gets one: aclrtMalloc refuses size 0) and describes it, its storage
  // shape its view's. On failure returns false and says why (with the runtime's message).
  bool create(const std::vector<int64_t> &shape, aclDataType dtype, aclFormat format, std::string *error);

  bool upload(const std::vector<unsigned char> &bytes, std::string *error);
  bool download(std::vector<unsigned char> *bytes, std::string *error) const;

  // NULL until create() succeeded.
  aclTensor *get() const { return tensor_.get(); }
  size_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<void, aclError (*)(void *)> data_{nullptr, aclrtFree};
  TensorHandle tensor_;
  size_t bytes_ = 0;
};

}  // namespace harness
}  // namespace aclnn_cpu
