#include "conv_bwd/plan.hpp"

#include <algorithm>
#include <initializer_list>
#include <limits>

#include "conv_bwd/algo/depthwise.hpp"
#include "conv_bwd/algo/shifted_geometry.hpp"
#include "conv_bwd/canonical.hpp"
#include "core/config.hpp"
#include "core/dtype.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr uint64_t kAlign = 64;

uint64_t align_up(uint64_t v) { return round_up(v, kAlign); }

// The bytes a view can touch: [lo, hi).
struct ByteRange {
  uintptr_t lo = 0, hi = 0;
};

ByteRange byte_range(const TensorArg &t) {
  ByteRange r;
  if (!t.present || t.data == nullptr || t.numel <= 0) return r;
  const int64_t es = static_cast<int64_t>(dtype_size(t.dtype));
  int64_t lo = t.offset, hi = t.offset;
  for (size_t d = 0; d < t.shape.size(); ++d) {
    const int64_t reach = (t.shape[d] - 1) * t.strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(t.data);
  r.lo = base + static_cast<uintptr_t>(lo * es);
  r.hi = base + static_cast<uintptr_t>((hi + 1) * es);
  return r;
}

bool overlaps(const ByteRange &x, const ByteRange &y) {
  return x.lo < x.hi && y.lo < y.hi && x.lo < y.hi && y.lo < x.hi;
}

// The GEMM algorithms read and write FP32/FP16/BF16 elements through typed pointers; the reference copies bytes.
bool tensors_misaligned(const Problem &p) {
  for (const TensorArg *t : {&p.grad_output, &p.input, &p.weight, &p.grad_input, &p.grad_weight}) {
    if (t->present && t->data != nullptr && reinterpret_cast<uintptr_t>(t->data) % dtype_size(t->dtype) != 0) {
      return true;
    }
  }
  return false;
}

// The GEMM algorithms read the caller's operands while they write outputs; the reference stages every operand
// before it writes anything, so in-place callers (an output sharing memory with an operand) get it.
bool outputs_alias_operands(const Problem &p) {
  const TensorArg *outputs[3] = {&p.grad_input, &p.grad_weight, &p.grad_bias};
  const ByteRange operands[3] = {byte_range(p.grad_output), byte_range(p.input), byte_range(p.weight)};
  for (int o = 0; o < 3; ++o) {
    if (!p.mask[o]) continue;
    const ByteRange out = byte_range(*outputs[o]);
    for (const ByteRange &in : operands) {
      if (overlaps(out, in)) return true;
    }
  }
  return false;
}

// What every candidate's refusal asks of the call's tensors, computed once per plan.
struct TensorFacts {
  bool aliased;     // an output shares memory with an operand
  bool misaligned;  // a tensor's data is not aligned to its element size
};

// The refusals that need no blocking (checked first: most calls are decided without computing one): the settings,
// the algorithm's own, then what it asks of the call's tensors.
std::string shape_refusal(const AlgorithmEntry &e, const Canonical &c, const PlanContext &ctx,
                          const TensorFacts &facts) {
  if (ctx.reference_only) return "ACLNN_CPU_ALGO=reference";
  if (!ctx.disabled.empty() && ctx.disabled.find(std::string(",") + e.name + ",") != std::string::npos) {
    return "disabled by ACLNN_CPU_ALGO";
  }
  std::string why = e.refusal(c);
  if (!why.empty()) return why;
  if (facts.aliased) return "an output shares memory with an operand (only the reference stages first)";
  if (facts.misaligned) return "a tensor's data is not aligned to its element size";
  return "";
}

// The refusals of a candidate's blocking: scratch beyond the limits.
std::string size_refusal(const Blocking &b) {
  const uint64_t bytes = static_cast<uint64_t>(b.slot_floats) * sizeof(float);
  if (b.slot_floats < 0 || bytes > kMaxSlotBytes) {
    return "needs " + std::to_string(bytes) + " bytes of scratch per thread, above " + std::to_string(kMaxSlotBytes);
  }
  const uint64_t shared = static_cast<uint64_t>(b.shared_floats) * sizeof(float);
  if (b.shared_floats < 0 || shared > kMaxSharedBytes) {
    return "needs " + std::to_string(shared) + " bytes of partial sums, above " + std::to_string(kMaxSharedBytes);
  }
  return "";
}

// A call in which no (position, tap) pair reads x: every algorithm refuses, the output is zeros.
OutputPlan zeros_plan(Output output) {
  OutputPlan out;
  out.algorithm = Algorithm::kZeros;
  for (const AlgorithmEntry *e = algorithms_begin(); e != algorithms_end(); ++e) {
    if (e->output == output) out.refusals.push_back(std::string(e->name) + ": no (position, tap) pair reads x");
  }
  return out;
}

// Why the two direct outputs are not computed in one pass, or "".
std::string fused_refusal(const Canonical &c, const PlanContext &ctx) {
  if (ctx.disabled.find(std::string(",") + kDepthwiseBothName + ",") != std::string::npos) {
    return "disabled by ACLNN_CPU_ALGO";
  }
  std::string why = depthwise_fused_refusal(c);
  if (why.empty() && depthwise_fused_floats(c) > kMaxSlotFloats) {
    why = "needs " + std::to_string(depthwise_fused_floats(c) * 4) + " bytes of scratch per thread, above " +
          std::to_string(kMaxSlotBytes);
  }
  return why;
}

// The first of the output's algorithms in table order that accepts, else the reference.
OutputPlan choose(Output output, const Canonical &c, const GemmKernels &uk, const PlanContext &ctx,
                  const TensorFacts &facts) {
  OutputPlan out;
  for (const AlgorithmEntry *e = algorithms_begin(); e != algorithms_end(); ++e) {
    if (e->output != output) continue;
    std::string why = shape_refusal(*e, c, ctx, facts);
    AlgorithmConfig config;
    if (why.empty()) {
      config = e->blocking(c, uk, ctx.threads);
      why = size_refusal(*common_blocking(config));
    }
    if (why.empty()) {
      out.algorithm = e->id;
      out.config = config;
      return out;
    }
    out.refusals.push_back(std::string(e->name) + ": " + why);
  }
  out.algorithm = Algorithm::kReference;
  return out;
}

}  // namespace

namespace {

double call_macs(const Problem &p, const Canonical &c) {
  const double dy_elements =
      static_cast<double>(c.batch) * static_cast<double>(c.y_channels()) * static_cast<double>(c.y_plane());
  const double per_output = dy_elements * static_cast<double>(c.cx_per_group * c.kernel_numel());
  return (p.mask[0] ? per_output : 0) + (p.mask[1] ? per_output : 0) + (p.mask[2] ? dy_elements : 0);
}

}  // namespace

PlanContext current_plan_context() {
  PlanContext ctx;
  ctx.isa = usable_isa();
  ctx.threads = std::max(1, effective_num_threads());
  const Settings now = settings();
  ctx.reference_only = now.reference_only;
  ctx.disabled = now.disabled_algorithms;
  return ctx;
}

Plan make_plan(const Problem &p, const PlanContext &ctx) {
  Plan plan;
  plan.context = ctx;
  plan.threads = ctx.threads;
  plan.isa = ctx.isa;
  plan.kernels = GemmKernels{&gemm_ukernel(ctx.isa), &gemm_nt_ukernel(ctx.isa), &row_kernels(ctx.isa), nullptr};
  const GemmKernels &kernels = plan.kernels;
  if (p.empty_path) return plan;
  Canonical c;
  std::string why;
  // An inconsistent problem gets no fast path; execute() reports it.
  bool beyond_reach = false;
  const bool canonical = make_canonical(p, &c, &why, &beyond_reach);
  if (beyond_reach) plan.unplannable = why;
  if (canonical) {
    plan.canonical = c;
  } else {
    plan.inconsistent = why;
  }
  if (canonical) plan.kernels.ra = gemm_ra_ukernel(ctx.isa, c.cy_per_group);
  if (p.compute == ComputeType::kBf16) {
    plan.kernels.bf16 = gemm_bf16_ukernel(ctx.isa, *plan.kernels.nn);
    if (plan.kernels.ra != nullptr) plan.kernels.ra_bf16 = gemm_ra_bf16_ukernel(ctx.isa, *plan.kernels.ra);
    plan.kernels.nt_bf16 = gemm_nt_bf16_ukernel(ctx.isa, *plan.kernels.nt);
  }
  const TensorFacts facts{canonical && outputs_alias_operands(p), canonical && tensors_misaligned(p)};
  if (canonical && !c.any_term) {
    if (p.mask[0]) plan.grad_input = zeros_plan(Output::kGradInput);
    if (p.mask[1]) plan.grad_weight = zeros_plan(Output::kGradWeight);
  } else if (p.mask[0]) {
    // GEMM + col2im first: neither wins across the benchmark's stride-1 layers (docs/performance.md); the flipped
    // forward GEMM needs no x-plane accumulators, so it takes the planes too large for them.
    plan.grad_input = canonical ? choose(Output::kGradInput, c, kernels, ctx, facts)
                                : OutputPlan{Algorithm::kReference, {}, {}};
  }
  if (p.mask[1] && plan.grad_weight.algorithm == Algorithm::kNone) {
    plan.grad_weight = canonical ? choose(Output::kGradWeight, c, kernels, ctx, facts)
                                 : OutputPlan{Algorithm::kReference, {}, {}};
  }
  plan.fusable = canonical && p.mask[0] && p.mask[1] && plan.grad_input.algorithm == Algorithm::kDirectData &&
                 plan.grad_weight.algorithm == Algorithm::kDepthwiseWeight;
  if (plan.fusable) plan.fused_refusal = fused_refusal(c, ctx);
  plan.depthwise_fused = plan.fusable && plan.fused_refusal.empty();
  plan.staging = staging_layout(p, plan.grad_input.algorithm == Algorithm::kReference,
                                plan.grad_weight.algorithm == Algorithm::kReference);
  int64_t slot_floats = 0, shared_floats = 0, items = 0;
  for (const OutputPlan *o : {&plan.grad_input, &plan.grad_weight}) {
    const Blocking *b = common_blocking(o->config);
    if (b == nullptr) continue;
    slot_floats = std::max(slot_floats, b->slot_floats);
    shared_floats = std::max(shared_floats, b->shared_floats);
    items = std::max(items, b->items);
  }
  if (plan.depthwise_fused) slot_floats = std::max(slot_floats, depthwise_fused_floats(c));
  plan.bytes = plan.staging.bytes;
  if (p.mask[2]) {
    plan.bias_at = align_up(plan.bytes);
    const int64_t channels = p.grad_output.shape.size() > 1 ? p.grad_output.shape[1] : 0;
    plan.bytes = plan.bias_at + align_up(static_cast<uint64_t>(channels) * sizeof(float));
  }
  if (slot_floats > 0) {
    plan.shared_at = align_up(plan.bytes);
    plan.bytes = plan.shared_at + align_up(static_cast<uint64_t>(shared_floats) * sizeof(float));
    plan.slots = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.threads, items)));
    plan.slot_bytes = align_up(static_cast<uint64_t>(slot_floats) * sizeof(float));
    plan.scratch_at = plan.bytes;
    plan.bytes = plan.scratch_at + plan.slot_bytes * static_cast<uint64_t>(plan.slots);
  }
  plan.macs = canonical && c.any_term ? call_macs(p, c) : 0;
  plan.on_caller = canonical && plan.macs <= kCallerMacs;
  return plan;
}

std::string describe_plan(const Plan &plan) {
  auto one = [&](const char *name, const OutputPlan &o) {
    std::string s = std::string(name) + "=" + algorithm_name(o.algorithm);
    if (const AlgorithmEntry *e = algorithm_entry(o.algorithm)) s += ":" + e->kernel(plan.kernels, o.config);
    return s;
  };
  return one("gradInput", plan.grad_input) + " " + one("gradWeight", plan.grad_weight) +
         (plan.depthwise_fused ? std::string(" fused=") + kDepthwiseBothName : "") +
         " slots=" + std::to_string(plan.slots) + " workspace=" + std::to_string(plan.bytes);
}

namespace {

// The dispatch lines of one output: each algorithm tried before the chosen one with its refusal, then the chosen one
// (entries after it were not tried).
std::string dispatch_lines(const std::string &head, const char *output, const OutputPlan &o, const Plan &plan) {
  std::string text;
  for (const std::string &r : o.refusals) {
    const size_t colon = r.find(": ");
    text += head + output + "," + r.substr(0, colon) + ",refused: " + r.substr(colon + 2) + "\n";
  }
  text += head + output + "," + algorithm_name(o.algorithm) + ",chosen";
  if (const AlgorithmEntry *e = algorithm_entry(o.algorithm)) {
    text += "," + e->kernel(plan.kernels, o.config) + ",isa=" + isa_name(plan.isa);
  }
  return text + "\n";
}

}  // namespace

std::string describe_dispatch(const Problem &p, const Plan &plan) {
  const std::string head = "aclnn_cpu_verbose,dispatch," + describe(p) + ",";
  std::string text;
  if (p.mask[0]) text += dispatch_lines(head, "gradInput", plan.grad_input, plan);
  if (p.mask[1]) text += dispatch_lines(head, "gradWeight", plan.grad_weight, plan);
  if (plan.fusable) {
    text += head + "gradInput+gradWeight," + kDepthwiseBothName +
            (plan.depthwise_fused ? std::string(",chosen,") + plan.kernels.rows->name + ",isa=" + isa_name(plan.isa)
                                  : ",refused: " + plan.fused_refusal) +
            "\n";
  }
  if (p.mask[2]) {
    text += head + "gradBias,grad_bias_sum,chosen,isa=" + isa_name(plan.kernels.rows->isa) + "\n";
  }
  return text;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
