// aclInit / aclFinalize / aclFinalizeReference, calls outside an initialised runtime, device and context
// reference counts, and the seed sample's error paths (docs/contract.md §1.6, §1.7 item 6).
#include <atomic>
#include <cstdint>
#include <string>

#include "api/objects.hpp"
#include "host_conv_call.hpp"
#include "runtime_fixture.hpp"

namespace {

using runtime_test::LifecycleTest;
using runtime_test::ScopedEnv;
using runtime_test::take_error;

TEST_F(LifecycleTest, RepeatedInitCountsReferencesThatFinalizeReferenceDrops) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  uint64_t count = 99;
  EXPECT_EQ(aclFinalizeReference(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // still initialised
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeReference(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeReference(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  count = 99;
  EXPECT_EQ(aclFinalizeReference(&count), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST_F(LifecycleTest, FinalizeDropsEveryReferenceAndASecondOneIsRepeatFinalize) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclnn_cpu::runtime::init_reference_count(), 0u);
  take_error();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_NE(take_error().find("aclFinalize"), std::string::npos);
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);  // a finalized runtime can be initialised again
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(LifecycleTest, RuntimeCallsBeforeInitAreUninitialize) {
  void *p = nullptr;
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  int32_t device = -1;
  int64_t value = 0;
  char buf[8] = {};
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_NE(take_error().find("aclInit"), std::string::npos);
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtCreateEvent(&event), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtMallocHost(&p, 64), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtFree(buf), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtMemcpy(buf, 8, "abc", 4, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclnn_cpu::runtime::enqueue(nullptr, [] { return ACL_SUCCESS; }), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(stream, nullptr);

  // These work at any time.
  EXPECT_NE(aclrtGetSocName(), nullptr);
  int32_t major = 0, minor = 0, patch = -1;
  EXPECT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
  EXPECT_EQ(patch, ACL_PATCH_VERSION);
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
}

TEST_F(LifecycleTest, AnUnknownSocFailsInitWhichStaysUninitialised) {
  {
    ScopedEnv soc("ACLNN_CPU_SOC", "Ascend310B");
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    const std::string message = take_error();
    EXPECT_NE(message.find("aclInit"), std::string::npos) << message;
    EXPECT_NE(message.find("ACLNN_CPU_SOC"), std::string::npos) << message;
    EXPECT_NE(message.find("Ascend310B"), std::string::npos) << message;
    EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  }
  {
    ScopedEnv soc("ACLNN_CPU_SOC", "Ascend950");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend950");
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
}

// Every ACLNN_CPU_* variable: a malformed value fails aclInit with a message naming the variable, the value and
// what is accepted, and leaves the runtime uninitialised.
TEST_F(LifecycleTest, EveryMalformedSettingFailsInitNamingTheVariableTheValueAndTheChoices) {
  struct Bad {
    const char *name, *value, *choices;
  };
  const Bad cases[] = {
      {"ACLNN_CPU_SOC", "ascend910b", "Ascend910B, Ascend910_93"},
      {"ACLNN_CPU_STRICT", "yes", "0 or 1"},
      {"ACLNN_CPU_NUM_THREADS", "4097", "[0, 4096]"},
      {"ACLNN_CPU_NUM_THREADS", "2x", "[0, 4096]"},
      {"ACLNN_CPU_HF32_ROUNDING", "even", "\"away\" (default) or \"rne\""},
      {"ACLNN_CPU_FP8_OVERFLOW", "clip", "\"saturate\" (default) or \"nan\""},
      {"ACLNN_CPU_MAX_ISA", "avx512f", "scalar, avx2, avx512, avx512_bf16 or neon"},
      {"ACLNN_CPU_ALGO", "fast", "auto (default), reference or -name"},
      {"ACLNN_CPU_MEM_LIMIT", "1G", "a number of bytes"},
      {"ACLNN_CPU_VERBOSE", "yes", "0 (default), 1 or 2"},
      {"ACLNN_CPU_VERBOSE", "-1", "0 (default), 1 or 2"},
      {"ACLNN_CPU_VERBOSE", "1x", "0 (default), 1 or 2"},
      {"ACLNN_CPU_VERBOSE", "3", "0 (default), 1 or 2"},
      {"ACLNN_CPU_VERBOSE", " 1", "0 (default), 1 or 2"},
  };
  for (const Bad &bad : cases) {
    ScopedEnv env(bad.name, bad.value);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM) << bad.name << "=" << bad.value;
    const std::string message = take_error();
    EXPECT_NE(message.find(std::string(bad.name) + " = \"" + bad.value + "\""), std::string::npos) << message;
    EXPECT_NE(message.find(bad.choices), std::string::npos) << message;
    EXPECT_EQ(aclnn_cpu::runtime::init_reference_count(), 0u) << bad.name << "=" << bad.value;
  }
}

TEST_F(LifecycleTest, VerboseTakesTheLevelsZeroToTwo) {
  for (int level = 0; level <= 2; ++level) {
    const std::string value = std::to_string(level);
    ScopedEnv env("ACLNN_CPU_VERBOSE", value.c_str());
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << take_error();
    EXPECT_EQ(aclnn_cpu::settings().verbose, level);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  std::string error;
  EXPECT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;  // the level the tests after this one run with
}

TEST_F(LifecycleTest, AConfigFileThatCannotBeReadIsInvalidFile) {
  EXPECT_EQ(aclInit("/nonexistent/aclnn-cpu/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(take_error().find("configPath"), std::string::npos);
  EXPECT_EQ(aclnn_cpu::runtime::init_reference_count(), 0u);
  EXPECT_EQ(aclInit(""), ACL_SUCCESS);  // an empty path means no configuration, as NULL does
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// docs/contract.md §1.7 item 6: the unmodified seed sample runs Finalize() twice, may pass an uninitialised stream
// handle to aclrtDestroyStream, and frees device memory after aclFinalize. None of it may crash.
TEST_F(LifecycleTest, TheSeedSampleErrorPathsReturnCodesAndNeverCrash) {
  int garbage_object = 0;
  const aclrtStream garbage = &garbage_object;                     // what an uninitialised local may hold
  EXPECT_EQ(aclrtDestroyStream(garbage), ACL_ERROR_UNINITIALIZE);  // Init failed before aclrtCreateStream

  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(garbage), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("stream"), std::string::npos);

  // Finalize() inside the test function...
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  // ...and again in main.
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  // The unique_ptr deleters run after aclFinalize.
  EXPECT_EQ(aclrtFree(device), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtDestroyStream(garbage), ACL_ERROR_UNINITIALIZE);
}

TEST_F(LifecycleTest, FinalizeDrainsAndReleasesWhatIsStillAlive) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  void *device = nullptr;
  void *host = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&device, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 100), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  std::atomic<int> ran{0};
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(aclnn_cpu::runtime::enqueue(stream,
                                          [&ran] {
                                            ran.fetch_add(1);
                                            return ACL_SUCCESS;
                                          }),
              ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);

  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // no aclrtDestroyStream / aclrtFree / aclrtResetDevice first
  EXPECT_EQ(ran.load(), 20);
  EXPECT_EQ(aclnn_cpu::runtime::deterministic_option(), 0);
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  EXPECT_FALSE(aclnn_cpu::runtime::find_allocation(device, &begin, &end));

  // The old handles are dead in the next session too.
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  int64_t value = 0;
  EXPECT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(LifecycleTest, TheDeviceIsReferenceCountedAndOnlyDeviceZeroExists) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  void *p = nullptr;
  int32_t device = -1;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_NE(take_error().find("deviceId = 1"), std::string::npos);
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);

  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);
  ASSERT_EQ(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtStream kept = nullptr;
  ASSERT_EQ(aclrtCreateStream(&kept), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // one reference left: nothing released
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  EXPECT_TRUE(aclnn_cpu::runtime::find_allocation(p, &begin, &end));
  EXPECT_EQ(aclrtSynchronizeStream(kept), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // last reference: stream and memory released
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(kept), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);  // drops both references
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(LifecycleTest, ContextsFollowTheDeviceAndRefuseStaleHandles) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclrtContext current = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
  aclrtContext created = nullptr;
  ASSERT_EQ(aclrtCreateContext(&created, 0), ACL_SUCCESS);  // opens the device
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, created);
  aclrtContext bad = nullptr;
  EXPECT_EQ(aclrtCreateContext(&bad, 3), ACL_ERROR_RT_INVALID_DEVICEID);

  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // makes the primary context current
  aclrtContext primary = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&primary), ACL_SUCCESS);
  EXPECT_NE(primary, created);
  EXPECT_EQ(aclrtDestroyContext(primary), ACL_ERROR_INVALID_PARAM);  // released by aclrtResetDevice only
  EXPECT_EQ(aclrtSetCurrentContext(created), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, created);

  EXPECT_EQ(aclrtDestroyContext(created), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(created), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetCurrentContext(created), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, primary);  // the destroyed context is no longer current
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetCurrentContext(primary), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// GetWorkspaceSize is host work and runs before aclInit (settings are read at first use); aclrtMalloc and the
// launch then say that the runtime is not initialised, instead of the launch blaming the missing workspace.
TEST_F(LifecycleTest, ALaunchBeforeAclInitSaysTheRuntimeIsNotInitialised) {
  test_support::HostConvCall call;
  ASSERT_EQ(call.plan(), ACLNN_SUCCESS) << take_error();
  ASSERT_GT(call.size, 0u);
  void *workspace = nullptr;
  EXPECT_EQ(aclrtMalloc(&workspace, call.size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_NE(take_error().find("aclInit has not been called"), std::string::npos);
  EXPECT_EQ(aclnnConvolutionBackward(workspace, call.size, call.executor, nullptr), ACLNN_ERR_RUNTIME_ERROR);
  const std::string message = take_error();
  EXPECT_NE(message.find("the runtime is not initialised: aclInit has not been called"), std::string::npos) << message;
  EXPECT_EQ(message.find("workspace is nullptr"), std::string::npos) << message;
  EXPECT_FALSE(aclnn_cpu::is_live_handle(aclnn_cpu::HandleKind::kExecutor, call.executor));  // consumed, as documented
  EXPECT_EQ(call.grad_input()[0], 1.0f);                                                     // nothing computed
}

TEST_F(LifecycleTest, ALaunchWithoutADeviceSaysSo) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  test_support::HostConvCall call;
  ASSERT_EQ(call.plan(), ACLNN_SUCCESS) << take_error();
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, call.size, call.executor, nullptr), ACLNN_ERR_RUNTIME_ERROR);
  const std::string message = take_error();
  EXPECT_NE(message.find("no device is set: call aclrtSetDevice(0) first"), std::string::npos) << message;
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// An executor made before aclInit launches once the runtime is up: what "works without aclInit" promises.
TEST_F(LifecycleTest, AnExecutorMadeBeforeAclInitRunsAfterIt) {
  test_support::HostConvCall call;
  ASSERT_EQ(call.plan(), ACLNN_SUCCESS) << take_error();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&workspace, call.size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclnnConvolutionBackward(workspace, call.size, call.executor, nullptr), ACLNN_SUCCESS) << take_error();
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS) << take_error();
  EXPECT_EQ(call.grad_input()[0], 16.0f);  // input position (0,0): one tap of 16 channels of ones
  EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace
