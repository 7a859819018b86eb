#include "conv_bwd/parallel.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/config.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Below this many multiply-adds a range is not worth a thread hand-off.
constexpr int64_t kMinCostPerRange = 1 << 16;

// Workers are created on first need and kept for the life of the process; the pool only grows and is never
// destroyed (stream threads may still be running a job while static destructors run at exit).
// One job runs at a time; its ranges are handed out under the mutex (there are only as many as threads).
class Pool {
 public:
  // Runs job(0 .. ranges-1) with up to `threads` threads including the caller.
  void run(int64_t ranges, int threads, const std::function<void(int64_t)> &job) {
    std::unique_lock<std::mutex> busy(submit_mutex_, std::try_to_lock);
    if (!busy.owns_lock() || threads <= 1) {
      for (int64_t r = 0; r < ranges; ++r) job(r);
      return;
    }
    grow(static_cast<int>(std::min<int64_t>(threads, ranges)) - 1);
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &job;
    ranges_ = ranges;
    next_ = 0;
    remaining_ = ranges;
    failure_ = nullptr;
    work_cv_.notify_all();
    while (next_ < ranges_) run_one_locked(lock);
    done_cv_.wait(lock, [this] { return remaining_ == 0; });
    job_ = nullptr;
    // A range that threw (e.g. std::bad_alloc) fails the whole job on the caller's thread, after every range
    // has finished, so no worker is left holding the job.
    if (failure_ != nullptr) std::rethrow_exception(failure_);
  }

 private:
  void grow(int workers) {
    std::lock_guard<std::mutex> lock(mutex_);
    while (static_cast<int>(workers_.size()) < workers) {
      try {
        workers_.emplace_back([this] { worker_loop(); });
      } catch (const std::system_error &) {
        return;  // fewer threads: the caller still runs every range itself if needed
      }
    }
  }

  void run_one_locked(std::unique_lock<std::mutex> &lock) {
    const int64_t range = next_++;
    const std::function<void(int64_t)> *job = job_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      (*job)(range);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure != nullptr && failure_ == nullptr) failure_ = failure;
    if (--remaining_ == 0) done_cv_.notify_all();
  }

  void worker_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_cv_.wait(lock, [this] { return job_ != nullptr && next_ < ranges_; });
      run_one_locked(lock);
    }
  }

  std::mutex submit_mutex_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t)> *job_ = nullptr;
  int64_t ranges_ = 0, next_ = 0, remaining_ = 0;
  std::exception_ptr failure_;
};

Pool &pool() {
  static Pool *p = new Pool;  // never destroyed: see Pool
  return *p;
}

}  // namespace

void parallel_for(int64_t count, int64_t cost_per_item, const std::function<void(int64_t, int64_t)> &body) {
  if (count <= 0) return;
  const int threads = std::max(1, effective_num_threads());
  const int64_t cost = std::max<int64_t>(1, cost_per_item);
  // How many ranges of kMinCostPerRange the job holds (double: count * cost may exceed int64).
  const double worth = static_cast<double>(count) * static_cast<double>(cost) / kMinCostPerRange;
  const int64_t ranges = worth >= threads ? std::min<int64_t>(count, threads)
                                          : std::max<int64_t>(1, std::min<int64_t>(count, static_cast<int64_t>(worth)));
  const int64_t base = count / ranges, extra = count % ranges;
  auto range_begin = [&](int64_t r) { return r * base + std::min(r, extra); };
  if (ranges == 1) {
    body(0, count);
    return;
  }
  pool().run(ranges, threads, [&](int64_t r) { body(range_begin(r), range_begin(r + 1)); });
}

void parallel_for_slots(int64_t count, int slots, double total_cost,
                        const std::function<void(int, int64_t, int64_t)> &body) {
  if (count <= 0) return;
  const int threads = std::max(1, effective_num_threads());
  int64_t ranges = std::min<int64_t>(count, std::max(1, slots));
  ranges = std::max<int64_t>(1, std::min<int64_t>(ranges, static_cast<int64_t>(total_cost / kMinCostPerRange)));
  const int64_t base = count / ranges, extra = count % ranges;
  auto range_begin = [&](int64_t r) { return r * base + std::min(r, extra); };
  if (ranges == 1 || threads == 1) {
    for (int64_t r = 0; r < ranges; ++r) body(static_cast<int>(r), range_begin(r), range_begin(r + 1));
    return;
  }
  pool().run(ranges, threads, [&](int64_t r) { body(static_cast<int>(r), range_begin(r), range_begin(r + 1)); });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
