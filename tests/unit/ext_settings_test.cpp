// aclnn_cpu/ext.h: product, threads and strict mode at run time (every test restores the settings it changes), and
// the count of live objects.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn_cpu/ext.h"
#include "core/config.hpp"
#include "core/error.hpp"

namespace {

class ExtSettings : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = aclnn_cpu::settings(); }
  void TearDown() override {
    aclnn_cpu::set_product(saved_.product);
    aclnn_cpu::set_strict(saved_.strict);
    aclnn_cpu::set_num_threads(saved_.num_threads);
  }
  aclnn_cpu::Settings saved_;
};

TEST_F(ExtSettings, EverySocNameRoundTrips) {
  for (const char *name : {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"}) {
    ASSERT_EQ(aclnnCpuSetSoc(name), ACL_SUCCESS) << name;
    EXPECT_STREQ(aclnnCpuGetSoc(), name);
    EXPECT_STREQ(aclnn_cpu::product_name(aclnn_cpu::settings().product), name);
  }
}

TEST_F(ExtSettings, AnUnknownSocIsRefusedAndKeepsTheProduct) {
  ASSERT_EQ(aclnnCpuSetSoc("Ascend950"), ACL_SUCCESS);
  EXPECT_EQ(aclnnCpuSetSoc("Ascend310B"), ACL_ERROR_INVALID_PARAM);
  const char *e = aclnn_cpu::recent_error();
  ASSERT_NE(e, nullptr);
  EXPECT_NE(std::string(e).find("\"Ascend310B\""), std::string::npos) << e;
  EXPECT_EQ(aclnnCpuSetSoc(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclnnCpuSetSoc(""), ACL_ERROR_INVALID_PARAM);
  EXPECT_STREQ(aclnnCpuGetSoc(), "Ascend950");
}

TEST_F(ExtSettings, ThreadCountRoundTripsAndZeroMeansEveryCpu) {
  ASSERT_EQ(aclnnCpuSetNumThreads(3), ACL_SUCCESS);
  EXPECT_EQ(aclnnCpuGetNumThreads(), 3);
  ASSERT_EQ(aclnnCpuSetNumThreads(0), ACL_SUCCESS);
  EXPECT_GE(aclnnCpuGetNumThreads(), 1);
  EXPECT_EQ(aclnnCpuGetNumThreads(), aclnn_cpu::effective_num_threads());
}

TEST_F(ExtSettings, ANegativeOrHugeThreadCountIsRefused) {
  ASSERT_EQ(aclnnCpuSetNumThreads(2), ACL_SUCCESS);
  EXPECT_EQ(aclnnCpuSetNumThreads(-1), ACL_ERROR_INVALID_PARAM);
  const char *e = aclnn_cpu::recent_error();
  ASSERT_NE(e, nullptr);
  EXPECT_NE(std::string(e).find("-1"), std::string::npos) << e;
  EXPECT_EQ(aclnnCpuSetNumThreads(4097), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclnnCpuGetNumThreads(), 2);
}

TEST_F(ExtSettings, StrictModeRoundTrips) {
  ASSERT_EQ(aclnnCpuSetStrict(true), ACL_SUCCESS);
  EXPECT_TRUE(aclnnCpuGetStrict());
  EXPECT_TRUE(aclnn_cpu::settings().strict);
  ASSERT_EQ(aclnnCpuSetStrict(false), ACL_SUCCESS);
  EXPECT_FALSE(aclnnCpuGetStrict());
}

// "aclTensor 2, ..." → 2; a kind that is not listed has none alive.
int live_count(const std::string &kind) {
  const std::string text = aclnnCpuGetLiveObjects();
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("(^|, )" + kind + " ([0-9]+)"))) return 0;
  return std::stoi(m[2]);
}

TEST(ExtLiveObjects, CountsTheObjectsAlive) {
  const int tensors = live_count("aclTensor");
  const int arrays = live_count("aclIntArray");
  const int64_t shape[1] = {4};
  const int64_t strides[1] = {1};
  float data[4] = {};
  aclTensor *t = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
  aclIntArray *a = aclCreateIntArray(shape, 1);
  ASSERT_NE(t, nullptr);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(live_count("aclTensor"), tensors + 1) << aclnnCpuGetLiveObjects();
  EXPECT_EQ(live_count("aclIntArray"), arrays + 1) << aclnnCpuGetLiveObjects();
  aclDestroyTensor(t);
  aclDestroyIntArray(a);
  EXPECT_EQ(live_count("aclTensor"), tensors) << aclnnCpuGetLiveObjects();
  EXPECT_EQ(live_count("aclIntArray"), arrays) << aclnnCpuGetLiveObjects();
}

TEST_F(ExtSettings, VersionIsTheProjectVersion) {
  const char *v = aclnnCpuGetVersion();
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(std::regex_match(v, std::regex(R"(\d+\.\d+\.\d+)"))) << v;
  EXPECT_STRNE(v, "0.0.0");  // the fallback: CMake did not pass ACLNN_CPU_VERSION to the library
}

}  // namespace
