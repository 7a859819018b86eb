// Concurrency: several streams on one thread ordered by events (upload → compute →
// download), events handed between host threads, and many threads waiting on one event. Results are
// compared by value with a serial run; the ordering is proven by holding the first stream closed, not by time.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "concurrency_support.hpp"
#include "runtime_fixture.hpp"

namespace concurrency {
namespace {

using conformance::kGradInput;
using conformance::kGradOutput;

class ConcurrencyEvents : public SerialReference {};

// One call's tensors with gradOutput's device buffer zeroed: only an upload queued on a stream gives it its
// data, so a compute that does not wait for that upload gives a different result.
struct Pipelined {
  explicit Pipelined(const ConvCase &c) : host(c), call(c, host) {
    EXPECT_EQ(aclrtMemset(call.data(kGradOutput), call.bytes(kGradOutput), 0, call.bytes(kGradOutput)), ACL_SUCCESS);
    for (int s = kGradInput; s < kSlots; ++s) out_size += call.bytes(static_cast<Slot>(s));
    out.assign(out_size, 0);
  }
  // Queues the download of every output (in DeviceCall::output_bytes order) on `stream`.
  aclError download_async(aclrtStream stream) {
    size_t at = 0;
    for (int s = kGradInput; s < kSlots; ++s) {
      const size_t n = call.bytes(static_cast<Slot>(s));
      if (n == 0) continue;
      const aclError st =
          aclrtMemcpyAsync(out.data() + at, n, call.data(static_cast<Slot>(s)), n, ACL_MEMCPY_DEVICE_TO_HOST, stream);
      if (st != ACL_SUCCESS) return st;
      at += n;
    }
    return ACL_SUCCESS;
  }

  CaseTensors host;
  DeviceCall call;
  size_t out_size = 0;
  std::vector<unsigned char> out;
};

TEST_F(ConcurrencyEvents, UploadComputeDownloadOnThreeStreamsOrderedByEvents) {
  aclrtStream up = nullptr, compute = nullptr, down = nullptr;
  ASSERT_EQ(aclrtCreateStream(&up), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&compute), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&down), ACL_SUCCESS);
  std::vector<std::unique_ptr<Pipelined>> jobs;
  std::vector<aclrtEvent> uploaded(cases_.size()), computed(cases_.size());
  runtime_test::Gate gate;
  ASSERT_EQ(gate.block(up), ACL_SUCCESS);  // nothing on `up` runs until the gate opens
  for (size_t i = 0; i < cases_.size(); ++i) {
    jobs.push_back(std::make_unique<Pipelined>(cases_[i]));
    Pipelined &j = *jobs.back();
    ASSERT_EQ(j.call.prepare(), ACLNN_SUCCESS) << j.call.error;
    ASSERT_EQ(aclrtCreateEvent(&uploaded[i]), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&computed[i]), ACL_SUCCESS);
    const std::vector<unsigned char> &dy = j.host.t[kGradOutput].bytes();
    ASSERT_EQ(
        aclrtMemcpyAsync(j.call.data(kGradOutput), dy.size(), dy.data(), dy.size(), ACL_MEMCPY_HOST_TO_DEVICE, up),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(uploaded[i], up), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(compute, uploaded[i]), ACL_SUCCESS);
    ASSERT_EQ(j.call.launch(compute), ACLNN_SUCCESS) << j.call.error;
    ASSERT_EQ(aclrtRecordEvent(computed[i], compute), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(down, computed[i]), ACL_SUCCESS);
    ASSERT_EQ(j.download_async(down), ACL_SUCCESS);
  }
  // The gate holds `up`, so the first upload has provably not run and everything behind it waits.
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_EQ(aclrtQueryEventStatus(uploaded[0], &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtStreamStatus compute_status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(compute, &compute_status), ACL_SUCCESS);
  EXPECT_EQ(compute_status, ACL_STREAM_STATUS_NOT_READY);
  gate.open();
  // Synchronizing the last stream alone must be enough: the events chain it to the other two.
  ASSERT_EQ(aclrtSynchronizeStream(down), ACL_SUCCESS) << recent_error();
  for (size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_EQ(jobs[i]->out, expected_[i]) << conformance::case_text(cases_[i]);
    ASSERT_EQ(aclrtQueryEventStatus(computed[i], &status), ACL_SUCCESS);
    EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  }
  for (size_t i = 0; i < cases_.size(); ++i) {
    EXPECT_EQ(aclrtDestroyEvent(uploaded[i]), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(computed[i]), ACL_SUCCESS);
  }
  jobs.clear();
  for (aclrtStream s : {up, compute, down}) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// A producer thread launches and records one event per call; a consumer thread makes its own stream wait for
// each event and downloads the outputs. Neither thread synchronizes the other's stream.
TEST_F(ConcurrencyEvents, EventsHandedBetweenHostThreads) {
  aclrtStream produce = nullptr, consume = nullptr;
  ASSERT_EQ(aclrtCreateStream(&produce), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&consume), ACL_SUCCESS);
  std::vector<std::unique_ptr<Pipelined>> jobs;
  std::vector<aclrtEvent> done(cases_.size());
  std::vector<std::promise<void>> recorded(cases_.size());
  for (size_t i = 0; i < cases_.size(); ++i) {
    jobs.push_back(std::make_unique<Pipelined>(cases_[i]));
    ASSERT_EQ(aclrtCreateEvent(&done[i]), ACL_SUCCESS);
  }
  runtime_test::Gate gate;
  ASSERT_EQ(gate.block(produce), ACL_SUCCESS);
  std::string producer_failures, consumer_failures;
  std::thread producer([&] {
    for (size_t i = 0; i < jobs.size(); ++i) {
      Pipelined &j = *jobs[i];
      const std::vector<unsigned char> &dy = j.host.t[kGradOutput].bytes();
      if (aclrtMemcpyAsync(j.call.data(kGradOutput), dy.size(), dy.data(), dy.size(), ACL_MEMCPY_HOST_TO_DEVICE,
                           produce) != ACL_SUCCESS ||
          j.call.prepare() != ACLNN_SUCCESS || j.call.launch(produce) != ACLNN_SUCCESS ||
          aclrtRecordEvent(done[i], produce) != ACL_SUCCESS) {
        producer_failures += j.call.error + " " + recent_error() + "\n";
      }
      recorded[i].set_value();
    }
  });
  std::thread consumer([&] {
    for (size_t i = 0; i < jobs.size(); ++i) {
      recorded[i].get_future().wait();
      if (aclrtStreamWaitEvent(consume, done[i]) != ACL_SUCCESS || jobs[i]->download_async(consume) != ACL_SUCCESS) {
        consumer_failures += recent_error() + "\n";
      }
    }
    if (aclrtSynchronizeStream(consume) != ACL_SUCCESS) consumer_failures += recent_error() + "\n";
  });
  // The consumer's downloads are queued behind waits for records that cannot have run: the gate holds them.
  producer.join();
  gate.open();
  consumer.join();
  EXPECT_EQ(producer_failures, "");
  EXPECT_EQ(consumer_failures, "");
  for (size_t i = 0; i < jobs.size(); ++i) EXPECT_EQ(jobs[i]->out, expected_[i]) << conformance::case_text(cases_[i]);
  for (aclrtEvent e : done) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  jobs.clear();
  EXPECT_EQ(aclrtDestroyStream(produce), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(consume), ACL_SUCCESS);
}

// Several host threads block in aclrtSynchronizeEvent on the same record; all return once it ran, and the
// computed outputs are then visible to each of them.
TEST_F(ConcurrencyEvents, ManyThreadsSynchronizeOnOneEvent) {
  constexpr int kWaiters = 4;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  CaseTensors host(cases_[0]);
  DeviceCall call(cases_[0], host);
  ASSERT_EQ(call.prepare(), ACLNN_SUCCESS) << call.error;
  runtime_test::Gate gate;
  ASSERT_EQ(gate.block(stream), ACL_SUCCESS);
  ASSERT_EQ(call.launch(stream), ACLNN_SUCCESS) << call.error;
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  std::vector<std::string> seen(kWaiters);
  std::vector<std::thread> waiters;
  for (int w = 0; w < kWaiters; ++w) {
    waiters.emplace_back([&, w] {
      if (aclrtSynchronizeEvent(event) != ACL_SUCCESS) {
        seen[w] = "aclrtSynchronizeEvent: " + recent_error();
        return;
      }
      seen[w] = call.output_bytes() == expected_[0] ? "" : "outputs differ after the event";
    });
  }
  gate.open();
  for (std::thread &th : waiters) th.join();
  for (const std::string &s : seen) EXPECT_EQ(s, "");
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
}  // namespace concurrency
