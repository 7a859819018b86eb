// aclnnConvTbcBackward and aclnnDeformableConv2dBackward: declared for link compatibility, without host kernels.
#include <gtest/gtest.h>

#include <string>

#include "aclnnop/aclnn_convolution_backward.h"
#include "executor_test_support.hpp"

namespace {

using executor_test::last_error;

TEST(ExecutorOtherOps, ConvTbcBackwardReportsAMissingKernel) {
  uint64_t size = 11;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(aclnnConvTbcBackwardGetWorkspaceSize(nullptr, nullptr, nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr,
                                                 &size, &executor),
            ACLNN_ERR_INNER_FIND_KERNEL_ERROR);
  EXPECT_NE(last_error().find("aclnnConvTbcBackward has no host kernel"), std::string::npos) << last_error();
  EXPECT_EQ(size, 11u);
  EXPECT_EQ(executor, nullptr);
  EXPECT_EQ(aclnnConvTbcBackward(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST(ExecutorOtherOps, DeformableConv2dBackwardReportsAMissingKernel) {
  uint64_t size = 11;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(aclnnDeformableConv2dBackwardGetWorkspaceSize(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                          nullptr, nullptr, 1, 1, false, nullptr, nullptr, nullptr,
                                                          nullptr, &size, &executor),
            ACLNN_ERR_INNER_FIND_KERNEL_ERROR);
  EXPECT_NE(last_error().find("aclnnDeformableConv2dBackward has no host kernel"), std::string::npos) << last_error();
  EXPECT_EQ(size, 11u);
  EXPECT_EQ(executor, nullptr);
  EXPECT_EQ(aclnnDeformableConv2dBackward(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST(ExecutorOtherOps, TheirSecondPhaseRefusesStaleExecutors) {
  auto *stale = executor_test::garbage_handle<aclOpExecutor>();
  EXPECT_EQ(aclnnConvTbcBackward(nullptr, 0, stale, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnDeformableConv2dBackward(nullptr, 0, stale, nullptr), ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
