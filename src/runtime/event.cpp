#include "runtime/event.hpp"

#include <algorithm>
#include <utility>

namespace aclnn_cpu {
namespace runtime {
namespace {

// Completes its record exactly once: when run, or else when destroyed.
class RecordMarker {
 public:
  RecordMarker(std::shared_ptr<Event> event, uint64_t seq) : event_(std::move(event)), seq_(seq) {}
  RecordMarker(const RecordMarker &) = delete;
  RecordMarker &operator=(const RecordMarker &) = delete;
  ~RecordMarker() {
    if (!done_) event_->complete_record(seq_);
  }
  void run() {
    event_->complete_record(seq_);
    done_ = true;
  }

 private:
  std::shared_ptr<Event> event_;
  uint64_t seq_;
  bool done_ = false;
};

}  // namespace

uint64_t Event::begin_record() {
  std::lock_guard<std::mutex> lock(mutex_);
  return ++recorded_;
}

void Event::complete_record(uint64_t seq) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (seq > executed_) {
    executed_ = seq;
    time_ = Clock::now();
    if (executed_ == recorded_) reset_ = false;
  }
  completed_.notify_all();
}

void Event::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  reset_ = true;
}

uint64_t Event::latest_record() {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorded_;
}

void Event::wait(uint64_t seq) {
  std::unique_lock<std::mutex> lock(mutex_);
  completed_.wait(lock, [&] { return executed_ >= seq; });
}

aclrtEventStatus Event::status() {
  std::lock_guard<std::mutex> lock(mutex_);
  return executed_ >= recorded_ ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
}

aclrtEventRecordedStatus Event::recorded_status() {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool complete = recorded_ > 0 && executed_ >= recorded_ && !reset_;
  return complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
}

bool Event::completion_time(Clock::time_point *time) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (recorded_ == 0 || executed_ < recorded_) return false;
  *time = time_;
  return true;
}

Work make_record_work(std::shared_ptr<Event> event, uint64_t seq) {
  auto marker = std::make_shared<RecordMarker>(std::move(event), seq);
  return [marker]() -> aclError {
    marker->run();
    return ACL_SUCCESS;
  };
}

Work make_wait_work(std::shared_ptr<Event> event, uint64_t seq) {
  return [event, seq]() -> aclError {
    event->wait(seq);
    return ACL_SUCCESS;
  };
}

Work make_reset_work(std::shared_ptr<Event> event) {
  return [event]() -> aclError {
    event->reset();
    return ACL_SUCCESS;
  };
}

}  // namespace runtime
}  // namespace aclnn_cpu
