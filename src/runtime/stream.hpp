// One stream: an in-order queue of host work run by its own worker thread (started on first use), so that
// different streams run concurrently while each keeps its order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl_base.h"

namespace aclnn_cpu {
namespace runtime {

// A piece of queued host work: a callable returning aclError, held inline — a launch queues its operation without
// touching the heap. Everything the runtime queues captures a few pointers (an operation's shared pointer and its
// arguments, an event and a sequence number); kCapacity bounds it at compile time.
class Work {
 public:
  static constexpr size_t kCapacity = 48;

  Work() = default;
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Work>>>
  Work(F &&f) {  // NOLINT(google-explicit-constructor): work is passed as lambdas
    using Fn = std::decay_t<F>;
    static_assert(sizeof(Fn) <= kCapacity && alignof(Fn) <= alignof(std::max_align_t), "work must fit inline");
    new (storage_) Fn(std::forward<F>(f));
    ops_ = &kOps<Fn>;
  }
  Work(Work &&other) noexcept { take(other); }
  Work &operator=(Work &&other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  Work(const Work &) = delete;
  Work &operator=(const Work &) = delete;
  ~Work() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  aclError operator()() { return ops_->call(storage_); }
  // Destroys the callable (and what it captured).
  void reset() {
    if (ops_ != nullptr) ops_->destroy(storage_);
    ops_ = nullptr;
  }

 private:
  struct Ops {
    aclError (*call)(void *);
    void (*move)(void *to, void *from);  // move-constructs at `to`, destroys `from`
    void (*destroy)(void *);
  };
  template <typename Fn>
  static constexpr Ops kOps = {[](void *f) -> aclError { return (*static_cast<Fn *>(f))(); },
                               [](void *to, void *from) {
                                 new (to) Fn(std::move(*static_cast<Fn *>(from)));
                                 static_cast<Fn *>(from)->~Fn();
                               },
                               [](void *f) { static_cast<Fn *>(f)->~Fn(); }};

  void take(Work &other) {
    ops_ = other.ops_;
    if (ops_ != nullptr) ops_->move(storage_, other.storage_);
    other.ops_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char storage_[kCapacity];
  const Ops *ops_ = nullptr;
};

class Stream {
 public:
  // The most pieces of work a stream holds at once (its ring, made with the stream); a push into a full stream waits
  // until its worker has taken one.
  static constexpr size_t kCapacity = 1024;

  Stream() : ring_(kCapacity) {}
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();  // drains and joins

  // Appends `work` (waiting while the stream is full). Returns false (dropping it) once the stream is shutting down.
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
  std::condition_variable space_;  // a slot of the ring became free
  std::vector<Work> ring_;         // queued work: count_ pieces from head_ on (mod kCapacity)
  size_t head_ = 0, count_ = 0;
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
