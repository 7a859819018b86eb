// Streams are in-order queues that run concurrently with each other; failures of queued work are reported by
// the next synchronization, once. Everything is checked by ordering, never by timing.
#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime/event.hpp"
#include "runtime/stream.hpp"
#include "runtime_fixture.hpp"

namespace {

using aclnn_cpu::runtime::enqueue;
using runtime_test::Gate;
using runtime_test::kDeadlockBound;
using runtime_test::RuntimeTest;
using runtime_test::take_error;

class StreamTest : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_EQ(aclrtCreateStream(&a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&b_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(a_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(b_), ACL_SUCCESS);
    RuntimeTest::TearDown();
  }

  // Queues a task that appends `value` to order_.
  aclError append(aclrtStream stream, int value) {
    return enqueue(stream, [this, value] {
      std::lock_guard<std::mutex> lock(mutex_);
      order_.push_back(value);
      return ACL_SUCCESS;
    });
  }
  std::vector<int> order() {
    std::lock_guard<std::mutex> lock(mutex_);
    return order_;
  }

  aclrtStream a_ = nullptr;
  aclrtStream b_ = nullptr;
  std::mutex mutex_;
  std::vector<int> order_;
};

TEST_F(StreamTest, WorkRunsInTheOrderItWasQueued) {
  std::vector<int> expected;
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(append(a_, i), ACL_SUCCESS);
    expected.push_back(i);
  }
  ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_EQ(order(), expected);
}

TEST_F(StreamTest, TheNullStreamIsTheDefaultStreamAndKeepsOrderToo) {
  std::vector<int> expected;
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(append(nullptr, i), ACL_SUCCESS);
    expected.push_back(i);
  }
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(order(), expected);
}

TEST_F(StreamTest, AFailureOfQueuedWorkIsReportedOnceWithItsMessage) {
  ASSERT_EQ(append(a_, 1), ACL_SUCCESS);
  ASSERT_EQ(enqueue(a_,
                    [] {
                      aclnn_cpu::set_recent_error("aclnnFake: AclNN_Inner_Error(EZ9999): the kernel broke");
                      return 561103;
                    }),
            ACL_SUCCESS);
  ASSERT_EQ(enqueue(a_, [] { return 561000; }), ACL_SUCCESS);  // later failures are not the first
  ASSERT_EQ(append(a_, 2), ACL_SUCCESS);                       // work after a failure still runs
  EXPECT_EQ(aclrtSynchronizeStream(a_), 561103);
  const std::string message = take_error();
  EXPECT_NE(message.find("the kernel broke"), std::string::npos) << message;
  EXPECT_NE(message.find("aclrtSynchronizeStream"), std::string::npos) << message;
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_EQ(order(), (std::vector<int>{1, 2}));
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);  // failures belong to their stream
}

TEST_F(StreamTest, AnExceptionInQueuedWorkBecomesAStatus) {
  ASSERT_EQ(enqueue(a_, []() -> aclError { throw std::runtime_error("boom"); }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_ERROR_INTERNAL_ERROR);
  EXPECT_NE(take_error().find("boom"), std::string::npos);
}

TEST_F(StreamTest, DifferentStreamsRunConcurrently) {
  // A's task can only finish once B's task, queued after it, has run: this completes only if they overlap.
  auto promise = std::make_shared<std::promise<void>>();
  std::shared_future<void> fulfilled = promise->get_future().share();
  ASSERT_EQ(enqueue(a_,
                    [fulfilled] {
                      return fulfilled.wait_for(kDeadlockBound) == std::future_status::ready ? ACL_SUCCESS
                                                                                             : ACL_ERROR_FAILURE;
                    }),
            ACL_SUCCESS);
  ASSERT_EQ(enqueue(b_,
                    [promise] {
                      promise->set_value();
                      return ACL_SUCCESS;
                    }),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
}

TEST_F(StreamTest, StreamWaitEventOrdersWorkAcrossStreams) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(gate.block(b_), ACL_SUCCESS);
  ASSERT_EQ(append(b_, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, b_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(a_, event), ACL_SUCCESS);
  ASSERT_EQ(append(a_, 2), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(a_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);  // A waits for B, which waits for the gate
  EXPECT_TRUE(order().empty());
  gate.open();
  ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_EQ(order(), (std::vector<int>{1, 2}));
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(StreamTest, EventsReportTheirLatestRecord) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
  ASSERT_EQ(aclrtQueryEventStatus(event, &recorded), ACL_SUCCESS);
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);  // never recorded
  ASSERT_EQ(aclrtQueryEvent(event, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);  // nothing to wait for
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(a_, event), ACL_SUCCESS);  // a no-op

  Gate gate;
  ASSERT_EQ(gate.block(a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventStatus(event, &recorded), ACL_SUCCESS);
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_EQ(aclrtQueryEvent(event, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_STATUS_NOT_READY);
  gate.open();
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventStatus(event, &recorded), ACL_SUCCESS);
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);

  ASSERT_EQ(aclrtResetEvent(event, a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventStatus(event, &recorded), ACL_SUCCESS);
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(StreamTest, ElapsedTimeNeedsTwoExecutedRecords) {
  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE), ACL_SUCCESS);
  float ms = -1.0f;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  ASSERT_EQ(aclrtRecordEvent(start, a_), ACL_SUCCESS);
  ASSERT_EQ(append(a_, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(end, a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(aclrtEventElapsedTime(nullptr, start, end), ACL_ERROR_INVALID_PARAM);
  aclrtEvent flagged = nullptr;
  EXPECT_EQ(aclrtCreateEventWithFlag(&flagged, 0x80000000u), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(StreamTest, UnknownDestroyedAndGarbageHandlesAreRefusedUntouched) {
  aclrtStream dead = nullptr;
  ASSERT_EQ(aclrtCreateStream(&dead), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(dead), ACL_SUCCESS);
  aclrtEvent dead_event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&dead_event), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(dead_event), ACL_SUCCESS);
  long garbage_storage[4] = {0x5a5a5a5a, -1, 0, 42};
  void *garbage = garbage_storage;
  void *wild = reinterpret_cast<void *>(0xdeadbeef);

  for (void *stream : {dead, garbage, wild}) {
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(take_error().find("is not a live stream"), std::string::npos);
    EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 5), ACL_ERROR_INVALID_PARAM);
    aclrtStreamStatus status;
    EXPECT_EQ(aclrtStreamQuery(stream, &status), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(enqueue(stream, [] { return ACL_SUCCESS; }), ACL_ERROR_INVALID_PARAM);
    char byte = 0;
    EXPECT_EQ(aclrtMemsetAsync(&byte, 1, 0, 1, stream), ACL_ERROR_INVALID_PARAM);
  }
  for (void *event : {dead_event, garbage, wild}) {
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(take_error().find("is not a live event"), std::string::npos);
    EXPECT_EQ(aclrtRecordEvent(event, a_), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtStreamWaitEvent(a_, event), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtResetEvent(event, a_), ACL_ERROR_INVALID_PARAM);
    aclrtEventRecordedStatus status;
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_ERROR_INVALID_PARAM);
  }
  EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);  // the default stream is not destroyable
  EXPECT_EQ(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(garbage_storage[0], 0x5a5a5a5a);  // never written through
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
}

TEST_F(StreamTest, DestroyingAStreamRunsWhatWasQueuedFirst) {
  aclrtStream c = nullptr;
  ASSERT_EQ(aclrtCreateStream(&c), ACL_SUCCESS);
  std::atomic<int> ran{0};
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(enqueue(c,
                      [&ran] {
                        ran.fetch_add(1);
                        return ACL_SUCCESS;
                      }),
              ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtDestroyStream(c), ACL_SUCCESS);
  EXPECT_EQ(ran.load(), 100);
}

TEST_F(StreamTest, ForcedDestructionDropsPendingWorkButCompletesItsRecords) {
  aclrtStream c = nullptr;
  ASSERT_EQ(aclrtCreateStream(&c), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, c), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(a_, event), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamForce(c), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

// The same at the level of one stream object, where the order of events is under the test's control.
TEST(StreamObject, DiscardedRecordsStillCompleteAndDiscardedWorkNeverRuns) {
  namespace rt = aclnn_cpu::runtime;
  rt::Stream stream;
  auto event = std::make_shared<rt::Event>(0u);
  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  std::atomic<int> ran{0};
  ASSERT_TRUE(stream.push([opened] {
    return opened.wait_for(kDeadlockBound) == std::future_status::ready ? ACL_SUCCESS : ACL_ERROR_FAILURE;
  }));
  const uint64_t seq = event->begin_record();
  ASSERT_TRUE(stream.push(rt::make_record_work(event, seq)));
  ASSERT_TRUE(stream.push([&ran] {
    ran.fetch_add(1);
    return ACL_SUCCESS;
  }));
  stream.request_stop(true);  // the first task is still waiting for the gate: the other two are dropped
  EXPECT_EQ(event->status(), ACL_EVENT_STATUS_COMPLETE);
  event->wait(seq);  // returns: the dropped record completed
  EXPECT_FALSE(stream.push([] { return ACL_SUCCESS; }));
  gate.set_value();
  stream.join();
  EXPECT_EQ(ran.load(), 0);
  std::string message;
  EXPECT_EQ(stream.take_failure(&message), ACL_SUCCESS);
}

TEST_F(StreamTest, SynchronizeWithTimeoutBoundsTheWait) {
  Gate gate;
  ASSERT_EQ(gate.block(a_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(a_, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);  // gate still closed
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(a_, -2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(take_error().find("timeout = -2"), std::string::npos);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(a_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  gate.open();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(a_, -1), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamQuery(a_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(StreamTest, SynchronizeDeviceWaitsForEveryStreamAndReportsEachFailureOnce) {
  ASSERT_EQ(append(a_, 1), ACL_SUCCESS);
  ASSERT_EQ(append(nullptr, 2), ACL_SUCCESS);
  ASSERT_EQ(enqueue(b_, [] { return 12345; }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), 12345);
  EXPECT_EQ(order().size(), 2u);
  EXPECT_EQ(aclrtSynchronizeStream(b_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

TEST_F(StreamTest, AsyncCopiesAndSetsRunInStreamOrder) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<unsigned char> host(64, 0);
  ASSERT_EQ(aclrtMemsetAsync(device, 64, 0x11, 64, a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, 64, 0x22, 16, a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(host.data(), host.size(), device, 64, ACL_MEMCPY_DEVICE_TO_HOST, a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  for (size_t i = 0; i < host.size(); ++i) EXPECT_EQ(host[i], i < 16 ? 0x22 : 0x11) << i;
  EXPECT_EQ(aclrtMemcpyAsync(host.data(), 8, device, 64, ACL_MEMCPY_DEVICE_TO_HOST, a_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(StreamTest, WorkReleasesWhatItCapturedBeforeSynchronizeReturns) {
  auto owned = std::make_shared<int>(7);
  std::weak_ptr<int> watch = owned;
  ASSERT_EQ(enqueue(a_, [owned] { return *owned == 7 ? ACL_SUCCESS : ACL_ERROR_FAILURE; }), ACL_SUCCESS);
  owned.reset();
  ASSERT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_TRUE(watch.expired());
}

TEST_F(StreamTest, WorkThatSynchronizesItsOwnStreamGetsAnErrorInsteadOfADeadlock) {
  aclrtStream self = a_;
  std::atomic<aclError> inner{ACL_SUCCESS};
  ASSERT_EQ(enqueue(a_,
                    [self, &inner] {
                      inner = aclrtSynchronizeStream(self);
                      return ACL_SUCCESS;
                    }),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_EQ(inner.load(), ACL_ERROR_FAILURE);
}

TEST_F(StreamTest, ManyThreadsMayQueueOnOneStream) {
  std::vector<std::thread> threads;
  std::atomic<int> ran{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        EXPECT_EQ(enqueue(a_,
                          [&ran] {
                            ran.fetch_add(1);
                            return ACL_SUCCESS;
                          }),
                  ACL_SUCCESS);
      }
    });
  }
  for (auto &t : threads) t.join();
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_SUCCESS);
  EXPECT_EQ(ran.load(), 200);
}

}  // namespace
