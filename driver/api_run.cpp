#include "api_run.hpp"

#include <algorithm>
#include <chrono>

#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/ext.h"
#include "harness/desc_attrs.hpp"
#include "harness/device_tensor.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

using conv_bwd::ConvDesc;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

class ApiCall {
 public:
  ApiCall(const ConvDesc &desc, ApiRun *run) : desc_(desc), run_(run), args_(harness::desc_attrs(desc)) {}

  bool prepare(const HostData &host) {
    std::string error;
    for (int t = 0; t < kTensors; ++t) {
      if (!desc_.present[t]) continue;
      const aclFormat format = harness::tensor_format(t, host.shape[t].size());
      if (!tensors_[t].create(host.shape[t], desc_.dtype[t], format, &error)) return fail("setup", -1, error);
    }
    if (!args_.ok()) return fail("aclCreateIntArray/aclCreateBoolArray", -1, harness::recent_error());
    return upload(host);
  }

  // (Re)writes inputs and poisoned outputs, so that every call starts from the same device state.
  bool upload(const HostData &host) {
    std::string error;
    for (int t = 0; t < kTensors; ++t) {
      if (desc_.present[t] && !tensors_[t].upload(host.bytes[t], &error)) return fail("aclrtMemcpy", -1, error);
    }
    return true;
  }

  // Both phases; with `between`, the executor is handed to it between them.
  bool call(aclrtStream stream, const ExecutorHook *between = nullptr) {
    aclTensor *tensors[harness::kSlots];
    for (int t = 0; t < harness::kSlots; ++t) tensors[t] = tensors_[t].get();
    const harness::Outcome outcome = between == nullptr ? harness::call(args_, tensors, &workspace_, stream)
                                                        : hooked_call(tensors, stream, *between);
    if (outcome.failed != harness::Step::kGetWorkspaceSize) run_->workspace_bytes = outcome.workspace_bytes;
    if (outcome.ok()) return true;
    const bool workspace = outcome.failed == harness::Step::kWorkspace;
    return fail(workspace ? "aclrtMalloc (workspace)" : harness::step_function(outcome.failed), outcome.status,
                harness::recent_error());
  }

  bool download(std::vector<unsigned char> outputs[3]) {
    std::string error;
    for (int i = 0; i < 3; ++i) {
      const int t = conv_bwd::kDescGradInput + i;
      if (desc_.present[t] && !tensors_[t].download(&outputs[i], &error)) return fail("aclrtMemcpy", -1, error);
    }
    return true;
  }

  // Phase one only: the executor goes to `inspect`, then is destroyed (nothing computed).
  bool plan_only(const ExecutorHook &inspect) {
    aclTensor *tensors[harness::kSlots];
    for (int t = 0; t < harness::kSlots; ++t) tensors[t] = tensors_[t].get();
    aclOpExecutor *executor = nullptr;
    uint64_t bytes = 0;
    const aclnnStatus status = args_.get_workspace_size(tensors, &bytes, &executor);
    if (status != ACLNN_SUCCESS)
      return fail("aclnnConvolutionBackwardGetWorkspaceSize", status, harness::recent_error());
    run_->workspace_bytes = bytes;
    inspect(executor);
    aclDestroyAclOpExecutor(executor);
    return true;
  }

 private:
  harness::Outcome hooked_call(aclTensor *const tensors[harness::kSlots], aclrtStream stream,
                               const ExecutorHook &between) {
    harness::Outcome outcome;
    aclOpExecutor *executor = nullptr;
    outcome.status = args_.get_workspace_size(tensors, &outcome.workspace_bytes, &executor);
    if (outcome.status != ACLNN_SUCCESS) {
      outcome.failed = harness::Step::kGetWorkspaceSize;
      return outcome;
    }
    between(executor);
    return harness::launch(executor, outcome.workspace_bytes, &workspace_, stream);
  }

  bool fail(const std::string &what, int status, const std::string &message) {
    run_->ok = false;
    run_->failed_call = what;
    run_->status = status;
    run_->message = message;
    return false;
  }

  const ConvDesc &desc_;
  ApiRun *run_;
  harness::DeviceTensor tensors_[kTensors];  // not created for a tensor the descriptor does not pass
  harness::ConvArgs args_;
  harness::Workspace workspace_;  // allocated once, as an application that repeats a call would
};

// The executor's plan as aclnnCpuDescribeExecutor describes it.
std::string dispatch_of(const aclOpExecutor *executor) {
  size_t length = 0;
  if (aclnnCpuDescribeExecutor(executor, nullptr, 0, &length) != ACLNN_SUCCESS) return "";
  std::vector<char> text(length + 1);
  if (aclnnCpuDescribeExecutor(executor, text.data(), text.size(), &length) != ACLNN_SUCCESS) return "";
  return std::string(text.data(), length);
}

}  // namespace

ApiRun run_through_api(const ConvDesc &desc, const HostData &host, aclrtStream stream, int reps, bool describe) {
  ApiRun run;
  ApiCall call(desc, &run);
  if (!call.prepare(host)) return run;
  auto start = std::chrono::steady_clock::now();
  const ExecutorHook keep_dispatch = [&](aclOpExecutor *executor) { run.dispatch = dispatch_of(executor); };
  if (!call.call(stream, describe ? &keep_dispatch : nullptr)) return run;
  run.first_ms = ms_since(start);
  if (!call.download(run.outputs)) return run;

  double total_ms = 0;
  for (int r = 0; r < reps; ++r) {
    if (!call.upload(host)) return run;  // poison again: a repetition must write every element itself
    start = std::chrono::steady_clock::now();
    if (!call.call(stream)) return run;
    const double ms = ms_since(start);
    total_ms += ms;
    run.min_ms = r == 0 ? ms : std::min(run.min_ms, ms);
    std::vector<unsigned char> again[3];
    if (!call.download(again)) return run;
    for (int i = 0; i < 3; ++i) run.bitwise_repeatable = run.bitwise_repeatable && again[i] == run.outputs[i];
  }
  run.reps = reps;
  run.ms_per_call = reps > 0 ? total_ms / reps : 0;
  run.ok = true;
  return run;
}

ApiRun plan_through_api(const ConvDesc &desc, const HostData &host, const ExecutorHook &inspect) {
  ApiRun run;
  ApiCall call(desc, &run);
  if (call.prepare(host) && call.plan_only(inspect)) run.ok = true;
  return run;
}

ApiRun repeat_through_api(const ConvDesc &desc, const HostData &host, aclrtStream stream, int calls,
                          const ExecutorHook &between) {
  ApiRun run;
  ApiCall call(desc, &run);
  if (!call.prepare(host)) return run;
  for (int i = 0; i < calls; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (!call.call(stream, &between)) return run;
    run.first_ms = ms_since(start);
  }
  run.ok = true;
  return run;
}

}  // namespace demo
}  // namespace aclnn_cpu
