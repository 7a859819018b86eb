// Static-partition parallel loop over a fixed thread pool.
// Results never depend on the thread count as long as every item writes its own outputs and computes them
// in an order that depends only on the item: the partition only decides *who* runs an item, not *how*.
#pragma once

#include <cstdint>

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

}  // namespace conv_bwd
}  // namespace aclnn_cpu
