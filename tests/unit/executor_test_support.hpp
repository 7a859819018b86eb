// Shared by the executor_* tests: a runtime fixture, a stream held busy on demand, and a test-only Operation.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "api/objects.hpp"
#include "core/error.hpp"
#include "runtime/runtime.hpp"

namespace executor_test {

// A pointer that was never handed out by the library; dereferencing it would crash (nothing is mapped at
// the lowest 64 KiB of a Linux process), so a test using it proves the library only looks it up.
template <class T>
T *garbage_handle() {
  return reinterpret_cast<T *>(static_cast<uintptr_t>(0x100));
}

inline std::string last_error() {
  const char *e = aclnn_cpu::recent_error();
  return e != nullptr ? e : "";
}

// aclInit + device 0 + one stream, undone afterwards (tests must leave the runtime as they found it).
class RuntimeFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    init_status_ = aclInit(nullptr);
    ASSERT_TRUE(init_status_ == ACL_SUCCESS || init_status_ == ACL_ERROR_REPEAT_INITIALIZE) << init_status_;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    if (init_status_ == ACL_SUCCESS) {
      EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
  }

  aclError init_status_ = ACL_SUCCESS;
  aclrtStream stream_ = nullptr;
};

// Keeps `stream` busy with a task that waits for release(), so work queued meanwhile has provably not run.
// The task is queued from a helper thread, so this works whether the runtime runs work on a worker thread or
// inline in the enqueuing thread.
class StreamBlocker {
 public:
  explicit StreamBlocker(aclrtStream stream) {
    std::future<void> started = started_.get_future();
    std::shared_future<void> released = release_.get_future().share();
    thread_ = std::thread([this, stream, released] {
      aclError st = aclnn_cpu::runtime::enqueue(stream, [this, released]() -> aclError {
        started_.set_value();
        released.wait();
        return ACL_SUCCESS;
      });
      if (st != ACL_SUCCESS) {
        enqueue_failed_ = true;
        started_.set_value();
      }
    });
    started.wait();
  }
  ~StreamBlocker() { release(); }

  bool blocking() const { return !enqueue_failed_; }

  void release() {
    if (!thread_.joinable()) return;
    release_.set_value();
    thread_.join();
  }

 private:
  std::promise<void> started_;
  std::promise<void> release_;
  std::atomic<bool> enqueue_failed_{false};
  std::thread thread_;
};

// What a FakeOperation saw; outlives the operation so tests can check when it was freed.
struct FakeLog {
  std::atomic<int> runs{0};
  std::atomic<int> alive{0};
  void *last_workspace = nullptr;
  uint64_t last_workspace_size = 0;
};

class FakeOperation : public aclnn_cpu::Operation {
 public:
  enum class Mode { kSucceed, kFail, kThrow, kBadAlloc };

  FakeOperation(std::shared_ptr<FakeLog> log, uint64_t workspace, Mode mode = Mode::kSucceed)
      : log_(std::move(log)), workspace_(workspace), mode_(mode) {
    ++log_->alive;
  }
  ~FakeOperation() override { --log_->alive; }

  uint64_t workspace_size() const override { return workspace_; }

  int run(void *workspace, uint64_t workspace_size) override {
    ++log_->runs;
    log_->last_workspace = workspace;
    log_->last_workspace_size = workspace_size;
    switch (mode_) {
      case Mode::kSucceed:
        return ACLNN_SUCCESS;
      case Mode::kFail:
        return aclnn_cpu::inner_error(ACLNN_ERR_INNER_TILING_ERROR, "FakeOperation", "failing on purpose");
      case Mode::kThrow:
        throw std::runtime_error("thrown on purpose");
      case Mode::kBadAlloc:
        throw std::bad_alloc();
    }
    return ACLNN_SUCCESS;
  }

 private:
  std::shared_ptr<FakeLog> log_;
  uint64_t workspace_;
  Mode mode_;
};

}  // namespace executor_test
