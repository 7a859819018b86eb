// One event: a marker that streams record (aclrtRecordEvent) and that the host or other streams wait for.
// Records are numbered; waiting means "until the record that was the latest one at the time of the call ran".
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "acl/acl_rt.h"
#include "runtime/stream.hpp"

namespace aclnn_cpu {
namespace runtime {

class Event {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Event(uint32_t flags) : flags_(flags) {}
  uint32_t flags() const { return flags_; }

  // Numbers a new record (called when it is enqueued); 1, 2, ...
  uint64_t begin_record();
  // Marks record `seq` as executed (also for a record discarded unexecuted, so that no waiter hangs).
  void complete_record(uint64_t seq);
  // Executed in stream order by aclrtResetEvent: the recorded status reads NOT_READY until the next record.
  void reset();

  // The number of the latest record, 0 when never recorded.
  uint64_t latest_record();
  // Blocks until record `seq` has executed (seq 0 returns at once).
  void wait(uint64_t seq);

  aclrtEventStatus status();
  aclrtEventRecordedStatus recorded_status();
  // When the latest record executed; false when it has not executed yet (or never was recorded).
  bool completion_time(Clock::time_point *time);

 private:
  const uint32_t flags_;
  std::mutex mutex_;
  std::condition_variable completed_;
  uint64_t recorded_ = 0;   // records enqueued
  uint64_t executed_ = 0;   // highest record executed
  bool reset_ = false;
  Clock::time_point time_{};
};

// The stream work of aclrtRecordEvent for record `seq`. If the work is destroyed without running (forced
// stream destruction), the record still completes.
Work make_record_work(std::shared_ptr<Event> event, uint64_t seq);

// The stream work of aclrtStreamWaitEvent: blocks the stream until record `seq` of `event` executed.
Work make_wait_work(std::shared_ptr<Event> event, uint64_t seq);

// The stream work of aclrtResetEvent.
Work make_reset_work(std::shared_ptr<Event> event);

}  // namespace runtime
}  // namespace aclnn_cpu
