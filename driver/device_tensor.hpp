// A contiguous tensor in "device" memory made only with public CANN calls (aclrtMalloc, aclrtMemcpy,
// aclCreateTensor), and the attribute arrays of a call; everything is released by its CANN destroy function.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"

namespace aclnn_cpu {
namespace demo {

class DeviceTensor {
 public:
  // Allocates the buffer and describes it; `format` as CANN expects for the rank. On failure returns false and
  // says why (with the runtime's message).
  bool create(const std::vector<int64_t> &shape, aclDataType dtype, aclFormat format, std::string *error);

  bool upload(const std::vector<unsigned char> &bytes, std::string *error);
  bool download(std::vector<unsigned char> *bytes, std::string *error) const;

  aclTensor *get() const { return tensor_.get(); }
  size_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<void, aclError (*)(void *)> data_{nullptr, aclrtFree};
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor *)> tensor_{nullptr, aclDestroyTensor};
  size_t bytes_ = 0;
};

using IntArray = std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)>;
using BoolArray = std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray *)>;

IntArray make_int_array(const std::vector<int64_t> &values);
BoolArray make_bool_array(const std::vector<bool> &values);

// aclGetRecentErrMsg, or "" when there is none.
std::string recent_error();

}  // namespace demo
}  // namespace aclnn_cpu
