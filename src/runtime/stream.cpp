#include "runtime/stream.hpp"

#include <chrono>
#include <exception>
#include <new>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace aclnn_cpu {
namespace runtime {
namespace {

thread_local const Stream *current_worker = nullptr;

// How long the worker polls for new work after its queue ran dry, and wait() polls for completion, before
// sleeping on a condition variable. Waking a sleeping thread cost 10-100 µs on the virtual machines measured
// (a tiny call is a few µs of work). Polling yields the CPU on every turn: spinning with the pause hint
// instead made calls 10x slower whenever more threads wanted the CPUs than there were (measured with OpenMP's
// spinning workers beside us), and the limits bound what polling can waste.
constexpr auto kWorkerPoll = std::chrono::microseconds(200);
constexpr auto kWaitPoll = std::chrono::microseconds(50);

// Polls `ready` until it holds or `limit` has passed; returns whether it holds.
template <typename Ready>
bool poll_for(std::chrono::microseconds limit, Ready ready) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::yield();
  }
  return true;
}

// Runs one piece of work on the worker thread. Never throws: an exception becomes a status. `message` receives
// what the work recorded for aclGetRecentErrMsg (it is handed to the thread that synchronizes).
aclError execute(Work &work, std::string *message) noexcept {
  aclError status = ACL_SUCCESS;
  clear_recent_error();
  try {
    status = work();
    if (status != ACL_SUCCESS && recent_error() != nullptr) *message = recent_error();
  } catch (const std::bad_alloc &) {
    status = ACL_ERROR_BAD_ALLOC;
    message->clear();
  } catch (const std::exception &e) {
    status = ACL_ERROR_INTERNAL_ERROR;
    try {
      *message = std::string("stream task failed: ") + e.what();
    } catch (...) {
      message->clear();  // the status alone is still reported
    }
  } catch (...) {
    status = ACL_ERROR_INTERNAL_ERROR;
    message->clear();
  }
  clear_recent_error();
  return status;
}

}  // namespace

bool on_stream_worker() { return current_worker != nullptr; }

Stream::~Stream() {
  request_stop(false);
  join();
}

bool Stream::push(Work work) {
  std::unique_lock<std::mutex> lock(mutex_);
  space_.wait(lock, [this] { return stopping_ || count_ < kCapacity; });
  if (stopping_) return false;
  if (!worker_.joinable()) {
    worker_ = std::thread([this] { run(); });  // may throw; nothing has been queued yet
    worker_id_ = worker_.get_id();
  }
  ring_[(head_ + count_) % kCapacity] = std::move(work);
  ++count_;
  ++pushed_;
  pushed_seen_.store(pushed_, std::memory_order_release);
  work_ready_.notify_one();
  return true;
}

bool Stream::run_here_if_idle(Work *work) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || finished_ != pushed_) return false;
    ++pushed_;
    pushed_seen_.store(pushed_, std::memory_order_release);
    running_here_ = true;
    here_id_ = std::this_thread::get_id();
  }
  std::string message;
  const aclError status = execute(*work, &message);
  work->reset();
  std::lock_guard<std::mutex> lock(mutex_);
  running_here_ = false;
  record_result(status, &message);
  work_ready_.notify_one();
  return true;
}

bool Stream::wait(int64_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t target = pushed_;
  if (finished_ < target && timeout_ms != 0) {
    lock.unlock();
    poll_for(kWaitPoll, [&] { return finished_seen_.load(std::memory_order_acquire) >= target; });
    lock.lock();
  }
  auto done = [&] { return finished_ >= target; };
  if (timeout_ms < 0) {
    work_done_.wait(lock, done);
    return true;
  }
  return work_done_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
}

aclError Stream::take_failure(std::string *message) {
  std::lock_guard<std::mutex> lock(mutex_);
  aclError status = failure_;
  message->swap(failure_message_);
  failure_ = ACL_SUCCESS;
  failure_message_.clear();
  return status;
}

bool Stream::idle() {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_ == pushed_;
}

void Stream::request_stop(bool discard) {
  std::vector<Work> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    if (discard) {
      dropped.reserve(count_);  // (shutting down, not launching: this may allocate)
      for (; count_ > 0; --count_, head_ = (head_ + 1) % kCapacity) dropped.push_back(std::move(ring_[head_]));
      finished_ += dropped.size();
      finished_seen_.store(finished_, std::memory_order_release);
      work_done_.notify_all();
    }
    work_ready_.notify_all();
    space_.notify_all();
  }
  // Destroyed outside the lock: a dropped event record completes its event from its destructor.
  dropped.clear();
}

void Stream::join() {
  {
    // Work running on a caller's thread (run_here_if_idle) is this stream's work too: destruction waits for it.
    std::unique_lock<std::mutex> lock(mutex_);
    if (running_here_ && here_id_ != std::this_thread::get_id())
      work_done_.wait(lock, [this] { return !running_here_; });
  }
  if (!worker_.joinable()) return;
  if (std::this_thread::get_id() == worker_id_) {
    worker_.detach();  // the stream is being torn down from its own task; it exits after that task
    return;
  }
  worker_.join();
}

bool Stream::on_worker() const { return current_worker == this; }

void Stream::run() {
  current_worker = this;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (count_ == 0 && !stopping_) {
      const uint64_t seen = finished_;  // read under the lock: request_stop(true) advances it
      lock.unlock();
      poll_for(kWorkerPoll, [&] { return pushed_seen_.load(std::memory_order_acquire) > seen; });
      lock.lock();
    }
    work_ready_.wait(lock, [this] { return (count_ > 0 && !running_here_) || (stopping_ && count_ == 0); });
    if (count_ == 0) break;  // stopping and drained
    Work work = std::move(ring_[head_]);
    head_ = (head_ + 1) % kCapacity;
    --count_;
    space_.notify_one();
    lock.unlock();
    std::string message;
    const aclError status = execute(work, &message);
    work.reset();  // release what the work captured before anyone can observe it as finished
    lock.lock();
    record_result(status, &message);
  }
  current_worker = nullptr;
}

void Stream::record_result(aclError status, std::string *message) {
  if (status != ACL_SUCCESS && failure_ == ACL_SUCCESS) {
    failure_ = status;
    failure_message_.swap(*message);  // no allocation while holding the lock on the worker thread
  }
  ++finished_;
  finished_seen_.store(finished_, std::memory_order_release);
  work_done_.notify_all();
}

}  // namespace runtime
}  // namespace aclnn_cpu
