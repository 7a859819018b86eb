#include "api/executor.hpp"

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "api/api_util.hpp"
#include "runtime/runtime.hpp"
#include "runtime/state.hpp"

namespace aclnn_cpu {
namespace {

// Serialises every access to an executor's fields with its liveness check, so that a launch never reads an
// executor that a concurrent destroy is freeing. Never destroyed (see handle_registry.cpp).
std::mutex &executor_mutex() {
  static std::mutex *m = new std::mutex;
  return *m;
}

// Appended to the message of a refused launch that consumed its executor.
constexpr char kConsumed[] = "; the executor has been destroyed";

// What a launch takes from the executor under the lock.
struct Claim {
  std::shared_ptr<Operation> operation;
  bool consumed = false;  // the executor was single-use and has been destroyed
};

int claim_executor(const char *api, aclOpExecutor *executor, Claim *claim) {
  std::unique_ptr<aclOpExecutor> consumed;
  {
    std::lock_guard<std::mutex> lock(executor_mutex());
    if (!is_live_handle(HandleKind::kExecutor, executor)) {
      return param_error(ACLNN_ERR_PARAM_INVALID, api,
                         "executor (" + pointer_text(executor) +
                             ") is not a live aclOpExecutor: it was already launched (an executor serves one launch "
                             "unless aclSetAclOpExecutorRepeatable was called), destroyed, or never created");
    }
    claim->operation = executor->operation;
    if (!executor->repeatable) {
      unregister_handle(HandleKind::kExecutor, executor);
      consumed.reset(executor);
      claim->consumed = true;
    }
  }
  return ACLNN_SUCCESS;  // `consumed` is freed here, outside the lock
}

// Work runs only after aclInit with a device set. Checked before the workspace: without them aclrtMalloc fails
// too, and the missing workspace would be reported instead of its cause.
int check_runtime_ready(const char *api, const char *fate) {
  const aclError ready = runtime::require_device(api);
  if (ready == ACL_SUCCESS) return ACLNN_SUCCESS;
  const std::string why = ready == ACL_ERROR_UNINITIALIZE
                              ? "the runtime is not initialised: aclInit has not been called (or aclFinalize has run "
                                "since)"
                              : "no device is set: call aclrtSetDevice(0) first";
  return inner_error(ACLNN_ERR_RUNTIME_ERROR, api,
                     "cannot launch, " + why + " (aclError " + std::to_string(ready) +
                         "); the stream, the workspace (aclrtMalloc) and the work need it; nothing was computed" +
                         fate);
}

// The work writes the workspace: as on the device, it must be memory the runtime handed out and still owns,
// with room for `needed` bytes.
int check_workspace_block(const char *api, const void *workspace, uint64_t needed, const char *fate) {
  runtime::Allocation block;
  if (!runtime::find_allocation(workspace, &block)) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "workspace (" + pointer_text(workspace) +
                           ") is not inside a live aclrtMalloc allocation (never allocated by the runtime, already "
                           "freed, or released by aclrtResetDevice/aclFinalize)" +
                           fate);
  }
  const uint64_t available = static_cast<uint64_t>(block.end - static_cast<const unsigned char *>(workspace));
  if (available < needed) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "workspace (" + pointer_text(workspace) + ") has only " + std::to_string(available) +
                           " bytes left in " + runtime::allocation_text(block) + " but the executor needs " +
                           std::to_string(needed) + fate);
  }
  return ACLNN_SUCCESS;
}

int check_workspace(const char *api, void *workspace, uint64_t workspace_size, const Operation &operation,
                    uint64_t needed, bool consumed) {
  // (No string is made on the way that passes: a launch allocates nothing.)
  const char *fate = consumed ? kConsumed : "";
  if (workspace_size > 0 && workspace == nullptr) {
    return param_error(ACLNN_ERR_PARAM_NULLPTR, api,
                       "workspace is nullptr but workspaceSize is " + std::to_string(workspace_size) + fate);
  }
  if (workspace_size < needed) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "workspaceSize is " + std::to_string(workspace_size) + " but the executor needs " +
                           std::to_string(needed) + " bytes (the size GetWorkspaceSize returned" +
                           operation.workspace_basis() + ")" + fate);
  }
  // The staged operands are fp32: a workspace the work could not use must be refused here, not on the stream.
  if (needed > 0 && reinterpret_cast<uintptr_t>(workspace) % alignof(float) != 0) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "workspace (" + pointer_text(workspace) + ") is not aligned to " +
                           std::to_string(alignof(float)) + " bytes (aclrtMalloc returns 32-byte aligned memory)" +
                           fate);
  }
  if (needed == 0) return ACLNN_SUCCESS;
  return check_workspace_block(api, workspace, needed, fate);
}

// The work a stream runs: the operation's status, with exceptions turned into statuses on the stream thread.
// The memory checks of the launch are repeated first: a buffer freed by another thread between the launch and
// this moment is reported (161002, outputs untouched) instead of being read or written.
aclError run_operation(const char *api, Operation &operation, void *workspace, uint64_t workspace_size) {
  const int status = status_guard(api, [&] {
    if (int st = check_workspace(api, workspace, workspace_size, operation, workspace_size, false)) return st;
    if (int st = operation.check_memory(api)) return st;
    return operation.run(workspace, workspace_size);
  });
  return log_refusal("stream", status);
}

}  // namespace

int Operation::check_memory(const char *) const { return ACLNN_SUCCESS; }

int Operation::with_tensor_addr(const char *api, bool, size_t, void *, std::shared_ptr<Operation> *) const {
  return inner_error(ACLNN_ERR_INNER, api, "this operator's executor does not support refreshing tensor addresses");
}

aclOpExecutor *create_executor(std::shared_ptr<Operation> operation) {
  std::unique_ptr<aclOpExecutor> executor(new aclOpExecutor);
  executor->operation = std::move(operation);
  register_handle(HandleKind::kExecutor, executor.get());
  return executor.release();
}

int launch_executor(const char *api, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                    aclrtStream stream) {
  if (executor == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, api, "executor is nullptr");
  Claim claim;
  if (int st = claim_executor(api, executor, &claim)) return st;
  if (claim.operation == nullptr) return inner_error(ACLNN_ERR_INNER, api, "the executor records no work");
  const uint64_t needed = claim.operation->workspace_size();
  if (int st = check_runtime_ready(api, claim.consumed ? kConsumed : "")) return st;
  if (int st = check_workspace(api, workspace, workspace_size, *claim.operation, needed, claim.consumed)) return st;
  if (int st = claim.operation->check_memory(api)) return st;

  std::shared_ptr<Operation> operation = std::move(claim.operation);
  clear_recent_error();  // so that a message after a refused enqueue is the runtime's reason, not an old one
  const bool on_caller = operation->runs_on_caller();
  aclError queued = runtime::enqueue(
      stream,
      [api, operation, workspace, needed]() -> aclError { return run_operation(api, *operation, workspace, needed); },
      on_caller);
  if (queued != ACL_SUCCESS) {
    const char *why = recent_error();
    return inner_error(ACLNN_ERR_RUNTIME_ERROR, api,
                       "cannot queue the work on stream " + pointer_text(stream) + " (aclError " +
                           std::to_string(queued) + (why != nullptr ? std::string(": ") + why : std::string()) + ")");
  }
  return ACLNN_SUCCESS;
}

int describe_executor(const char *api, const aclOpExecutor *executor, std::string *text) {
  if (executor == nullptr) return param_error(ACLNN_ERR_PARAM_NULLPTR, api, "executor is nullptr");
  std::lock_guard<std::mutex> lock(executor_mutex());
  if (int st = check_optional_handle(api, "executor", HandleKind::kExecutor, executor)) return st;
  *text = executor->operation->describe();
  return ACLNN_SUCCESS;
}

std::shared_ptr<const Operation> executor_operation(const aclOpExecutor *executor) {
  if (executor == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(executor_mutex());
  if (check_optional_handle("executor_operation", "executor", HandleKind::kExecutor, executor) != 0) return nullptr;
  return executor->operation;
}

int set_executor_repeatable(const char *api, aclOpExecutor *executor) {
  if (executor == nullptr) return inner_error(ACLNN_ERR_INNER_NULLPTR, api, "executor is nullptr");
  std::lock_guard<std::mutex> lock(executor_mutex());
  if (int st = check_optional_handle(api, "executor", HandleKind::kExecutor, executor)) return st;
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

int destroy_executor(const char *api, aclOpExecutor *executor) {
  if (executor == nullptr) return inner_error(ACLNN_ERR_INNER_NULLPTR, api, "executor is nullptr");
  std::unique_ptr<aclOpExecutor> doomed;
  {
    std::lock_guard<std::mutex> lock(executor_mutex());
    if (!unregister_handle(HandleKind::kExecutor, executor)) {
      return check_optional_handle(api, "executor", HandleKind::kExecutor, executor);
    }
    doomed.reset(executor);
  }
  return ACLNN_SUCCESS;
}

int set_executor_tensor_addr(const char *api, aclOpExecutor *executor, bool is_output, size_t index, void *addr) {
  if (executor == nullptr) return inner_error(ACLNN_ERR_INNER_NULLPTR, api, "executor is nullptr");
  std::lock_guard<std::mutex> lock(executor_mutex());
  if (int st = check_optional_handle(api, "executor", HandleKind::kExecutor, executor)) return st;
  std::shared_ptr<Operation> updated;
  if (int st = executor->operation->with_tensor_addr(api, is_output, index, addr, &updated)) return st;
  executor->operation = std::move(updated);
  return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu
