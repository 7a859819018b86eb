// aclnn_cpu/ext.h's per-thread product and thread count: what the calling thread reports, what its
// GetWorkspaceSize validates and plans with, and what the launch then computes with, on any thread. The verbose
// line (product, compute format, threads) shows that each setting took effect, not only that results agree.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "aclnn_cpu/ext.h"
#include "conformance_harness.hpp"
#include "core/config.hpp"
#include "runtime_fixture.hpp"

namespace conformance {
namespace {

// Removes the calling thread's overrides whatever a test left (gtest runs every test on one thread).
struct ClearThreadOverrides {
  ~ClearThreadOverrides() {
    aclnnCpuSetThreadSoc(nullptr);
    aclnnCpuSetThreadNumThreads(-1);
  }
};

class ExtThreadOverride : public runtime_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
    aclnn_cpu::set_num_threads(1);
  }
  void TearDown() override {
    set_verbose(false);
    RuntimeTest::TearDown();
  }

  // ACLNN_CPU_VERBOSE is read with the rest of the environment, which also resets product and threads.
  void set_verbose(bool on) {
    if (on) {
      setenv("ACLNN_CPU_VERBOSE", "1", 1);
    } else if (saved_verbose_ > 0) {
      setenv("ACLNN_CPU_VERBOSE", std::to_string(saved_verbose_).c_str(), 1);
    } else {
      unsetenv("ACLNN_CPU_VERBOSE");
    }
    std::string error;
    ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
    aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
    aclnn_cpu::set_num_threads(1);
  }

  runtime_test::SettingsKeeper keep_;  // puts product and threads back after TearDown's reload of the environment
  const int saved_verbose_ = aclnn_cpu::settings().verbose;
  ClearThreadOverrides clear_;
};

// GetWorkspaceSize on the calling thread, with whatever settings it has.
int plan_call(const ConvCase &c, CaseTensors &t, aclOpExecutor **executor, uint64_t *bytes) {
  ApiCall call(c, t);
  return call.get_workspace_size(bytes, executor);
}

// Launches on a stream of its own and waits; frees the workspace.
int launch(aclOpExecutor *executor, uint64_t bytes) {
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return -1;
  void *workspace = nullptr;
  int status = bytes > 0 ? aclrtMalloc(&workspace, bytes, ACL_MEM_MALLOC_HUGE_FIRST) : ACL_SUCCESS;
  if (status == ACL_SUCCESS) status = aclnnConvolutionBackward(workspace, bytes, executor, stream);
  if (status == ACL_SUCCESS) status = aclrtSynchronizeStream(stream);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtDestroyStream(stream);
  return status;
}

// The whole call with the thread's overrides set for its GetWorkspaceSize (nullptr / -1: none).
int run_with(const ConvCase &c, CaseTensors &t, const char *soc, int32_t threads) {
  if (aclnnCpuSetThreadSoc(soc) != ACL_SUCCESS || aclnnCpuSetThreadNumThreads(threads) != ACL_SUCCESS) return -1;
  aclOpExecutor *executor = nullptr;
  uint64_t bytes = 0;
  int status = plan_call(c, t, &executor, &bytes);
  aclnnCpuSetThreadSoc(nullptr);
  aclnnCpuSetThreadNumThreads(-1);
  if (status == ACLNN_SUCCESS) status = launch(executor, bytes);
  return status;
}

// The verbose lines of `out` that contain `part`.
int lines_with(const std::string &out, const std::string &part) {
  int n = 0;
  for (size_t at = out.find(part); at != std::string::npos; at = out.find(part, at + 1)) ++n;
  return n;
}

// Large enough (over kCallerMacs) that the launch hands it to the stream's thread.
constexpr const char *kCase = "mb2_g1_ic8oc8_ih12iw12_kh3kw3_ph1pw1_dtf32_mask110_cmt1";

TEST_F(ExtThreadOverride, ReplacesTheProcessSettingOnTheCallingThreadOnly) {
  ASSERT_EQ(aclnnCpuSetThreadSoc("Ascend950"), ACL_SUCCESS);
  ASSERT_EQ(aclnnCpuSetThreadNumThreads(3), ACL_SUCCESS);
  EXPECT_STREQ(aclnnCpuGetSoc(), "Ascend950");
  EXPECT_STREQ(aclrtGetSocName(), "Ascend950");
  EXPECT_EQ(aclnnCpuGetNumThreads(), 3);
  std::string other_soc;
  int other_threads = 0;
  std::thread([&] {
    other_soc = aclnnCpuGetSoc();
    other_threads = aclnnCpuGetNumThreads();
  }).join();
  EXPECT_EQ(other_soc, "Ascend910B");
  EXPECT_EQ(other_threads, 1);

  // Invalid values are refused and keep the override.
  EXPECT_EQ(aclnnCpuSetThreadSoc("Ascend310B"), ACL_ERROR_INVALID_PARAM);
  const char *e = aclGetRecentErrMsg();
  ASSERT_NE(e, nullptr);
  EXPECT_NE(std::string(e).find("aclnnCpuSetThreadSoc: socName \"Ascend310B\""), std::string::npos) << e;
  EXPECT_EQ(aclnnCpuSetThreadNumThreads(-2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclnnCpuSetThreadNumThreads(4097), ACL_ERROR_INVALID_PARAM);
  EXPECT_STREQ(aclnnCpuGetSoc(), "Ascend950");
  EXPECT_EQ(aclnnCpuGetNumThreads(), 3);

  // A process-wide change does not reach through an override; clearing it does.
  ASSERT_EQ(aclnnCpuSetSoc("Ascend910_93"), ACL_SUCCESS);
  EXPECT_STREQ(aclnnCpuGetSoc(), "Ascend950");
  ASSERT_EQ(aclnnCpuSetThreadSoc(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclnnCpuSetThreadNumThreads(-1), ACL_SUCCESS);
  EXPECT_STREQ(aclnnCpuGetSoc(), "Ascend910_93");
  EXPECT_EQ(aclnnCpuGetNumThreads(), 1);
  // 0 is a real override: every CPU this process may use.
  ASSERT_EQ(aclnnCpuSetThreadNumThreads(0), ACL_SUCCESS);
  EXPECT_GE(aclnnCpuGetNumThreads(), 1);
  EXPECT_EQ(aclnn_cpu::settings().num_threads, 0);
}

TEST_F(ExtThreadOverride, ThreadsWithDifferentOverridesAtOnceEachGetTheirOwn) {
  const ConvCase c = parse_case(kCase, Data::kRandom, 7);
  // What each product computes, from the process-wide setting, one after the other.
  CaseTensors want_950(c), want_910b(c);
  aclnn_cpu::set_product(aclnn_cpu::Product::kAscend950);
  ASSERT_EQ(run_with(c, want_950, nullptr, -1), ACLNN_SUCCESS);
  aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
  ASSERT_EQ(run_with(c, want_910b, nullptr, -1), ACLNN_SUCCESS);
  // HF32 keeps 10 mantissa bits on the 950 and 11 on the 910B: the products must give different bits.
  ASSERT_NE(want_950.t[kGradWeight].bytes(), want_910b.t[kGradWeight].bytes());

  set_verbose(true);
  const ConvCase legacy = parse_case("mb1_g1_ic2oc2_ih5iw5_kh3kw3_dtf32_mask110_cmt0", Data::kRandom, 7);
  CaseTensors got_950(c), got_910b(c), got_legacy(legacy);
  int status_950 = -1, status_910b = -1, status_legacy = -1;
  ::testing::internal::CaptureStderr();
  {
    std::thread a([&] { status_950 = run_with(c, got_950, "Ascend950", 2); });
    std::thread b([&] { status_910b = run_with(c, got_910b, "Ascend910B", 3); });
    std::thread l([&] { status_legacy = run_with(legacy, got_legacy, "Ascend910", -1); });
    a.join();
    b.join();
    l.join();
  }
  const std::string out = ::testing::internal::GetCapturedStderr();
  set_verbose(false);
  ASSERT_EQ(status_950, ACLNN_SUCCESS);
  ASSERT_EQ(status_910b, ACLNN_SUCCESS);
  // The legacy products have no FP32 cube: KEEP_DTYPE on FP32 is refused there, and only there.
  EXPECT_EQ(status_legacy, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(got_950.t[kGradWeight].bytes(), want_950.t[kGradWeight].bytes());
  EXPECT_EQ(got_950.t[kGradInput].bytes(), want_950.t[kGradInput].bytes());
  EXPECT_EQ(got_910b.t[kGradWeight].bytes(), want_910b.t[kGradWeight].bytes());
  EXPECT_EQ(got_910b.t[kGradInput].bytes(), want_910b.t[kGradInput].bytes());
  EXPECT_EQ(lines_with(out, "aclnn_cpu_verbose,exec,"), 2) << out;
  EXPECT_EQ(lines_with(out, "aclnn_cpu_verbose,error,GetWorkspaceSize,status=161002,"), 1) << out;
  EXPECT_EQ(lines_with(out, "_cmt1_Ascend950,compute=hf32-10,threads=2,"), 1) << out;
  EXPECT_EQ(lines_with(out, "_cmt1_Ascend910B,compute=hf32-11,threads=3,"), 1) << out;
}

TEST_F(ExtThreadOverride, AnExecutorKeepsWhatItsGetWorkspaceSizeUsed) {
  const ConvCase c = parse_case(kCase, Data::kRandom, 8);
  CaseTensors t(c);
  set_verbose(true);
  ASSERT_EQ(aclnnCpuSetThreadSoc("Ascend950"), ACL_SUCCESS);
  ASSERT_EQ(aclnnCpuSetThreadNumThreads(2), ACL_SUCCESS);
  aclOpExecutor *executor = nullptr;
  uint64_t bytes = 0;
  ASSERT_EQ(plan_call(c, t, &executor, &bytes), ACLNN_SUCCESS);
  // Everything changes before the launch, which runs on another thread (and on a stream's thread from there).
  ASSERT_EQ(aclnnCpuSetThreadSoc(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclnnCpuSetThreadNumThreads(-1), ACL_SUCCESS);
  ASSERT_EQ(aclnnCpuSetSoc("Ascend910_93"), ACL_SUCCESS);
  ASSERT_EQ(aclnnCpuSetNumThreads(1), ACL_SUCCESS);
  int status = -1;
  ::testing::internal::CaptureStderr();
  std::thread([&] {
    aclnnCpuSetThreadNumThreads(3);
    status = launch(executor, bytes);
  }).join();
  const std::string out = ::testing::internal::GetCapturedStderr();
  set_verbose(false);
  ASSERT_EQ(status, ACLNN_SUCCESS);
  EXPECT_EQ(lines_with(out, "aclnn_cpu_verbose,"), 1) << out;
  EXPECT_EQ(lines_with(out, "_cmt1_Ascend950,compute=hf32-10,threads=2,"), 1) << out;
}

}  // namespace
}  // namespace conformance
