// One aclnnConvolutionBackward call made as a CANN program makes it, with the public C API only: tensors over the
// caller's memory, the attribute arrays, both phases and the workspace. The demo driver, the benchmark, the
// cross-check runner and the tests all call the operator through it, so that they call it the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"

namespace aclnn_cpu {
namespace harness {

// The tensors of a call in CANN's argument order.
enum Slot { kGradOutput, kInput, kWeight, kGradInput, kGradWeight, kGradBias, kSlots };

// aclGetRecentErrMsg, or "" when there is none.
std::string recent_error();

// The format CANN expects for `slot`'s tensor of `rank` dims: ND for gradBias, else NCL, NCHW or NCDHW (ND for a
// rank the operator does not take).
aclFormat tensor_format(int slot, size_t rank);

struct TensorDeleter {
  void operator()(const aclTensor *t) const { aclDestroyTensor(t); }
};
using TensorHandle = std::unique_ptr<aclTensor, TensorDeleter>;

// aclCreateTensor over `data` (strides and offset in elements); empty when it refuses (recent_error() says why).
TensorHandle make_tensor(const std::vector<int64_t> &shape, const std::vector<int64_t> &strides, int64_t offset,
                         aclDataType dtype, aclFormat format, const std::vector<int64_t> &storage_shape, void *data);

// The arguments of a call other than its tensors, as plain values in the call's own dims (a 2-D padding of four
// values is [top, bottom, left, right]).
struct ConvAttrs {
  std::vector<int64_t> bias_sizes, stride, padding, dilation, output_padding;
  bool transposed = false;
  int groups = 1;
  bool mask[3] = {true, true, true};  // gradInput, gradWeight, gradBias
  int8_t cube_math_type = 0;
};

// ConvAttrs as the API takes them; the arrays live as long as this object.
class ConvArgs {
 public:
  explicit ConvArgs(const ConvAttrs &attrs);
  // False when an array could not be created (recent_error() says why).
  bool ok() const;
  // Phase one for `tensors` (NULL where a tensor is not passed).
  aclnnStatus get_workspace_size(aclTensor *const tensors[kSlots], uint64_t *size, aclOpExecutor **executor) const;

 private:
  using IntArray = std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)>;
  using BoolArray = std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray *)>;

  ConvAttrs attrs_;
  IntArray bias_sizes_, stride_, padding_, dilation_, output_padding_;
  BoolArray mask_;
};

// A workspace in device memory, kept and grown to the largest size asked for, as an application that repeats a call
// (or a caching allocator) keeps it.
class Workspace {
 public:
  // ACL_SUCCESS, or aclrtMalloc's error.
  aclError reserve(uint64_t bytes);
  // What to hand a launch asking for `bytes` (NULL for none).
  void *for_launch(uint64_t bytes) const { return bytes > 0 ? data_.get() : nullptr; }

 private:
  std::unique_ptr<void, aclError (*)(void *)> data_{nullptr, aclrtFree};
  uint64_t capacity_ = 0;
};

// The steps of a call, in order.
enum class Step { kNone, kGetWorkspaceSize, kWorkspace, kLaunch, kSynchronize };

// The API function a step calls ("aclrtMalloc" for the workspace; "" for kNone).
const char *step_function(Step step);

// How a call went: the step that failed (kNone: none) and its return value.
struct Outcome {
  Step failed = Step::kNone;
  int status = 0;
  uint64_t workspace_bytes = 0;  // what phase one asked for
  bool ok() const { return failed == Step::kNone; }
};

// Phase two for an executor of phase one: the workspace, aclnnConvolutionBackward on `stream` and
// aclrtSynchronizeStream. The executor is used up either way.
Outcome launch(aclOpExecutor *executor, uint64_t workspace_bytes, Workspace *workspace, aclrtStream stream);

// Both phases. `phase_seconds`, when given, receives the seconds of phase one with the workspace, of the launch
// and of the synchronisation.
Outcome call(const ConvArgs &args, aclTensor *const tensors[kSlots], Workspace *workspace, aclrtStream stream,
             double phase_seconds[3] = nullptr);

}  // namespace harness
}  // namespace aclnn_cpu
