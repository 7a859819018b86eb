#include "conv_bwd/work.hpp"

#include <algorithm>
#include <queue>
#include <utility>

#include "conv_bwd/algo/depthwise.hpp"
#include "conv_bwd/algo/grad_bias.hpp"
#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/plan.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// An element of the fp64 reference (strided reads, one scalar multiply-add in double) against a kernel
// multiply-add: a few moves' worth.
double reference_mac_cost(Isa isa) { return 4 * move_cost(isa); }

int64_t rows_of(const View5 &v) { return v.shape[0] * v.shape[1] * v.shape[2] * v.shape[3]; }

// stage_operand's job (staging.cpp): one row per item.
WorkPhase staging_phase(const View5 &v, int slots, Isa isa) {
  const int64_t width = v.shape[4];
  return uniform_phase("stage_operand", LoopKind::kFor, rows_of(v), slots, static_cast<double>(width),
                       stream_cost(isa) * static_cast<double>(width));
}

// The reference's jobs (grad_input.cpp with gather.cpp, grad_weight.cpp): output rows or elements as items.
WorkPhase reference_input_phase(const Canonical &c, int slots, Isa isa) {
  const int64_t *out = c.transposed ? c.y_size : c.x_size;
  const int64_t out_per_group = c.transposed ? c.cy_per_group : c.cx_per_group;
  const int64_t in_per_group = c.transposed ? c.cx_per_group : c.cy_per_group;
  const int64_t rows = c.batch * c.groups * out_per_group * out[0] * out[1];
  const int64_t cost = std::max<int64_t>(1, out[2] * in_per_group * c.kernel_numel());
  return uniform_phase("reference_gradInput", LoopKind::kFor, rows, slots, static_cast<double>(cost),
                       reference_mac_cost(isa) * static_cast<double>(cost));
}

WorkPhase reference_weight_phase(const Canonical &c, int slots, Isa isa) {
  const int64_t count = c.y_channels() * c.cx_per_group * c.kernel_numel();
  const int64_t cost = std::max<int64_t>(1, c.batch * c.y_plane());
  return uniform_phase("reference_gradWeight", LoopKind::kFor, count, slots, static_cast<double>(cost),
                       reference_mac_cost(isa) * static_cast<double>(cost));
}

void append(Work *to, Work from) {
  for (WorkPhase &p : from) to->push_back(std::move(p));
}

// One output's jobs: its table algorithm's, or the reference's.
void output_work(const Plan &plan, const OutputPlan &o, const Canonical &c, const Rounding &rounding, bool input,
                 Work *work) {
  if (const AlgorithmEntry *e = algorithm_entry(o.algorithm)) {
    append(work, e->work(c, plan.kernels, o.config, rounding, plan.slots));
  } else if (o.algorithm == Algorithm::kReference) {
    work->push_back(input ? reference_input_phase(c, plan.slots, plan.isa)
                          : reference_weight_phase(c, plan.slots, plan.isa));
  }
}

}  // namespace

double move_cost(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return 1;
    case Isa::kAvx2:
      return 8;
    case Isa::kNeon:
      return 4;
    default:
      return 16;
  }
}

// Measured (docs/performance-log.md, 2026-12-05): gradBias's sums, the K parts' sums and the shared weight's panels
// took 2-3 times what move_cost gave them.
double stream_cost(Isa isa) { return 3 * move_cost(isa); }

double WorkPhase::total() const {
  if (cost.empty()) return each * static_cast<double>(count);
  double sum = 0;
  for (double v : cost) sum += v;
  return sum;
}

WorkPhase uniform_phase(const char *name, LoopKind kind, int64_t count, int slots, double loop_cost, double each) {
  WorkPhase p;
  p.name = name;
  p.kind = kind;
  p.count = count;
  p.slots = slots;
  p.loop_cost = loop_cost;
  p.each = each;
  return p;
}

WorkPhase serial_phase(const char *name, double cost) {
  WorkPhase p = uniform_phase(name, LoopKind::kFor, 1, 1, 0, cost);
  p.serial = true;
  return p;
}

// The order of compute() in execute.cpp.
Work plan_work(const Problem &p, const Plan &plan) {
  Work work;
  if (p.empty_path || !plan.inconsistent.empty()) return work;
  const Canonical &c = plan.canonical;
  const Rounding rounding(p);
  const View5 *operands[3] = {c.transposed ? &c.x : &c.y, c.transposed ? &c.y : &c.x, &c.w};
  const bool staged[3] = {plan.staging.grad_output, plan.staging.input, plan.staging.weight};
  for (int i = 0; i < 3; ++i) {
    if (staged[i]) work.push_back(staging_phase(*operands[i], plan.slots, plan.isa));
  }
  const bool gemm_input = p.mask[0] && is_gemm(plan.grad_input.algorithm);
  const bool fused = gemm_input && p.mask[1] && is_gemm(plan.grad_weight.algorithm) && plan.depthwise_fused;
  const double move = move_cost(plan.isa), stream = stream_cost(plan.isa);
  if (p.mask[2] && !fused) {
    const View5 &go = c.grad_output;
    const int64_t block = grad_bias_block(go.shape[1], plan.threads),
                  per_block = block * go.shape[0] * go.spatial_numel();
    work.push_back(uniform_phase("sum_grad_bias", LoopKind::kFor, ceil_div(go.shape[1], block), plan.slots,
                                 static_cast<double>(per_block), stream * static_cast<double>(per_block)));
  }
  if (fused) append(&work, depthwise_both_work(c, plan.slots));
  if (p.mask[0] && !fused && c.any_term) output_work(plan, plan.grad_input, c, rounding, true, &work);
  if (p.mask[1] && !fused && c.any_term) output_work(plan, plan.grad_weight, c, rounding, false, &work);
  if (p.mask[2]) work.push_back(serial_phase("store_grad_bias", move * static_cast<double>(c.grad_output.shape[1])));
  return work;
}

Simulation simulate(const Work &work, int threads) {
  std::vector<std::vector<double>> none(work.size());
  return simulate(work, none, threads);
}

Simulation simulate(const Work &work, const std::vector<std::vector<double>> &costs, int threads) {
  Simulation sim;
  threads = std::max(1, threads);
  for (size_t j = 0; j < work.size(); ++j) {
    const WorkPhase &ph = work[j];
    const std::vector<double> *given = j < costs.size() && !costs[j].empty() ? &costs[j] : nullptr;
    auto item = [&](int64_t i) { return given != nullptr ? (*given)[static_cast<size_t>(i)] : ph.item(i); };
    if (ph.serial) {
      for (int64_t i = 0; i < ph.count; ++i) {
        sim.work += item(i);
        sim.span += item(i);
      }
      continue;
    }
    const Ranges r = ph.kind == LoopKind::kFor ? for_ranges(ph.count, static_cast<int64_t>(ph.loop_cost), threads)
                                               : slot_ranges(ph.count, ph.slots, ph.loop_cost, threads);
    // Ranges in order, each to the participant free first (the lowest-numbered among equals), as the pool hands them.
    using Free = std::pair<double, int>;
    std::priority_queue<Free, std::vector<Free>, std::greater<Free>> free;
    for (int t = 0; t < r.participants; ++t) free.push({0.0, t});
    double busiest = 0;
    for (int64_t range = 0; range < r.ranges; ++range) {
      double cost = 0;
      for (int64_t i = r.begin(range); i < r.begin(range + 1); ++i) cost += item(i);
      sim.work += cost;
      Free f = free.top();
      free.pop();
      f.first += cost;
      busiest = std::max(busiest, f.first);
      free.push(f);
    }
    sim.span += busiest;
  }
  return sim;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
