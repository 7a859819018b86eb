#include "conv_bwd/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/config.hpp"
#include "core/float_mode.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Below this many multiply-adds a range is not worth a thread hand-off.
constexpr int64_t kMinCostPerRange = 1 << 16;
// parallel_for_slots: items are handed out in about this many ranges per participant (enough that a late worker
// costs one short range, few enough that the hand-outs stay cheap).
constexpr int64_t kRangesPerParticipant = 8;

// Workers are created on first need and kept for the life of the process; the pool only grows and is never
// destroyed (stream threads may still be running a job while static destructors run at exit).
// One job runs at a time; its ranges are handed out one by one under the mutex to whichever participant asks
// first, so a late worker (a virtual CPU the host has not scheduled yet) delays the job by one range at most.
// Which participant runs a range never changes what the range computes.
class Pool {
 public:
  using Job = FunctionRef<void(int64_t range, int participant)>;

  // Runs job(r, p) for r in 0 .. ranges-1 on up to `threads` participants: the caller is participant 0, worker
  // i is participant i; a participant runs its ranges one after another.
  void run(int64_t ranges, int threads, const Job &job) {
    std::unique_lock<std::mutex> busy(submit_mutex_, std::try_to_lock);
    if (!busy.owns_lock() || threads <= 1) {
      for (int64_t r = 0; r < ranges; ++r) job(r, 0);
      return;
    }
    const int participants = static_cast<int>(std::min<int64_t>(threads, ranges));
    grow(participants - 1);
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &job;
    participants_ = participants;
    ranges_ = ranges;
    next_ = 0;
    remaining_ = ranges;
    failure_ = nullptr;
    work_posted_.store(true, std::memory_order_release);
    work_cv_.notify_all();
    while (next_ < ranges_) run_one_locked(lock, 0);
    // The last ranges are usually in flight on the workers: wait for them awake for a while before sleeping, as a
    // sleeping thread's wake-up on a virtual CPU can take milliseconds.
    if (remaining_.load(std::memory_order_acquire) != 0) {
      lock.unlock();
      spin_until([this] { return remaining_.load(std::memory_order_acquire) == 0; });
      lock.lock();
    }
    done_cv_.wait(lock, [this] { return remaining_.load(std::memory_order_acquire) == 0; });
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
        const int id = static_cast<int>(workers_.size()) + 1;
        workers_.emplace_back([this, id] { worker_loop(id); });
      } catch (const std::system_error &) {
        return;  // fewer threads: the caller still runs every range itself if needed
      }
    }
  }

  void run_one_locked(std::unique_lock<std::mutex> &lock, int participant) {
    const int64_t range = next_++;
    if (next_ == ranges_) work_posted_.store(false, std::memory_order_release);
    const Job *job = job_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      (*job)(range, participant);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure != nullptr && failure_ == nullptr) failure_ = failure;
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_cv_.notify_all();
  }

  bool has_work(int id) const { return job_ != nullptr && next_ < ranges_ && id < participants_; }

  // After each range a worker spins for a short while before it sleeps: waking a sleeping thread costs tens of
  // microseconds on bare metal and far more on a virtual CPU, long enough for the caller to run every range
  // itself (measured here: the second thread got a quarter of the work without the spin).
  void worker_loop(int id) {
    set_standard_float_mode();  // not the mode of the thread that happened to create it (core/float_mode.hpp)
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (has_work(id)) {
        run_one_locked(lock, id);
        continue;
      }
      lock.unlock();
      spin_until([this] { return work_posted_.load(std::memory_order_acquire); });
      lock.lock();
      work_cv_.wait(lock, [this, id] { return has_work(id); });
    }
  }

  // After kSpinAlone of spinning alone, yields every kYieldEvery. A participant that only spun while the one it waited
  // for was queued on the same CPU held that CPU for the whole spin: pinned to one CPU (`taskset -c 0`), two threads
  // took 6.1 ms for ResNet's 14² layer and 5.0 for DCGAN k3s2 (one thread: 4.2 and 3.1), now 4.6 and 3.5; and at two
  // threads on two CPUs, whole benchmark rounds of DCGAN k3s2 took 3.7 ms instead of 1.6, as if both shared one.
  // Yielding after 100 µs every 25 recovered all of that but cost MobileNet's stem at two threads 13-18 % and the
  // dense layers 1-6 % when nothing else wanted the CPUs; after 500 every 50 they measured as without.
  template <typename Ready>
  static void spin_until(Ready ready) {
    const auto start = std::chrono::steady_clock::now();
    auto next_yield = start + kSpinAlone;
    const auto until = start + kSpin;
    for (;;) {
      for (int i = 0; i < 256; ++i) {
        if (ready()) return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");  // the spin-wait hint, as PAUSE on x86
#endif
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= until) return;
      if (now >= next_yield) {
        std::this_thread::yield();
        next_yield = now + kYieldEvery;
      }
    }
  }

  std::mutex submit_mutex_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::vector<std::thread> workers_;
  const Job *job_ = nullptr;
  int participants_ = 0;
  int64_t ranges_ = 0, next_ = 0;
  std::atomic<int64_t> remaining_{0};  // ranges not finished (changed under the mutex, read without it while spinning)
  std::exception_ptr failure_;
  std::atomic<bool> work_posted_{false};  // a job has ranges left (read without the lock by spinning workers)
  static constexpr std::chrono::microseconds kSpin{2000}, kSpinAlone{500}, kYieldEvery{50};
};

Pool &pool() {
  static Pool *p = new Pool;  // never destroyed: see Pool
  return *p;
}

// The recorder of item times, or nullptr (one at a time: ItemTimes).
std::atomic<ItemTimes *> g_recorder{nullptr};

}  // namespace

Ranges for_ranges(int64_t count, int64_t cost_per_item, int threads) {
  Ranges r;
  r.count = count;
  if (count <= 0) return r;
  threads = std::max(1, threads);
  const int64_t cost = std::max<int64_t>(1, cost_per_item);
  // How many ranges of kMinCostPerRange the job holds (double: count * cost may exceed int64).
  const double worth = static_cast<double>(count) * static_cast<double>(cost) / kMinCostPerRange;
  r.ranges = worth >= threads ? std::min<int64_t>(count, threads)
                              : std::max<int64_t>(1, std::min<int64_t>(count, static_cast<int64_t>(worth)));
  r.per = count / r.ranges;
  r.extra = count % r.ranges;
  r.participants = static_cast<int>(std::min<int64_t>(threads, r.ranges));
  return r;
}

Ranges slot_ranges(int64_t count, int slots, double total_cost, int threads) {
  Ranges r;
  r.count = count;
  if (count <= 0) return r;
  threads = std::max(1, std::min(slots, threads));
  // Small jobs run on fewer threads; every item is its own range, handed out as participants ask.
  const int64_t worth = std::max<int64_t>(1, static_cast<int64_t>(total_cost / kMinCostPerRange));
  r.participants = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, worth)));
  if (r.participants <= 1) {
    r.ranges = 1;
    r.per = count;
    return r;
  }
  // Consecutive items go out together, about kRangesPerParticipant ranges per participant: each range is a trip
  // through the pool's mutex, which two threads contend for when items are tiny (a depthwise layer's channels).
  r.per = std::max<int64_t>(1, count / (int64_t{r.participants} * kRangesPerParticipant));
  r.ranges = ceil_div(count, r.per);
  return r;
}

ItemTimes::ItemTimes(size_t evict_bytes) : evict_(evict_bytes) { g_recorder.store(this); }
ItemTimes::~ItemTimes() { g_recorder.store(nullptr); }

void ItemTimes::evict() {
  if (!evict_.empty()) std::memset(evict_.data(), ++stamp_, evict_.size());
}

double ItemTimes::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void parallel_for(int64_t count, int64_t cost_per_item, FunctionRef<void(int64_t, int64_t)> body) {
  if (count <= 0) return;
  if (ItemTimes *rec = g_recorder.load(std::memory_order_relaxed)) {
    rec->run(LoopKind::kFor, count, [&](int64_t i) { body(i, i + 1); });
    return;
  }
  const Ranges r = for_ranges(count, cost_per_item, effective_num_threads());
  if (r.ranges == 1) {
    body(0, count);
    return;
  }
  pool().run(r.ranges, r.participants, [&](int64_t i, int) { body(r.begin(i), r.begin(i + 1)); });
}

void parallel_for_slots(int64_t count, int slots, double total_cost, FunctionRef<void(int, int64_t, int64_t)> body) {
  if (count <= 0) return;
  if (ItemTimes *rec = g_recorder.load(std::memory_order_relaxed)) {
    rec->run(LoopKind::kSlots, count, [&](int64_t i) { body(0, i, i + 1); });
    return;
  }
  const Ranges r = slot_ranges(count, slots, total_cost, effective_num_threads());
  if (r.participants <= 1) {
    body(0, 0, count);
    return;
  }
  pool().run(r.ranges, r.participants,
             [&](int64_t i, int participant) { body(participant, r.begin(i), r.begin(i + 1)); });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
