// Shared by the concurrency_*, fault_* and soak_* suites: one aclnnConvolutionBackward call whose tensors
// live in device memory (aclrtMalloc), driven step by step through the public API so that tests can launch
// many of them on several streams and threads, break one step on purpose (free a buffer, shrink the
// workspace, ...), and compare the outputs with a serial run or with the fp64 reference.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "conformance_harness.hpp"
#include "core/config.hpp"
#include "harness/conv_call.hpp"
#include "harness/desc_attrs.hpp"
#include "runtime_fixture.hpp"

namespace concurrency {

using conformance::CaseTensors;
using conformance::ConvCase;
using conformance::kSlots;
using conformance::Slot;

using aclnn_cpu::harness::recent_error;

// One call: device buffers filled from `host` (outputs poisoned as in `host`), descriptors, workspace,
// executor. Every step returns its status; the destructor releases whatever is left, so a test that stops
// halfway leaks nothing.
class DeviceCall {
 public:
  DeviceCall(const ConvCase &c, const CaseTensors &host) : case_(c), attrs(aclnn_cpu::harness::desc_attrs(c.desc)) {
    for (int s = 0; s < kSlots; ++s) {
      if (!host.present[s]) continue;
      const conformance::TestTensor &t = host.t[s];
      bytes_[s] = t.bytes().size();
      if (bytes_[s] == 0) continue;
      if (aclrtMalloc(&data_[s], bytes_[s], ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        ADD_FAILURE() << "aclrtMalloc: " << recent_error();
        data_[s] = nullptr;
        continue;
      }
      EXPECT_EQ(aclrtMemcpy(data_[s], bytes_[s], t.bytes().data(), bytes_[s], ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
  }
  DeviceCall(const DeviceCall &) = delete;
  DeviceCall &operator=(const DeviceCall &) = delete;
  ~DeviceCall() {
    if (executor != nullptr) aclDestroyAclOpExecutor(executor);
    if (workspace != nullptr) aclrtFree(workspace);
    for (void *p : data_) {
      if (p != nullptr) aclrtFree(p);
    }
  }

  // Phase one with the current `attrs` (tests may spoil them first); `null_slot` passes NULL for that tensor.
  // On success allocates the workspace the executor asks for.
  int prepare(int null_slot = -1) {
    const int status = plan(null_slot);
    if (status != ACLNN_SUCCESS) {
      error = "GetWorkspaceSize: " + recent_error();
      executor = nullptr;
      return status;
    }
    if (workspace_size > 0 && aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      error = "aclrtMalloc of the workspace: " + recent_error();
      return -1;
    }
    return status;
  }

  // Phase two; the executor is consumed whatever the outcome (it is not repeatable).
  int launch(aclrtStream stream, uint64_t size) {
    const int status = aclnnConvolutionBackward(workspace, size, executor, stream);
    executor = nullptr;
    if (status != ACLNN_SUCCESS) error = "aclnnConvolutionBackward: " + recent_error();
    return status;
  }
  int launch(aclrtStream stream) { return launch(stream, workspace_size); }

  void *data(Slot s) const { return data_[s]; }
  size_t bytes(Slot s) const { return bytes_[s]; }

  // Frees one tensor's buffer (the executor may still point at it).
  void free_data(Slot s) {
    EXPECT_EQ(aclrtFree(data_[s]), ACL_SUCCESS);
    data_[s] = nullptr;
  }

  // Hands one tensor's buffer to the caller, who frees it.
  void *release_data(Slot s) {
    void *p = data_[s];
    data_[s] = nullptr;
    return p;
  }

  // Copies every present tensor back into `host` (after the stream ran the work).
  void download(CaseTensors *host) const {
    for (int s = 0; s < kSlots; ++s) {
      if (data_[s] == nullptr) continue;
      EXPECT_EQ(aclrtMemcpy(host->t[s].data(), bytes_[s], data_[s], bytes_[s], ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    }
  }

  // The output buffers' bytes, gradInput, gradWeight, gradBias in turn.
  std::vector<unsigned char> output_bytes() const {
    std::vector<unsigned char> all;
    for (int s = conformance::kGradInput; s < kSlots; ++s) {
      if (data_[s] == nullptr) continue;
      const size_t at = all.size();
      all.resize(at + bytes_[s]);
      EXPECT_EQ(aclrtMemcpy(all.data() + at, bytes_[s], data_[s], bytes_[s], ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    }
    return all;
  }

  const ConvCase &conv_case() const { return case_; }

  ConvCase case_;
  aclnn_cpu::harness::ConvAttrs attrs;  // tests may spoil them before prepare()
  uint64_t workspace_size = 0;
  aclOpExecutor *executor = nullptr;
  void *workspace = nullptr;
  std::string error;

 private:
  // Phase one; the descriptors are destroyed right after it, as torch_npu does (the executor owns copies).
  int plan(int null_slot) {
    aclnn_cpu::harness::TensorHandle tensors[kSlots];
    aclTensor *passed[kSlots] = {};
    for (int s = 0; s < kSlots; ++s) {
      if (s == null_slot || !case_.desc.present[s]) continue;
      const conformance::TestTensor t(shape_of(s), case_.desc.dtype[s], case_.layout[s]);
      tensors[s] = conformance::api_tensor(s, t, data_[s]);
      passed[s] = tensors[s].get();
    }
    return aclnn_cpu::harness::ConvArgs(attrs).get_workspace_size(passed, &workspace_size, &executor);
  }

  std::vector<int64_t> shape_of(int s) const {
    std::vector<int64_t> shapes[kSlots];
    aclnn_cpu::conv_bwd::desc_shapes(case_.desc, shapes);
    return shapes[s];
  }

  void *data_[kSlots] = {};
  size_t bytes_[kSlots] = {};
};

// Checks outputs already downloaded into `host` against the fp64 reference, as conformance::check_case does
// after its run: requested outputs within the rounding bound, masked-off outputs and inputs unchanged from
// `before`, nothing written outside the views.
inline ::testing::AssertionResult check_outputs(const ConvCase &c, const CaseTensors &host,
                                                const std::vector<unsigned char> (&before)[kSlots]) {
  using namespace conformance;
  const RefSetup setup = ref_setup(c);
  const Dense5 go = host.dense(kGradOutput), in = host.dense(kInput), w = host.dense(kWeight);
  const bool empty = host.empty_inputs();
  for (int s = 0; s < kSlots; ++s) {
    if (!host.present[s]) continue;
    const bool requested = s >= kGradInput && c.desc.mask[s - kGradInput] && !(empty && s == kGradInput);
    if (!requested) {
      if (host.t[s].bytes() != before[s]) {
        return ::testing::AssertionFailure()
               << kSlotName[s] << " was modified although "
               << (s < kGradInput ? "it is an input" : "it was not requested") << " in " << case_text(c);
      }
      continue;
    }
    const std::string outside = host.t[s].changed_outside_view(before[s]);
    if (!outside.empty())
      return ::testing::AssertionFailure() << kSlotName[s] << ": " << outside << " in " << case_text(c);
    RefSums ref;
    if (!empty) {
      ref = s == kGradInput    ? ref_grad_input(setup, go, in, w)
            : s == kGradWeight ? ref_grad_weight(setup, go, in, w)
                               : ref_grad_bias(go);
    }
    ::testing::AssertionResult r = check_output(c, static_cast<Slot>(s), host.t[s], ref, empty);
    if (!r) return r;
  }
  return ::testing::AssertionSuccess();
}

// Every output byte still holds what `host` had before the call (the poison): nothing was written.
inline bool outputs_untouched(const DeviceCall &call, const CaseTensors &host) {
  std::vector<unsigned char> expected;
  for (int s = conformance::kGradInput; s < kSlots; ++s) {
    if (call.data(static_cast<Slot>(s)) == nullptr) continue;
    expected.insert(expected.end(), host.t[s].bytes().begin(), host.t[s].bytes().end());
  }
  return call.output_bytes() == expected;
}

// Small problems covering 1-D, 2-D, 3-D, groups, dilation, transposed and the FP32/HF32/FP16/BF16 paths on
// the default product (tests running them concurrently must not change the global product).
inline std::vector<ConvCase> mixed_cases() {
  const char *texts[] = {
      "mb2_g2_ic8oc8_ih10iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_cmt1",
      "mb1_g1_ic4oc6_iw20_kw5_sw2_pw2_dw1_dtf16",
      "mb1_g1_ic4oc4_id4ih6iw6_kd3kh3kw3_sd1sh1sw1_pd1ph1pw1_dd1dh1dw1_dtbf16",
      "mb2_g1_ic3oc2_ih6iw6_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1",
      "mb1_g4_ic8oc8_ih9iw9_kh3kw3_sh1sw1_ph2pw2_dh2dw2_dtf32_cmt0",
  };
  std::vector<ConvCase> cases;
  uint64_t seed = 100;
  for (const char *t : texts) cases.push_back(conformance::parse_case(t, conformance::Data::kRandom, ++seed));
  return cases;
}

// The outputs of each case run alone on one stream, checked against the fp64 reference: what every
// concurrent run must reproduce bit for bit.
inline std::vector<std::vector<unsigned char>> serial_outputs(const std::vector<ConvCase> &cases) {
  std::vector<std::vector<unsigned char>> expected;
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  for (const ConvCase &c : cases) {
    CaseTensors host(c);
    std::vector<unsigned char> before[kSlots];
    for (int s = 0; s < kSlots; ++s) before[s] = host.t[s].bytes();
    DeviceCall call(c, host);
    EXPECT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
    EXPECT_EQ(call.launch(stream), ACLNN_SUCCESS) << call.error;
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << recent_error();
    call.download(&host);
    EXPECT_TRUE(check_outputs(c, host, before));
    expected.push_back(call.output_bytes());
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  return expected;
}

// A runtime fixture holding the mixed problems and their serial outputs: what every concurrent run must reproduce.
class SerialReference : public runtime_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
    cases_ = mixed_cases();
    expected_ = serial_outputs(cases_);
  }

  std::vector<ConvCase> cases_;
  std::vector<std::vector<unsigned char>> expected_;
};

}  // namespace concurrency
