#include "simulate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "aclnn_cpu/ext.h"
#include "api/conv_backward_operation.hpp"
#include "api/executor.hpp"
#include "api_run.hpp"
#include "conv_bwd/parallel.hpp"
#include "conv_bwd/plan.hpp"
#include "conv_bwd/work.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

using conv_bwd::Simulation;
using conv_bwd::Work;
using conv_bwd::WorkPhase;

// The plan an executor holds, with its problem; false when it is not a convolution-backward executor.
bool work_of(const aclOpExecutor *executor, Work *work, conv_bwd::Plan *plan) {
  const std::shared_ptr<const Operation> op = executor_operation(executor);
  const auto *conv = dynamic_cast<const ConvBackwardOperation *>(op.get());
  if (conv == nullptr) return false;
  *plan = conv->plan();
  *work = conv_bwd::plan_work(conv->problem(), conv->plan());
  return true;
}

// Sets the calling thread's thread count (the plan is made with it) for the life of the object.
class ThreadCount {
 public:
  explicit ThreadCount(int threads) { aclnnCpuSetThreadNumThreads(threads); }
  ~ThreadCount() { aclnnCpuSetThreadNumThreads(-1); }
};

void print_jobs(const Work &work, int threads) {
  for (const WorkPhase &ph : work) {
    const Simulation one = conv_bwd::simulate(Work{ph}, threads);
    std::printf("    %-20s %8lld items%s, %.3g units, busiest thread %.3g\n", ph.name.c_str(),
                static_cast<long long>(ph.count), ph.serial ? " (serial)" : "", one.work, one.span);
  }
}

bool simulate_only(const conv_bwd::ConvDesc &desc, const HostData &host, const Options &o,
                   const std::vector<int> &threads) {
  for (int t : threads) {
    const ThreadCount scoped(t);
    Work work;
    conv_bwd::Plan plan;
    bool found = false;
    const ApiRun run = plan_through_api(desc, host, [&](aclOpExecutor *e) { found = work_of(e, &work, &plan); });
    if (!run.ok || !found) {
      std::printf("  threads %d: cannot plan: %s returned %d: %s\n", t, run.failed_call.c_str(), run.status,
                  run.message.c_str());
      return false;
    }
    std::printf("  threads %d: predicted efficiency %.3f\n", t, conv_bwd::simulate(work, t).efficiency(t));
    if (o.verbose) print_jobs(work, t);
  }
  return true;
}

// Σ|a − b| / Σ b over a job's items, the model's costs scaled to seconds.
double weighted_error(const WorkPhase &ph, const std::vector<double> &measured, double seconds_per_unit) {
  double diff = 0, sum = 0;
  for (int64_t i = 0; i < ph.count; ++i) {
    const double m = measured[static_cast<size_t>(i)];
    diff += std::fabs(ph.item(i) * seconds_per_unit - m);
    sum += m;
  }
  return sum > 0 ? diff / sum : 0;
}

constexpr int kTimedCalls = 3;
// Written before each timed item: more than any x86 core's private L2 (1 MiB on Zen 5, 2 MiB on Sapphire Rapids), so
// an item does not find in L2 what the item before it loaded, as on many cores it would not.
constexpr size_t kEvictBytes = size_t{4} << 20;

// Keeps in *fastest each item's least time over `jobs` too (the same jobs, another call).
void keep_fastest(const std::vector<conv_bwd::TimedJob> &jobs, std::vector<conv_bwd::TimedJob> *fastest) {
  if (jobs.size() != fastest->size()) return;  // not the same jobs: reported by the comparison
  for (size_t j = 0; j < jobs.size(); ++j) {
    std::vector<double> &best = (*fastest)[j].item_seconds;
    if (jobs[j].item_seconds.size() != best.size()) continue;
    for (size_t i = 0; i < best.size(); ++i) best[i] = std::min(best[i], jobs[j].item_seconds[i]);
  }
}

// One thread count: the plan's jobs against the run's, item by item.
bool check_one(const conv_bwd::ConvDesc &desc, const HostData &host, aclrtStream stream, int t) {
  const ThreadCount scoped(t);
  Work work;
  conv_bwd::Plan plan;
  bool found = false;
  // A first call to page in the workspace and the outputs, as repeated calls find them, then kTimedCalls recorded
  // ones: each item's fastest time (a preempted item would otherwise pass for a slow one).
  conv_bwd::ItemTimes times(kEvictBytes);
  std::vector<conv_bwd::TimedJob> jobs;
  int call = 0;
  const ApiRun run = repeat_through_api(desc, host, stream, 1 + kTimedCalls, [&](aclOpExecutor *e) {
    if (call++ > 1) keep_fastest(times.jobs(), &jobs);
    if (call == 2) jobs = times.jobs();
    times.clear();
    found = work_of(e, &work, &plan);
  });
  keep_fastest(times.jobs(), &jobs);
  if (!run.ok || !found) {
    std::printf("  threads %d: %s returned %d: %s\n", t, run.failed_call.c_str(), run.status, run.message.c_str());
    return false;
  }
  std::vector<const WorkPhase *> loops;
  for (const WorkPhase &ph : work) {
    if (!ph.serial) loops.push_back(&ph);
  }
  bool same = jobs.size() == loops.size();
  for (size_t j = 0; same && j < jobs.size(); ++j) {
    same = jobs[j].kind == loops[j]->kind && static_cast<int64_t>(jobs[j].item_seconds.size()) == loops[j]->count;
  }
  if (!same) {
    std::printf("  threads %d: MISMATCH: the run's jobs are not the plan's work\n", t);
    for (size_t j = 0; j < std::max(jobs.size(), loops.size()); ++j) {
      std::printf("    job %zu: run %lld items, work %s %lld items\n", j,
                  j < jobs.size() ? static_cast<long long>(jobs[j].item_seconds.size()) : -1LL,
                  j < loops.size() ? loops[j]->name.c_str() : "-",
                  j < loops.size() ? static_cast<long long>(loops[j]->count) : -1LL);
    }
    return false;
  }
  double model = 0, measured = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    model += loops[j]->total();
    for (double s : jobs[j].item_seconds) measured += s;
  }
  const double per_unit = model > 0 ? measured / model : 0;  // seconds per model unit, over the whole call
  std::printf("  threads %d: %s; the call %.3f ms, its jobs' items %.3f ms; %.3g model units/ns\n", t,
              conv_bwd::describe_plan(plan).c_str(), run.first_ms, measured * 1e3,
              per_unit > 0 ? 1e-9 / per_unit : 0.0);
  std::printf("    %-20s %8s %10s %10s %12s %14s %14s\n", "job", "items", "model %", "measured %", "item error %",
              "model span ms", "timed span ms");
  std::vector<std::vector<double>> costs(work.size());
  double err_sum = 0;
  for (size_t j = 0, l = 0; j < work.size(); ++j) {
    if (work[j].serial) {  // not measured: the model's, in seconds
      costs[j].assign(static_cast<size_t>(work[j].count), work[j].each * per_unit);
      continue;
    }
    const std::vector<double> &secs = jobs[l].item_seconds;
    double job_s = 0;
    for (double s : secs) job_s += s;
    const double err = weighted_error(work[j], secs, per_unit);
    err_sum += err * job_s;
    costs[j] = secs;
    const Simulation by_model = conv_bwd::simulate(Work{work[j]}, t);
    const Simulation by_times = conv_bwd::simulate(Work{work[j]}, {secs}, t);
    std::printf("    %-20s %8lld %10.1f %10.1f %12.1f %14.3f %14.3f\n", work[j].name.c_str(),
                static_cast<long long>(work[j].count), 100 * work[j].total() / model, 100 * job_s / measured, 100 * err,
                by_model.span * per_unit * 1e3, by_times.span * 1e3);
    ++l;
  }
  const double predicted = conv_bwd::simulate(work, t).efficiency(t);
  const double from_times = conv_bwd::simulate(work, costs, t).efficiency(t);
  std::printf(
      "    item error over the call %.1f %%; efficiency at %d threads: predicted %.3f, from the measured items %.3f\n",
      measured > 0 ? 100 * err_sum / measured : 0.0, t, predicted, from_times);
  return true;
}

}  // namespace

bool simulate_case(const conv_bwd::ConvDesc &desc, const HostData &host, const Options &o, aclrtStream stream) {
  const std::vector<int> threads = o.simulate_threads.empty() ? std::vector<int>{1, 2, 16, 64} : o.simulate_threads;
  if (!o.check_cost_model) return simulate_only(desc, host, o, threads);
  bool ok = true;
  for (int t : threads) ok = check_one(desc, host, stream, t) && ok;
  return ok;
}

}  // namespace demo
}  // namespace aclnn_cpu
