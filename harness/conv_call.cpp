#include "harness/conv_call.hpp"

#include <chrono>

#include "aclnn/opdev/op_errno.h"

namespace aclnn_cpu {
namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// The steps after the workspace, with the time each took when `phase_seconds` is given.
Outcome launch_steps(aclOpExecutor *executor, uint64_t bytes, const Workspace &workspace, aclrtStream stream,
                     double *phase_seconds) {
  Outcome outcome;
  outcome.workspace_bytes = bytes;
  const Clock::time_point start = phase_seconds != nullptr ? Clock::now() : Clock::time_point();
  outcome.status = aclnnConvolutionBackward(workspace.for_launch(bytes), bytes, executor, stream);
  if (outcome.status != ACLNN_SUCCESS) {
    outcome.failed = Step::kLaunch;
    return outcome;
  }
  const Clock::time_point launched = phase_seconds != nullptr ? Clock::now() : Clock::time_point();
  outcome.status = aclrtSynchronizeStream(stream);
  if (phase_seconds != nullptr) {
    phase_seconds[0] = seconds(start, launched);
    phase_seconds[1] = seconds(launched, Clock::now());
  }
  if (outcome.status != ACL_SUCCESS) outcome.failed = Step::kSynchronize;
  return outcome;
}

Outcome workspace_failure(aclOpExecutor *executor, uint64_t bytes, aclError status) {
  aclDestroyAclOpExecutor(executor);
  Outcome outcome;
  outcome.failed = Step::kWorkspace;
  outcome.status = status;
  outcome.workspace_bytes = bytes;
  return outcome;
}

}  // namespace

std::string recent_error() {
  const char *message = aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

const char *step_function(Step step) {
  static const char *const kFunctions[] = {"", "aclnnConvolutionBackwardGetWorkspaceSize", "aclrtMalloc",
                                           "aclnnConvolutionBackward", "aclrtSynchronizeStream"};
  return kFunctions[static_cast<int>(step)];
}

aclFormat tensor_format(int slot, size_t rank) {
  if (slot == kGradBias) return ACL_FORMAT_ND;
  switch (rank) {
    case 3:
      return ACL_FORMAT_NCL;
    case 4:
      return ACL_FORMAT_NCHW;
    case 5:
      return ACL_FORMAT_NCDHW;
    default:
      return ACL_FORMAT_ND;
  }
}

TensorHandle make_tensor(const std::vector<int64_t> &shape, const std::vector<int64_t> &strides, int64_t offset,
                         aclDataType dtype, aclFormat format, const std::vector<int64_t> &storage_shape, void *data) {
  return TensorHandle(aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, format,
                                      storage_shape.data(), storage_shape.size(), data));
}

ConvArgs::ConvArgs(const ConvAttrs &attrs)
    : attrs_(attrs),
      bias_sizes_(aclCreateIntArray(attrs.bias_sizes.data(), attrs.bias_sizes.size()), aclDestroyIntArray),
      stride_(aclCreateIntArray(attrs.stride.data(), attrs.stride.size()), aclDestroyIntArray),
      padding_(aclCreateIntArray(attrs.padding.data(), attrs.padding.size()), aclDestroyIntArray),
      dilation_(aclCreateIntArray(attrs.dilation.data(), attrs.dilation.size()), aclDestroyIntArray),
      output_padding_(aclCreateIntArray(attrs.output_padding.data(), attrs.output_padding.size()), aclDestroyIntArray),
      mask_(aclCreateBoolArray(attrs.mask, 3), aclDestroyBoolArray) {}

bool ConvArgs::ok() const { return bias_sizes_ && stride_ && padding_ && dilation_ && output_padding_ && mask_; }

aclnnStatus ConvArgs::get_workspace_size(aclTensor *const tensors[kSlots], uint64_t *size,
                                         aclOpExecutor **executor) const {
  return aclnnConvolutionBackwardGetWorkspaceSize(
      tensors[kGradOutput], tensors[kInput], tensors[kWeight], bias_sizes_.get(), stride_.get(), padding_.get(),
      dilation_.get(), attrs_.transposed, output_padding_.get(), attrs_.groups, mask_.get(), attrs_.cube_math_type,
      tensors[kGradInput], tensors[kGradWeight], tensors[kGradBias], size, executor);
}

aclError Workspace::reserve(uint64_t bytes) {
  if (bytes <= capacity_) return ACL_SUCCESS;
  data_.reset();
  capacity_ = 0;
  void *dev = nullptr;
  const aclError status = aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  if (status != ACL_SUCCESS) return status;
  data_.reset(dev);
  capacity_ = bytes;
  return ACL_SUCCESS;
}

Outcome launch(aclOpExecutor *executor, uint64_t workspace_bytes, Workspace *workspace, aclrtStream stream) {
  if (aclError status = workspace->reserve(workspace_bytes)) {
    return workspace_failure(executor, workspace_bytes, status);
  }
  return launch_steps(executor, workspace_bytes, *workspace, stream, nullptr);
}

Outcome call(const ConvArgs &args, aclTensor *const tensors[kSlots], Workspace *workspace, aclrtStream stream,
             double phase_seconds[3]) {
  const Clock::time_point start = phase_seconds != nullptr ? Clock::now() : Clock::time_point();
  Outcome outcome;
  aclOpExecutor *executor = nullptr;
  outcome.status = args.get_workspace_size(tensors, &outcome.workspace_bytes, &executor);
  if (outcome.status != ACLNN_SUCCESS) {
    outcome.failed = Step::kGetWorkspaceSize;
    return outcome;
  }
  if (aclError status = workspace->reserve(outcome.workspace_bytes)) {
    return workspace_failure(executor, outcome.workspace_bytes, status);
  }
  if (phase_seconds != nullptr) phase_seconds[0] = seconds(start, Clock::now());
  return launch_steps(executor, outcome.workspace_bytes, *workspace, stream,
                      phase_seconds != nullptr ? phase_seconds + 1 : nullptr);
}

}  // namespace harness
}  // namespace aclnn_cpu
