// A convolution call on host memory made through the public API, for tests of the call's lifecycle and
// workspace (not of its numbers: every operand is 1).
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_convolution_backward.h"

namespace test_support {

// A 2-D FP32 call on host memory with a workspace (16 channels, 3×3): gradInput and gradWeight.
class HostConvCall {
 public:
  HostConvCall() {
    const int64_t one[] = {1, 1}, zero[] = {0, 0};
    const bool mask[] = {true, true, false};
    go_ = tensor({1, 16, 8, 8}, &dy_);
    in_ = tensor({1, 16, 10, 10}, &x_);
    w_ = tensor({16, 16, 3, 3}, &w_data_);
    gi_ = tensor({1, 16, 10, 10}, &dx_);
    gw_ = tensor({16, 16, 3, 3}, &dw_);
    stride_ = aclCreateIntArray(one, 2);
    padding_ = aclCreateIntArray(zero, 2);
    dilation_ = aclCreateIntArray(one, 2);
    output_padding_ = aclCreateIntArray(zero, 2);
    mask_ = aclCreateBoolArray(mask, 3);
  }
  HostConvCall(const HostConvCall &) = delete;
  HostConvCall &operator=(const HostConvCall &) = delete;
  ~HostConvCall() {
    for (const aclTensor *t : {go_, in_, w_, gi_, gw_}) aclDestroyTensor(t);
    for (const aclIntArray *a : {stride_, padding_, dilation_, output_padding_}) aclDestroyIntArray(a);
    aclDestroyBoolArray(mask_);
  }
  // GetWorkspaceSize into size and executor.
  int plan() { return get_workspace_size(&size, &executor); }
  int get_workspace_size(uint64_t *size, aclOpExecutor **executor) {
    return aclnnConvolutionBackwardGetWorkspaceSize(go_, in_, w_, nullptr, stride_, padding_, dilation_, false,
                                                    output_padding_, 1, mask_, 0, gi_, gw_, nullptr, size, executor);
  }
  const std::vector<float> &grad_input() const { return dx_; }

  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;

 private:
  aclTensor *tensor(const std::vector<int64_t> &shape, std::vector<float> *data) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    data->assign(static_cast<size_t>(n), 1.0f);
    return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_NCHW, shape.data(),
                           shape.size(), data->data());
  }
  std::vector<float> dy_, x_, w_data_, dx_, dw_;
  aclTensor *go_ = nullptr, *in_ = nullptr, *w_ = nullptr, *gi_ = nullptr, *gw_ = nullptr;
  aclIntArray *stride_ = nullptr, *padding_ = nullptr, *dilation_ = nullptr, *output_padding_ = nullptr;
  aclBoolArray *mask_ = nullptr;
};

}  // namespace test_support
