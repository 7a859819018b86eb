// The C entry points of aclnnConvolutionBackward: argument handles are checked for liveness, the call is
// validated (conv_bwd::validate), and an executor owning a copy of the validated problem is handed out;
// phase two launches it with the generic executor rules (api/executor.hpp).
#include "aclnnop/aclnn_convolution_backward.h"

#include <memory>
#include <utility>

#include "api/api_util.hpp"
#include "api/conv_backward_operation.hpp"
#include "api/executor.hpp"
#include "conv_bwd/validate/validate.hpp"

namespace aclnn_cpu {
namespace {

constexpr char kPhase1[] = "aclnnConvolutionBackwardGetWorkspaceSize";
constexpr char kPhase2[] = "aclnnConvolutionBackward";

// Runs before validation so that the validator only ever dereferences live objects. NULL passes here; the
// validator owns the NULL rules (V1).
int check_live_args(const conv_bwd::Args &a) {
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

int get_workspace_size(const conv_bwd::Args &args, uint64_t *workspaceSize, aclOpExecutor **executor) {
  if (int st = check_live_args(args)) return st;
  conv_bwd::Problem problem;
  if (int st = conv_bwd::validate(args, &problem)) return st;
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
    conv_bwd::Args args;
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
