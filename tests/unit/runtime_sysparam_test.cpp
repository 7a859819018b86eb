// aclrt{Ctx,}{Get,Set}SysParamOpt share one value store (docs/contract.md §1.6); runtime::deterministic_option reads
// it.
#include <cstdint>

#include "runtime/sys_params.hpp"
#include "runtime_fixture.hpp"

namespace {

using aclnn_cpu::runtime::deterministic_option;
using runtime_test::take_error;

// Starts from an empty store and puts back what was there.
class SysParamTest : public runtime_test::RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    for (int opt = 0; opt < 4; ++opt) {
      saved_set_[opt] = aclrtGetSysParamOpt(static_cast<aclSysParamOpt>(opt), &saved_[opt]) == ACL_SUCCESS;
    }
    take_error();
    aclnn_cpu::runtime::clear_sys_params();
  }
  void TearDown() override {
    aclnn_cpu::runtime::clear_sys_params();
    for (int opt = 0; opt < 4; ++opt) {
      if (saved_set_[opt]) aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(opt), saved_[opt]);
    }
    RuntimeTest::TearDown();
  }

  bool saved_set_[4] = {};
  int64_t saved_[4] = {};
};

TEST_F(SysParamTest, BothLevelsReadAndWriteTheSameValue) {
  int64_t value = -1;
  EXPECT_EQ(deterministic_option(), 0);
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 1);
  EXPECT_EQ(deterministic_option(), 1);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(deterministic_option(), 0);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 7), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 7);
  EXPECT_EQ(deterministic_option(), 0);
}

TEST_F(SysParamTest, AnOptionNeverSetIsNotSetAtBothLevels) {
  int64_t value = 5;
  EXPECT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  EXPECT_NE(take_error().find("aclrtGetSysParamOpt"), std::string::npos);
  EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, &value), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  EXPECT_EQ(value, 5);
  EXPECT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(SysParamTest, TheContextLevelTakesOptionsZeroToTwoAndTheProcessLevelZeroToThree) {
  int64_t value = 0;
  const aclSysParamOpt early_start = ACL_OPT_ENABLE_KERNEL_EARLY_START;
  EXPECT_EQ(aclrtCtxSetSysParamOpt(early_start, 1), ACL_ERROR_INVALID_PARAM);
  const std::string message = take_error();
  EXPECT_NE(message.find("aclrtCtxSetSysParamOpt"), std::string::npos) << message;
  EXPECT_NE(message.find("opt = 3"), std::string::npos) << message;
  EXPECT_EQ(aclrtCtxGetSysParamOpt(early_start, &value), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetSysParamOpt(early_start, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetSysParamOpt(early_start, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 1);
  // Values outside the enum are passed by C callers in runtime_c_callers_test.cpp.
}

}  // namespace
