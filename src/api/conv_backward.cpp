// The C entry points of aclnnConvolutionBackward: argument handles are checked for liveness, described to the
// operator layer without its objects (conv_bwd::Args) and validated (conv_bwd::validate), and an executor owning
// a copy of the validated problem is handed out; phase two launches it with the generic executor rules
// (api/executor.hpp).
#include "aclnnop/aclnn_convolution_backward.h"

#include <memory>
#include <utility>

#include "api/api_util.hpp"
#include "api/conv_backward_args.hpp"
#include "api/conv_backward_operation.hpp"
#include "api/executor.hpp"
#include "api/objects.hpp"
#include "conv_bwd/validate/validate.hpp"

namespace aclnn_cpu {
namespace {

constexpr char kPhase1[] = "aclnnConvolutionBackwardGetWorkspaceSize";
constexpr char kPhase2[] = "aclnnConvolutionBackward";

// Runs before validation so that the validator only ever dereferences live objects. NULL passes here; the
// validator owns the NULL rules (V1).
int check_live_args(const ConvBackwardHandles &a) {
  struct Arg {
    const char *name;
    HandleKind kind;
    const void *handle;
  };
  const Arg args[] = {
      {"gradOutput", HandleKind::kTensor, a.gradOutput},       {"input", HandleKind::kTensor, a.input},
      {"weight", HandleKind::kTensor, a.weight},               {"biasSizes", HandleKind::kIntArray, a.biasSizes},
      {"stride", HandleKind::kIntArray, a.stride},             {"padding", HandleKind::kIntArray, a.padding},
      {"dilation", HandleKind::kIntArray, a.dilation},         {"outputPadding", HandleKind::kIntArray, a.outputPadding},
      {"outputMask", HandleKind::kBoolArray, a.outputMask},    {"gradInput", HandleKind::kTensor, a.gradInput},
      {"gradWeight", HandleKind::kTensor, a.gradWeight},       {"gradBias", HandleKind::kTensor, a.gradBias},
  };
  for (const Arg &arg : args) {
    if (int st = check_optional_handle(kPhase1, arg.name, arg.kind, arg.handle)) return st;
  }
  return ACLNN_SUCCESS;
}

conv_bwd::TensorView describe(const aclTensor *t) {
  conv_bwd::TensorView view;
  if (t == nullptr) return view;
  view.given = true;
  view.shape = t->view_shape;
  view.strides = t->strides;
  view.offset = t->offset;
  view.dtype = t->dtype;
  view.format = t->format;
  view.data = t->data;
  return view;
}

template <typename T, typename Array>
conv_bwd::ArrayView<T> describe_array(const Array *a) {
  conv_bwd::ArrayView<T> view;
  if (a == nullptr) return view;
  view.given = true;
  view.values = a->values;
  return view;
}

int get_workspace_size(const ConvBackwardHandles &handles, uint64_t *workspaceSize, aclOpExecutor **executor) {
  if (int st = check_live_args(handles)) return st;
  conv_bwd::Problem problem;
  if (int st = conv_bwd::validate(describe(handles), &problem)) return st;
  // The real op dereferences these unchecked (a crash); they are checked after validation so that every
  // validation failure still reports the same status as CANN.
  if (workspaceSize == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, kPhase1, "workspaceSize is nullptr");
  if (executor == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, kPhase1, "executor is nullptr");

  std::shared_ptr<ConvBackwardOperation> operation;
  aclOpExecutor *created = nullptr;
  try {
    operation = std::make_shared<ConvBackwardOperation>(std::move(problem));
    if (!operation->unplannable().empty()) {
      return param_error(ACLNN_ERR_PARAM_INVALID, kPhase1, operation->unplannable() + ".");
    }
    created = create_executor(operation);
  } catch (const std::bad_alloc &) {
    return inner_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kPhase1, "out of host memory while creating the executor");
  }
  *workspaceSize = operation->workspace_size();
  *executor = created;
  return ACLNN_SUCCESS;
}

}  // namespace

conv_bwd::Args describe(const ConvBackwardHandles &h) {
  conv_bwd::Args args;
  args.gradOutput = describe(h.gradOutput);
  args.input = describe(h.input);
  args.weight = describe(h.weight);
  args.biasSizes = describe_array<int64_t>(h.biasSizes);
  args.stride = describe_array<int64_t>(h.stride);
  args.padding = describe_array<int64_t>(h.padding);
  args.dilation = describe_array<int64_t>(h.dilation);
  args.transposed = h.transposed;
  args.outputPadding = describe_array<int64_t>(h.outputPadding);
  args.groups = h.groups;
  args.outputMask = describe_array<uint8_t>(h.outputMask);
  args.cubeMathType = h.cubeMathType;
  args.gradInput = describe(h.gradInput);
  args.gradWeight = describe(h.gradWeight);
  args.gradBias = describe(h.gradBias);
  return args;
}

}  // namespace aclnn_cpu

using namespace aclnn_cpu;

extern "C" {

aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *input, const aclTensor *weight, const aclIntArray *biasSizes,
    const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool transposed,
    const aclIntArray *outputPadding, int groups, const aclBoolArray *outputMask, int8_t cubeMathType,
    aclTensor *gradInput, aclTensor *gradWeight, aclTensor *gradBias, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
  const int status = status_guard(kPhase1, [&] {
    ConvBackwardHandles args;
    args.gradOutput = gradOutput;
    args.input = input;
    args.weight = weight;
    args.biasSizes = biasSizes;
    args.stride = stride;
    args.padding = padding;
    args.dilation = dilation;
    args.transposed = transposed;
    args.outputPadding = outputPadding;
    args.groups = groups;
    args.outputMask = outputMask;
    args.cubeMathType = cubeMathType;
    args.gradInput = gradInput;
    args.gradWeight = gradWeight;
    args.gradBias = gradBias;
    return get_workspace_size(args, workspaceSize, executor);
  });
  return log_refusal("GetWorkspaceSize", status);
}

aclnnStatus aclnnConvolutionBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                     const aclrtStream stream) {
  const int status =
      status_guard(kPhase2, [&] { return launch_executor(kPhase2, workspace, workspaceSize, executor, stream); });
  return log_refusal("launch", status);
}

}  // extern "C"
