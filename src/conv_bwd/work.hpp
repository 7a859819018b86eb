// The work of a plan as the plan predicts it, without computing anything: the jobs execution will run, in order
// (each a parallel_for or parallel_for_slots over work items, cut as parallel.hpp cuts it), with an estimated cost
// per item from a simple cost model. From it, the parallel efficiency the plan predicts for any thread count
// (aclnn_cpu_demo --simulate-threads; docs/performance.md, "Many cores").
//
// Cost model: one unit is one multiply-add of the plan's microkernel; moving one element (reading, converting,
// packing, storing, zeroing) costs move_cost(isa) units, an add of two elements as much as a move, and an element of a
// job that streams whole tensors through memory (gradBias's sums, the K parts' sums, staging, a weight packed from
// strided rows) stream_cost(isa). Kernel work counts whole tiles (a remainder of MR rows or NR columns costs a whole
// tile). What it leaves out: cache misses, the
// thread hand-offs, memory bandwidth shared by the threads. The demo's --check-cost-model compares it with the
// items' measured times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conv_bwd/parallel.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

struct Plan;
struct Problem;

// Units of kernel multiply-adds that moving one element costs on `isa` (about a vector of FMAs' worth of lanes).
double move_cost(Isa isa);
double stream_cost(Isa isa);

// One job of the execution: which loop runs it, what the run passes it (so that the simulation cuts it as the run
// does), and each item's estimated cost.
struct WorkPhase {
  std::string name;
  LoopKind kind = LoopKind::kSlots;
  int64_t count = 0;
  int slots = 1;         // kSlots: the plan's slots
  double loop_cost = 0;  // what the run passes the loop: cost_per_item (kFor) or total_cost (kSlots)
  double each = 0;       // every item's cost, unless `cost` holds them one by one
  std::vector<double> cost;
  bool serial = false;  // not a loop: code the calling thread runs alone (one item)

  double item(int64_t i) const { return cost.empty() ? each : cost[static_cast<size_t>(i)]; }
  double total() const;
};
using Work = std::vector<WorkPhase>;

// Positions [begin, end) cut into tiles of `tile` from `begin` on, each rounded up to whole `nr`-wide panels: the
// columns a kernel of NR columns computes for them.
inline int64_t panel_columns(int64_t begin, int64_t end, int64_t tile, int64_t nr) {
  const int64_t n = end - begin, whole = n / tile, rest = n % tile;
  return whole * ((tile + nr - 1) / nr * nr) + (rest + nr - 1) / nr * nr;
}

// A job of `count` equal items.
WorkPhase uniform_phase(const char *name, LoopKind kind, int64_t count, int slots, double loop_cost, double each);
// Serial code of that cost.
WorkPhase serial_phase(const char *name, double cost);

// The jobs execute() runs for `problem` under `plan` (finite operands: a fallback to the reference is not foreseen).
Work plan_work(const Problem &problem, const Plan &plan);

// The work spread over `threads` threads as the loops spread it (ranges handed out in order to the participant free
// first): the whole work, and the span, the sum over the jobs of their busiest participant's work.
struct Simulation {
  double work = 0, span = 0;
  // work / (threads × span): 1 when every thread works all the time; a job run on one thread counts on one.
  double efficiency(int threads) const { return span > 0 ? work / (threads * span) : 1.0; }
};
Simulation simulate(const Work &work, int threads);
// The same spread with each job's item costs given (e.g. measured): costs[j][i] for job j's item i.
Simulation simulate(const Work &work, const std::vector<std::vector<double>> &costs, int threads);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
