// Work that runs on the launching thread when its stream is idle (runtime::enqueue's on_caller_when_idle): it must
// behave exactly as queued work that ran at once — order, synchronize, failures, destruction.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/stream.hpp"
#include "runtime_fixture.hpp"

namespace {

namespace rt = aclnn_cpu::runtime;
using runtime_test::Gate;
using runtime_test::kDeadlockBound;
using runtime_test::RuntimeTest;
using runtime_test::take_error;

// Work that waits until `opened` is ready (a failure instead of a deadlock if it never is).
rt::Work wait_for(std::shared_future<void> opened) {
  return [opened]() -> aclError {
    return opened.wait_for(kDeadlockBound) == std::future_status::ready ? ACL_SUCCESS : ACL_ERROR_FAILURE;
  };
}

TEST(StreamObject, IdleStreamRunsWorkOnTheCallingThreadAndCountsIt) {
  rt::Stream stream;
  std::thread::id ran_on;
  rt::Work work = [&ran_on] {
    ran_on = std::this_thread::get_id();
    return ACL_SUCCESS;
  };
  ASSERT_TRUE(stream.run_here_if_idle(&work));
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_FALSE(static_cast<bool>(work)) << "what the work captured is released before it counts as finished";
  EXPECT_TRUE(stream.idle());
  EXPECT_TRUE(stream.wait(0));
}

TEST(StreamObject, AFailureOnTheCallingThreadIsKeptForSynchronize) {
  rt::Stream stream;
  rt::Work work = [] {
    aclnn_cpu::set_recent_error("the small work failed");
    return ACL_ERROR_INVALID_PARAM;
  };
  ASSERT_TRUE(stream.run_here_if_idle(&work));
  std::string message;
  EXPECT_EQ(stream.take_failure(&message), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(message, "the small work failed");
  EXPECT_EQ(take_error(), "") << "the launching thread's recent error is not the work's";
}

TEST(StreamObject, PendingWorkKeepsLaterWorkOffTheCallingThread) {
  rt::Stream stream;
  std::promise<void> gate;
  ASSERT_TRUE(stream.push(wait_for(gate.get_future().share())));
  std::atomic<int> ran{0};
  rt::Work work = [&ran] {
    ran.fetch_add(1);
    return ACL_SUCCESS;
  };
  EXPECT_FALSE(stream.run_here_if_idle(&work));
  EXPECT_EQ(ran.load(), 0);
  ASSERT_TRUE(static_cast<bool>(work)) << "refused work is left to the caller to queue";
  ASSERT_TRUE(stream.push(std::move(work)));
  gate.set_value();
  ASSERT_TRUE(stream.wait(-1));
  EXPECT_EQ(ran.load(), 1);
}

TEST(StreamObject, WorkQueuedWhileTheCallerRunsWaitsForIt) {
  rt::Stream stream;
  std::promise<void> started, gate;
  std::shared_future<void> opened = gate.get_future().share();
  std::mutex mutex;
  std::vector<int> order;
  std::thread caller([&] {
    rt::Work work = [&] {
      started.set_value();
      const aclError st = wait_for(opened)();
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(1);
      return st;
    };
    EXPECT_TRUE(stream.run_here_if_idle(&work));
  });
  ASSERT_EQ(started.get_future().wait_for(kDeadlockBound), std::future_status::ready);
  EXPECT_FALSE(stream.idle());
  EXPECT_FALSE(stream.wait(0)) << "synchronize waits for work running on a caller's thread";
  ASSERT_TRUE(stream.push([&] {
    std::lock_guard<std::mutex> lock(mutex);
    order.push_back(2);
    return ACL_SUCCESS;
  }));
  gate.set_value();
  ASSERT_TRUE(stream.wait(-1));
  caller.join();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  std::string message;
  EXPECT_EQ(stream.take_failure(&message), ACL_SUCCESS) << message;
}

TEST(StreamObject, StoppingWaitsForWorkOnACallersThreadAndRefusesMore) {
  std::promise<void> started, gate;
  std::shared_future<void> opened = gate.get_future().share();
  std::atomic<bool> finished{false};
  std::thread caller;
  {
    rt::Stream stream;
    caller = std::thread([&] {
      rt::Work work = [&] {
        started.set_value();
        const aclError st = wait_for(opened)();
        finished = true;
        return st;
      };
      EXPECT_TRUE(stream.run_here_if_idle(&work));
    });
    ASSERT_EQ(started.get_future().wait_for(kDeadlockBound), std::future_status::ready);
    stream.request_stop(true);
    rt::Work later = [] { return ACL_SUCCESS; };
    EXPECT_FALSE(stream.run_here_if_idle(&later));
    gate.set_value();
    stream.join();
    EXPECT_TRUE(finished.load()) << "join returned while the stream's work still ran";
  }
  caller.join();
}

class StreamCallerTest : public RuntimeTest {};

TEST_F(StreamCallerTest, EnqueueRunsSmallWorkHereOnlyWhenAskedAndIdle) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const std::thread::id me = std::this_thread::get_id();
  std::thread::id first, second, third;
  ASSERT_EQ(rt::enqueue(
                stream, [&] { return first = std::this_thread::get_id(), ACL_SUCCESS; }, true),
            ACL_SUCCESS);
  EXPECT_EQ(first, me) << "idle stream: ran before enqueue returned, on this thread";
  ASSERT_EQ(rt::enqueue(stream, [&] { return second = std::this_thread::get_id(), ACL_SUCCESS; }), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_NE(second, me) << "not asked: the stream's own thread";
  Gate gate;
  ASSERT_EQ(gate.block(stream), ACL_SUCCESS);
  ASSERT_EQ(rt::enqueue(
                stream, [&] { return third = std::this_thread::get_id(), ACL_SUCCESS; }, true),
            ACL_SUCCESS);
  gate.open();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_NE(third, me) << "busy stream: queued behind the gate";
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamCallerTest, AFailureOfWorkRunHereIsReportedBySynchronize) {
  ASSERT_EQ(rt::enqueue(
                nullptr, [] { return ACL_ERROR_INVALID_PARAM; }, true),
            ACL_SUCCESS)
      << "launching succeeds: the failure belongs to the stream";
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_INVALID_PARAM);
  take_error();
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "reported once";
}

}  // namespace
