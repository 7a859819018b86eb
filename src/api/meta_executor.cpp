// C entry points of acl_meta.h that act on an aclOpExecutor.
#include "api/api_util.hpp"
#include "api/executor.hpp"

using namespace aclnn_cpu;

namespace {

// CANN's aclSet{Input,Output}TensorAddr: the tensor handle is checked first (NULL → 561103), the executor's
// recorded work is re-pointed, and then the tensor itself records the new address too. Unlike CANN, a failed
// call changes neither.
int set_tensor_addr(const char *api, aclOpExecutor *executor, bool is_output, size_t index, aclTensor *tensor,
                    void *addr) {
  if (tensor == nullptr) return inner_error(ACLNN_ERR_INNER_NULLPTR, api, "tensor is nullptr");
  if (int st = check_optional_handle(api, "tensor", HandleKind::kTensor, tensor)) return st;
  if (int st = set_executor_tensor_addr(api, executor, is_output, index, addr)) return st;
  tensor->data = addr;
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
  static const char kApi[] = "aclSetAclOpExecutorRepeatable";
  return status_guard(kApi, [&] { return set_executor_repeatable(kApi, executor); });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
  static const char kApi[] = "aclDestroyAclOpExecutor";
  return status_guard(kApi, [&] { return destroy_executor(kApi, executor); });
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  static const char kApi[] = "aclSetInputTensorAddr";
  return status_guard(kApi, [&] { return set_tensor_addr(kApi, executor, false, index, tensor, addr); });
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  static const char kApi[] = "aclSetOutputTensorAddr";
  return status_guard(kApi, [&] { return set_tensor_addr(kApi, executor, true, index, tensor, addr); });
}

}  // extern "C"
