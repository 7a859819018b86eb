#include "api_run.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "device_tensor.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

using conv_bwd::ConvDesc;

aclFormat format_for_rank(size_t rank) {
  switch (rank) {
    case 3:
      return ACL_FORMAT_NCL;
    case 5:
      return ACL_FORMAT_NCDHW;
    default:
      return ACL_FORMAT_NCHW;
  }
}

// The attribute arrays of the call, from the descriptor's D/H/W slots (1-D uses W, 2-D H and W).
struct Attributes {
  IntArray stride{nullptr, aclDestroyIntArray}, padding{nullptr, aclDestroyIntArray};
  IntArray dilation{nullptr, aclDestroyIntArray}, output_padding{nullptr, aclDestroyIntArray};
  IntArray bias_sizes{nullptr, aclDestroyIntArray};
  BoolArray mask{nullptr, aclDestroyBoolArray};
};

Attributes make_attributes(const ConvDesc &d) {
  std::vector<int64_t> stride, pad, pad4, dilation, output_padding;
  bool asymmetric = false;
  for (int s = 3 - d.spatial_rank; s < 3; ++s) {
    stride.push_back(d.stride[s]);
    dilation.push_back(d.dilation[s]);
    output_padding.push_back(d.output_padding[s]);
    pad.push_back(d.pad_begin[s]);
    pad4.push_back(d.pad_begin[s]);
    pad4.push_back(d.pad_end[s]);
    asymmetric = asymmetric || d.pad_begin[s] != d.pad_end[s];
  }
  Attributes a;
  a.stride = make_int_array(stride);
  // CANN's 2-D padding of 4 values is [top, bottom, left, right]; other ranks only have symmetric padding.
  a.padding = make_int_array(asymmetric ? pad4 : pad);
  a.dilation = make_int_array(dilation);
  a.output_padding = make_int_array(output_padding);
  a.bias_sizes = make_int_array({d.oc});
  a.mask = make_bool_array({d.mask[0], d.mask[1], d.mask[2]});
  return a;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

class ApiCall {
 public:
  ApiCall(const ConvDesc &desc, ApiRun *run) : desc_(desc), run_(run) {}

  bool prepare(const HostData &host) {
    std::string error;
    for (int t = 0; t < kTensors; ++t) {
      if (!desc_.present[t]) continue;
      const aclFormat format = t == conv_bwd::kDescGradBias ? ACL_FORMAT_ND : format_for_rank(host.shape[t].size());
      if (!tensors_[t].create(host.shape[t], desc_.dtype[t], format, &error)) return fail("setup", -1, error);
    }
    attrs_ = make_attributes(desc_);
    if (!attrs_.stride || !attrs_.padding || !attrs_.dilation || !attrs_.output_padding || !attrs_.bias_sizes ||
        !attrs_.mask) {
      return fail("aclCreateIntArray/aclCreateBoolArray", -1, recent_error());
    }
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

  bool call(aclrtStream stream) {
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = nullptr;
    aclnnStatus st = aclnnConvolutionBackwardGetWorkspaceSize(
        tensor(conv_bwd::kDescGradOutput), tensor(conv_bwd::kDescInput), tensor(conv_bwd::kDescWeight),
        attrs_.bias_sizes.get(), attrs_.stride.get(), attrs_.padding.get(), attrs_.dilation.get(), desc_.transposed,
        attrs_.output_padding.get(), static_cast<int>(desc_.groups), attrs_.mask.get(),
        static_cast<int8_t>(desc_.cube_math_type), tensor(conv_bwd::kDescGradInput), tensor(conv_bwd::kDescGradWeight),
        tensor(conv_bwd::kDescGradBias), &workspace_size, &executor);
    if (st != 0) return fail("aclnnConvolutionBackwardGetWorkspaceSize", st, recent_error());
    run_->workspace_bytes = workspace_size;
    if (!ensure_workspace(workspace_size)) {
      aclDestroyAclOpExecutor(executor);
      return false;
    }
    st = aclnnConvolutionBackward(workspace_.get(), workspace_size, executor, stream);
    if (st != 0) return fail("aclnnConvolutionBackward", st, recent_error());
    aclError ret = aclrtSynchronizeStream(stream);
    if (ret != ACL_SUCCESS) return fail("aclrtSynchronizeStream", ret, recent_error());
    return true;
  }

  bool download(std::vector<unsigned char> outputs[3]) {
    std::string error;
    for (int i = 0; i < 3; ++i) {
      const int t = conv_bwd::kDescGradInput + i;
      if (desc_.present[t] && !tensors_[t].download(&outputs[i], &error)) return fail("aclrtMemcpy", -1, error);
    }
    return true;
  }

 private:
  aclTensor *tensor(int t) const { return desc_.present[t] ? tensors_[t].get() : nullptr; }

  // The workspace is allocated once, as an application that repeats a call would.
  bool ensure_workspace(uint64_t size) {
    if (size <= workspace_bytes_) return true;
    void *dev = nullptr;
    aclError ret = aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (ret != ACL_SUCCESS) return fail("aclrtMalloc (workspace)", ret, recent_error());
    workspace_.reset(dev);
    workspace_bytes_ = size;
    return true;
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
  DeviceTensor tensors_[kTensors];
  Attributes attrs_;
  std::unique_ptr<void, aclError (*)(void *)> workspace_{nullptr, aclrtFree};
  uint64_t workspace_bytes_ = 0;
};

}  // namespace

ApiRun run_through_api(const ConvDesc &desc, const HostData &host, aclrtStream stream, int reps) {
  ApiRun run;
  ApiCall call(desc, &run);
  if (!call.prepare(host)) return run;
  auto start = std::chrono::steady_clock::now();
  if (!call.call(stream)) return run;
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

}  // namespace demo
}  // namespace aclnn_cpu
