// Faults at launch (docs/faults.md): a workspace smaller than asked or outside every
// allocation, tensor memory freed between the two phases, an executor launched twice, streams used after
// destruction. Each gets its status code and a message; none crashes, and a call refused before execution
// leaves every output byte as it was (the outputs start poisoned and are read back).
#include <gtest/gtest.h>

#include <future>
#include <string>
#include <thread>
#include <vector>

#include "api/objects.hpp"
#include "concurrency_support.hpp"
#include "runtime_fixture.hpp"

namespace concurrency {
namespace {

using conformance::kGradBias;
using conformance::kGradInput;
using conformance::kGradOutput;
using conformance::kGradWeight;
using conformance::kWeight;

class FaultLaunch : public runtime_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    }
    RuntimeTest::TearDown();
  }

  // A case whose plan asks for a workspace (an FP16 GEMM stages its operands).
  static ConvCase needs_workspace() {
    return conformance::parse_case("mb2_g1_ic8oc8_ih10iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf16",
                                   conformance::Data::kRandom, 7);
  }

  // After a refused launch: the stream has nothing to report and no output byte changed.
  void expect_nothing_ran(const DeviceCall &call, const CaseTensors &host) {
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_error();
    EXPECT_TRUE(outputs_untouched(call, host));
  }

  aclrtStream stream_ = nullptr;
};

TEST_F(FaultLaunch, AWorkspaceSmallerThanAskedIs161002) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  ASSERT_GT(call.workspace_size, 0u);
  aclOpExecutor *executor = call.executor;
  EXPECT_EQ(call.launch(stream_, call.workspace_size - 1), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(call.error.find("bytes (the size GetWorkspaceSize returned"), std::string::npos) << call.error;
  EXPECT_FALSE(aclnn_cpu::is_live_handle(aclnn_cpu::HandleKind::kExecutor, executor));  // consumed, as CANN
  expect_nothing_ran(call, host);
}

TEST_F(FaultLaunch, AWorkspaceAllocationSmallerThanAskedIs161002) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  ASSERT_EQ(aclrtFree(call.workspace), ACL_SUCCESS);
  call.workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&call.workspace, call.workspace_size / 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(call.launch(stream_), ACLNN_ERR_PARAM_INVALID);  // claims the full size
  EXPECT_NE(
      call.error.find("left in the aclrtMalloc allocation of " + std::to_string(call.workspace_size / 2) + " bytes ("),
      std::string::npos)
      << call.error;
  expect_nothing_ran(call, host);
}

TEST_F(FaultLaunch, AWorkspaceOutsideEveryAllocationIs161002) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  std::vector<double> host_memory(call.workspace_size / sizeof(double) + 1);  // aligned, large enough
  EXPECT_EQ(aclnnConvolutionBackward(host_memory.data(), call.workspace_size, call.executor, stream_),
            ACLNN_ERR_PARAM_INVALID);
  call.executor = nullptr;
  const std::string error = recent_error();
  EXPECT_NE(error.find("not inside a live aclrtMalloc allocation"), std::string::npos) << error;
  expect_nothing_ran(call, host);
}

TEST_F(FaultLaunch, AFreedWorkspaceIs161002) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  void *freed = call.workspace;
  ASSERT_EQ(aclrtFree(call.workspace), ACL_SUCCESS);
  call.workspace = nullptr;
  EXPECT_EQ(aclnnConvolutionBackward(freed, call.workspace_size, call.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  call.executor = nullptr;
  const std::string error = recent_error();
  EXPECT_NE(error.find("already freed"), std::string::npos) << error;
  expect_nothing_ran(call, host);
}

TEST_F(FaultLaunch, AnInputFreedBetweenThePhasesIs161002) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  call.free_data(kWeight);
  EXPECT_EQ(call.launch(stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(call.error.find("weight (data"), std::string::npos) << call.error;
  EXPECT_NE(call.error.find("has been freed"), std::string::npos) << call.error;
  expect_nothing_ran(call, host);
}

TEST_F(FaultLaunch, AnOutputFreedBetweenThePhasesIs161002AndTheOthersStayUntouched) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  call.free_data(kGradWeight);
  EXPECT_EQ(call.launch(stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(call.error.find("gradWeight (data"), std::string::npos) << call.error;
  expect_nothing_ran(call, host);
}

// The launch succeeded; a free from another thread then waits for the queued work (as a device free does), so
// the work still reads live memory and computes the right result.
TEST_F(FaultLaunch, AFreeAfterTheLaunchWaitsForTheWork) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  std::vector<unsigned char> before[kSlots];
  for (int s = 0; s < kSlots; ++s) before[s] = host.t[s].bytes();
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  runtime_test::Gate gate;
  ASSERT_EQ(gate.block(stream_), ACL_SUCCESS);
  ASSERT_EQ(call.launch(stream_), ACLNN_SUCCESS) << call.error;
  void *dy = call.release_data(kGradOutput);
  std::future<aclError> freed = std::async(std::launch::async, [dy] { return aclrtFree(dy); });
  gate.open();
  EXPECT_EQ(freed.get(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_error();
  call.download(&host);
  EXPECT_TRUE(check_outputs(c, host, before));
}

TEST_F(FaultLaunch, AnExecutorLaunchedTwiceIs161002TheSecondTime) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  aclOpExecutor *executor = call.executor;
  ASSERT_EQ(call.launch(stream_), ACLNN_SUCCESS) << call.error;
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<unsigned char> first = call.output_bytes();
  // Poison the outputs again: the refused second launch must not write them.
  for (int s = kGradInput; s < kSlots; ++s) {
    const Slot slot = static_cast<Slot>(s);
    ASSERT_EQ(aclrtMemcpy(call.data(slot), call.bytes(slot), host.t[s].bytes().data(), call.bytes(slot),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  EXPECT_EQ(aclnnConvolutionBackward(call.workspace, call.workspace_size, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  const std::string error = recent_error();
  EXPECT_NE(error.find("aclSetAclOpExecutorRepeatable"), std::string::npos) << error;
  expect_nothing_ran(call, host);
  EXPECT_NE(first, call.output_bytes());
}

TEST_F(FaultLaunch, ARepeatableExecutorRunsTwiceWithTheSameResult) {
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  aclOpExecutor *executor = call.executor;
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnConvolutionBackward(call.workspace, call.workspace_size, executor, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<unsigned char> first = call.output_bytes();
  ASSERT_EQ(aclnnConvolutionBackward(call.workspace, call.workspace_size, executor, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(first, call.output_bytes());
  // The repeatable executor is still owned by the caller (DeviceCall destroys it).
}

TEST_F(FaultLaunch, StreamCallsOnADestroyedStreamAreInvalidParam) {
  aclrtStream stale = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stale), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stale), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stale), ACL_ERROR_INVALID_PARAM);
  std::string error = recent_error();
  EXPECT_NE(error.find("aclrtSynchronizeStream"), std::string::npos) << error;
  EXPECT_NE(error.find("is not a live stream"), std::string::npos) << error;
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stale, 10), ACL_ERROR_INVALID_PARAM);
  aclrtStreamStatus status;
  EXPECT_EQ(aclrtStreamQuery(stale, &status), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stale), ACL_ERROR_INVALID_PARAM);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(event, stale), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEvent(stale, event), ACL_ERROR_INVALID_PARAM);  // even with nothing to wait for
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(stale, event), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  recent_error();

  // A launch on it: the executor is consumed and nothing is written.
  const ConvCase c = needs_workspace();
  CaseTensors host(c);
  DeviceCall call(c, host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  EXPECT_EQ(call.launch(stale), ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_NE(call.error.find("is not a live stream"), std::string::npos) << call.error;
  expect_nothing_ran(call, host);
}

}  // namespace
}  // namespace concurrency
