// The generic phase two (aclnnConvolutionBackward's launch rules) and the executor lifecycle, exercised with a
// test-only Operation so they do not depend on validation or arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "api/executor.hpp"
#include "executor_test_support.hpp"

namespace {

using aclnn_cpu::HandleKind;
using aclnn_cpu::is_live_handle;
using executor_test::FakeLog;
using executor_test::FakeOperation;
using executor_test::last_error;
using executor_test::StreamBlocker;

class ExecutorLifecycle : public executor_test::RuntimeFixture {
 protected:
  aclOpExecutor *make(uint64_t workspace = 0, FakeOperation::Mode mode = FakeOperation::Mode::kSucceed) {
    return aclnn_cpu::create_executor(std::make_shared<FakeOperation>(log_, workspace, mode));
  }
  std::shared_ptr<FakeLog> log_ = std::make_shared<FakeLog>();
};

TEST_F(ExecutorLifecycle, N27_NullExecutorIs161001) {
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(last_error().find("executor is nullptr"), std::string::npos) << last_error();
}

TEST_F(ExecutorLifecycle, N28_MissingWorkspaceIs161001AndDestroysTheExecutor) {
  aclOpExecutor *exec = make(64);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 64, exec, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(last_error().find("workspace is nullptr"), std::string::npos) << last_error();
  EXPECT_FALSE(is_live_handle(HandleKind::kExecutor, exec));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 0);
  EXPECT_EQ(log_->alive, 0);  // nothing leaked
}

TEST_F(ExecutorLifecycle, N28_MissingWorkspaceKeepsARepeatableExecutor) {
  aclOpExecutor *exec = make(64);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(exec), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 64, exec, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(is_live_handle(HandleKind::kExecutor, exec));
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
  EXPECT_EQ(log_->alive, 0);
}

TEST_F(ExecutorLifecycle, AnExecutorServesOneLaunchByDefault) {
  aclOpExecutor *exec = make();
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 1);
  EXPECT_EQ(log_->alive, 0);
  EXPECT_FALSE(is_live_handle(HandleKind::kExecutor, exec));
  // Reusing it is refused without touching the freed executor (ASan checks).
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("not a live aclOpExecutor"), std::string::npos) << last_error();
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(exec), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 1);
}

TEST_F(ExecutorLifecycle, ARepeatableExecutorRunsUntilDestroyed) {
  aclOpExecutor *exec = make();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(exec), ACLNN_SUCCESS);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 3);
  EXPECT_EQ(log_->alive, 1);
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
  EXPECT_EQ(log_->alive, 0);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(ExecutorLifecycle, TheDefaultStreamIsNull) {
  aclOpExecutor *exec = make();
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 1);
}

TEST_F(ExecutorLifecycle, TheWorkspaceReachesTheWork) {
  void *workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&workspace, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclOpExecutor *exec = make(100);
  EXPECT_EQ(aclnnConvolutionBackward(workspace, 128, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 1);
  EXPECT_EQ(log_->last_workspace, workspace);
  EXPECT_EQ(log_->last_workspace_size, 100u);
  EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
}

TEST_F(ExecutorLifecycle, AMisalignedWorkspaceIs161002AtLaunch) {
  std::vector<float> storage(64);
  unsigned char *misaligned = reinterpret_cast<unsigned char *>(storage.data()) + 2;
  aclOpExecutor *exec = make(100);
  EXPECT_EQ(aclnnConvolutionBackward(misaligned, 200, exec, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("not aligned"), std::string::npos) << last_error();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 0);
}

TEST_F(ExecutorLifecycle, AWorkspaceSmallerThanReportedIs161002) {
  std::vector<unsigned char> workspace(64);
  aclOpExecutor *exec = make(100);
  EXPECT_EQ(aclnnConvolutionBackward(workspace.data(), 99, exec, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("needs 100"), std::string::npos) << last_error();
  EXPECT_FALSE(is_live_handle(HandleKind::kExecutor, exec));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 0);
  EXPECT_EQ(log_->alive, 0);
}

TEST_F(ExecutorLifecycle, AWorkspaceAllocationTooSmallForTheWorkIs161002) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclOpExecutor *exec = make(64);
  // The caller claims 64 bytes, but only 32 are left in the allocation after this pointer.
  void *late = static_cast<unsigned char *>(device) + 32;
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  ASSERT_TRUE(aclnn_cpu::runtime::find_allocation(late, &begin, &end));
  if (end - static_cast<unsigned char *>(late) < 64) {
    EXPECT_EQ(aclnnConvolutionBackward(late, 64, exec, stream_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(last_error().find("aclrtMalloc allocation"), std::string::npos) << last_error();
  } else {  // the runtime pads allocations; use a pointer that leaves less than 64 bytes
    void *later = const_cast<unsigned char *>(end) - 8;
    EXPECT_EQ(aclnnConvolutionBackward(later, 64, exec, stream_), ACLNN_ERR_PARAM_INVALID);
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 0);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(ExecutorLifecycle, GarbageExecutorIsRefusedWithoutBeingRead) {
  auto *fake = executor_test::garbage_handle<aclOpExecutor>();
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, fake, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(fake), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(fake), ACLNN_ERR_PARAM_INVALID);
  // A live object of another kind is not an executor either.
  const int64_t v[] = {1};
  aclIntArray *array = aclCreateIntArray(v, 1);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, reinterpret_cast<aclOpExecutor *>(array), stream_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

TEST_F(ExecutorLifecycle, NullExecutorToTheExecutorApisIs561103AsInCann) {
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
}

TEST_F(ExecutorLifecycle, AFailureOfTheWorkIsReportedBySynchronize) {
  aclOpExecutor *exec = make(0, FakeOperation::Mode::kFail);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_EQ(log_->runs, 1);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // reported once
}

TEST_F(ExecutorLifecycle, AnExceptionInTheWorkBecomesAStatusOnTheStream) {
  aclOpExecutor *exec = make(0, FakeOperation::Mode::kThrow);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACLNN_ERR_INNER);
  exec = make(0, FakeOperation::Mode::kBadAlloc);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(log_->alive, 0);
}

TEST_F(ExecutorLifecycle, AStaleStreamIs361001AndConsumesTheExecutor) {
  aclrtStream stale = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stale), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stale), ACL_SUCCESS);
  aclOpExecutor *exec = make();
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stale), ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_NE(last_error().find("cannot queue"), std::string::npos) << last_error();
  EXPECT_FALSE(is_live_handle(HandleKind::kExecutor, exec));
  EXPECT_EQ(log_->runs, 0);
  EXPECT_EQ(log_->alive, 0);
}

TEST_F(ExecutorLifecycle, QueuedWorkKeepsItsOperationAfterTheExecutorIsDestroyed) {
  StreamBlocker blocker(stream_);
  ASSERT_TRUE(blocker.blocking());
  aclOpExecutor *exec = make();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(exec), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnConvolutionBackward(nullptr, 0, exec, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
  EXPECT_EQ(log_->runs, 0);   // still queued behind the blocker
  EXPECT_EQ(log_->alive, 1);  // kept alive by the queued launches
  blocker.release();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(log_->runs, 2);
  EXPECT_EQ(log_->alive, 0);  // freed once the last launch ran
}

TEST_F(ExecutorLifecycle, TensorAddressesCannotBeRefreshedOnAnOperationWithoutSupport) {
  aclOpExecutor *exec = make();
  const int64_t dims[] = {1};
  aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
  float addr[1];
  EXPECT_EQ(aclSetInputTensorAddr(exec, 0, nullptr, addr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetInputTensorAddr(nullptr, 0, t, addr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetOutputTensorAddr(exec, 0, t, addr), ACLNN_ERR_INNER);
  EXPECT_NE(last_error().find("does not support"), std::string::npos) << last_error();
  void *recorded = nullptr;
  aclGetRawTensorAddr(t, &recorded);
  EXPECT_EQ(recorded, nullptr);  // a failed call changes nothing
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

}  // namespace
