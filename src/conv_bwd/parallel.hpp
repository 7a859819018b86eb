// Static-partition parallel loop over a fixed thread pool.
// Results never depend on the thread count as long as every item writes its own outputs and computes them
// in an order that depends only on the item: the partition only decides *who* runs an item, not *how*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/function_ref.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Calls body(begin, end) on disjoint contiguous ranges covering [0, count). The ranges are fixed by `count`,
// aclnn_cpu::effective_num_threads() and `cost_per_item` (a rough count of multiply-adds per item; small jobs
// get fewer ranges so that waking threads does not cost more than the work). Returns after every range ran.
// If the pool is busy with another call (another stream), this call runs its ranges on the calling thread.
void parallel_for(int64_t count, int64_t cost_per_item, FunctionRef<void(int64_t, int64_t)> body);

// Calls body(slot, begin, end) on disjoint ranges covering [0, count), on at most `slots` threads at once;
// `slot` (< slots) identifies the thread running the range, so a range may use per-slot scratch that no
// concurrent range touches. Ranges go to whichever thread is free first: the items, not the threads, fix what
// is computed. Jobs whose `total_cost` (multiply-adds) is small use fewer threads. Returns after every range ran.
void parallel_for_slots(int64_t count, int slots, double total_cost, FunctionRef<void(int, int64_t, int64_t)> body);

// How the two loops above cut a job of `count` items for `threads` threads (a pure function, so that a plan can
// be simulated for any thread count: work.hpp): `ranges` contiguous ranges handed out in order to whichever of
// `participants` threads is free first (participant 0 is the caller).
struct Ranges {
  int64_t count = 0, ranges = 0;
  int participants = 1;
  int64_t per = 0, extra = 0;  // range r starts at r·per + min(r, extra)

  int64_t begin(int64_t r) const { return r >= ranges ? count : r * per + (r < extra ? r : extra); }
};
Ranges for_ranges(int64_t count, int64_t cost_per_item, int threads);
Ranges slot_ranges(int64_t count, int slots, double total_cost, int threads);

// Which loop a job ran in.
enum class LoopKind { kFor, kSlots };

// What the loops ran while an ItemTimes was recording (docs/performance.md, "Many cores"): each job with its
// items' seconds. While one records, every job in the process runs item by item on its calling thread (no thread
// hand-offs, the same results), so that an item's time is its own. Items run one after the other would find the
// operands they share with the previous one in cache, which items spread over many cores do not: `evict_bytes`
// (0: none) are written before each item, so that each starts with the private caches holding other data.
struct TimedJob {
  LoopKind kind = LoopKind::kFor;
  std::vector<double> item_seconds;
};

class ItemTimes {
 public:
  explicit ItemTimes(size_t evict_bytes = 0);  // starts recording (one recorder at a time in the process)
  ~ItemTimes();
  ItemTimes(const ItemTimes &) = delete;
  ItemTimes &operator=(const ItemTimes &) = delete;

  void clear() { jobs_.clear(); }
  const std::vector<TimedJob> &jobs() const { return jobs_; }

  // Used by the loops.
  template <typename Body>
  void run(LoopKind kind, int64_t count, Body body);

 private:
  double now() const;
  void evict();
  std::vector<TimedJob> jobs_;
  std::vector<unsigned char> evict_;
  unsigned char stamp_ = 0;
};

template <typename Body>
void ItemTimes::run(LoopKind kind, int64_t count, Body body) {
  TimedJob job;
  job.kind = kind;
  job.item_seconds.resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    evict();
    const double start = now();
    body(i);
    job.item_seconds[static_cast<size_t>(i)] = now() - start;
  }
  jobs_.push_back(std::move(job));
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
