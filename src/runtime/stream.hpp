// One stream: an in-order queue of host work run by its own worker thread (started on first use), so that
// different streams run concurrently while each keeps its order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "acl/acl_base.h"

namespace aclnn_cpu {
namespace runtime {

using Work = std::function<aclError()>;

class Stream {
 public:
  Stream() = default;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();  // drains and joins

  // Appends `work`. Returns false (dropping it) once the stream is shutting down.
  bool push(Work work);

  // When nothing is pending, runs `work` on the calling thread as the stream's next piece of work (work pushed
  // meanwhile waits for it; wait() counts it; a failure is kept for take_failure) and returns true. Otherwise
  // (pending work, or shutting down) returns false and leaves `work` untouched.
  bool run_here_if_idle(Work *work);

  // Waits until everything pushed before this call has run. `timeout_ms` < 0 waits without limit; returns
  // false when the time ran out first.
  bool wait(int64_t timeout_ms);

  // The first failure of queued work since the last call (ACL_SUCCESS when none), with the message the work
  // recorded on the worker thread; clears it.
  aclError take_failure(std::string *message);

  // True when no pushed work is pending or running.
  bool idle();

  // Stops accepting work. `discard` drops what has not started yet (its captured state is destroyed without
  // running); otherwise the worker drains the queue before it exits.
  void request_stop(bool discard);
  // Waits for the worker to exit (after request_stop).
  void join();

  // True on the worker thread of this stream.
  bool on_worker() const;

 private:
  void run();
  void record_result(aclError status, std::string *message);

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::deque<Work> queue_;
  uint64_t pushed_ = 0;
  uint64_t finished_ = 0;
  // Mirrors of pushed_ and finished_ (written under the lock) that the worker and wait() poll without it for a
  // short while before they sleep: back-to-back small calls then never pay a futex wake-up in each direction.
  std::atomic<uint64_t> pushed_seen_{0};
  std::atomic<uint64_t> finished_seen_{0};
  bool stopping_ = false;
  bool running_here_ = false;  // run_here_if_idle is running work on a caller's thread: the worker waits
  std::thread::id here_id_;    // that caller
  aclError failure_ = ACL_SUCCESS;
  std::string failure_message_;
  std::thread worker_;
  std::thread::id worker_id_;
};

// True when the calling thread is the worker of some stream (blocking on streams from there could deadlock).
bool on_stream_worker();

}  // namespace runtime
}  // namespace aclnn_cpu
