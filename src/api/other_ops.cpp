// The other two operators of aclnn_convolution_backward.h. They are declared so that CANN programs compile and
// link, but this library has no host kernel for them: the first phase reports 561003 (CANN's "kernel not
// found") with a message and creates nothing. The second phase is CANN's generic executor launch, as it is for
// every aclnn operator, so it obeys the same NULL/stale-executor rules.
#include "aclnnop/aclnn_convolution_backward.h"

#include "api/api_util.hpp"
#include "api/executor.hpp"

namespace {

int no_kernel(const char *api, const char *op) {
  return aclnn_cpu::inner_error(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, api,
                                std::string(op) + " has no host kernel in aclnn-cpu (only aclnnConvolutionBackward "
                                                  "is implemented); nothing was computed and no executor was created");
}

}  // namespace

using namespace aclnn_cpu;

extern "C" {

aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(const aclTensor *, const aclTensor *, const aclTensor *,
                                                 const aclTensor *, int64_t, int8_t, aclTensor *, aclTensor *,
                                                 aclTensor *, uint64_t *, aclOpExecutor **) {
  static const char kApi[] = "aclnnConvTbcBackwardGetWorkspaceSize";
  return log_refusal("GetWorkspaceSize", status_guard(kApi, [&] { return no_kernel(kApi, "aclnnConvTbcBackward"); }));
}

aclnnStatus aclnnConvTbcBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 const aclrtStream stream) {
  static const char kApi[] = "aclnnConvTbcBackward";
  const int status =
      status_guard(kApi, [&] { return launch_executor(kApi, workspace, workspaceSize, executor, stream); });
  return log_refusal("launch", status);
}

aclnnStatus aclnnDeformableConv2dBackwardGetWorkspaceSize(const aclTensor *, const aclTensor *, const aclTensor *,
                                                          const aclTensor *, const aclTensor *, const aclIntArray *,
                                                          const aclIntArray *, const aclIntArray *,
                                                          const aclIntArray *, int64_t, int64_t, bool, aclTensor *,
                                                          aclTensor *, aclTensor *, aclTensor *, uint64_t *,
                                                          aclOpExecutor **) {
  static const char kApi[] = "aclnnDeformableConv2dBackwardGetWorkspaceSize";
  return log_refusal("GetWorkspaceSize",
                     status_guard(kApi, [&] { return no_kernel(kApi, "aclnnDeformableConv2dBackward"); }));
}

aclnnStatus aclnnDeformableConv2dBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          const aclrtStream stream) {
  static const char kApi[] = "aclnnDeformableConv2dBackward";
  const int status =
      status_guard(kApi, [&] { return launch_executor(kApi, workspace, workspaceSize, executor, stream); });
  return log_refusal("launch", status);
}

}  // extern "C"
