// Execution of a validated problem: the empty path's zero fills, or staging plus one algorithm per requested
// output. Outputs whose mask bit is false are never touched.
#include "conv_bwd/execute.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/algo/depthwise.hpp"
#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/grad_bias.hpp"
#include "conv_bwd/algo/grad_input.hpp"
#include "conv_bwd/algo/grad_weight.hpp"
#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/algo/staging.hpp"
#include "conv_bwd/algo/zero_fill.hpp"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/tensor_io.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "core/float_mode.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr const char *kApi = "aclnnConvolutionBackward";

int internal_failure(const Problem &problem, const std::string &why) {
  return inner_error(ACLNN_ERR_INNER_NULLPTR, kApi, why + " (problem " + describe(problem) + ")");
}

bool has_elements(const TensorArg &t) {
  for (int64_t s : t.shape) {
    if (s <= 0) return false;
  }
  return true;
}

// docs/contract.md §2.5: zeros for gradWeight and gradBias when requested and non-empty; gradInput is not written.
int run_empty_path(const Problem &p) {
  const TensorArg *outputs[2] = {&p.grad_weight, &p.grad_bias};
  for (int i = 0; i < 2; ++i) {
    if (!p.mask[i + 1]) continue;
    const TensorArg &t = *outputs[i];
    if (!t.present) return internal_failure(p, "a requested empty-path output is missing");
    if (has_elements(t) && (t.data == nullptr || !is_supported_dtype(t.dtype))) {
      return internal_failure(p, "an empty-path output has no data or an unsupported dtype");
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (p.mask[i + 1] && has_elements(*outputs[i])) zero_fill(*outputs[i]);
  }
  return ACLNN_SUCCESS;
}

// The operands the reference reads: the staged fp32 copies in the workspace when the plan chose the reference, else
// (a planned fast algorithm gave way at run time: Inf/NaN met its implicit zeros) nullptr, the reference then reading
// the views themselves (RefOperand): execution allocates nothing.
struct Staged {
  const float *grad_output = nullptr, *input = nullptr, *weight = nullptr;
};

// The operands the reference reads, cut to the reach: gradOutput, input and weight in their canonical roles.
struct OperandViews {
  const View5 *views[3];
  explicit OperandViews(const Canonical &c) : views{c.transposed ? &c.x : &c.y, c.transposed ? &c.y : &c.x, &c.w} {}
};

void reference_input(const Canonical &c, const Rounding &rounding, const Staged &s) {
  grad_input(c, s.grad_output, s.weight, rounding, c.grad_input);
}

void reference_weight(const Canonical &c, const Rounding &rounding, const Staged &s) {
  // Canonical roles: x is input unless transposed (then gradOutput); dy is the other one.
  const float *x = c.transposed ? s.grad_output : s.input;
  const float *dy = c.transposed ? s.input : s.grad_output;
  grad_weight(c, x, dy, rounding, c.grad_weight);
}

bool cuts_nothing(const View5 &full, const int64_t begin[kSpatial], const int64_t size[kSpatial]) {
  for (int d = 0; d < kSpatial; ++d) {
    if (begin[d] != 0 || size[d] != full.shape[2 + d]) return false;
  }
  return true;
}

// The requested outputs' elements outside the reach: no term reaches them, so they are zeros. Written last, when no
// operand an output may share memory with is read any more.
void zero_outside_reach(const Problem &p, const Canonical &c) {
  if (c.any_term && !c.cut) return;
  const int64_t none[kSpatial] = {0, 0, 0};
  if (p.mask[0]) {
    const int64_t *begin = c.transposed ? c.y_begin : c.x_begin;
    const int64_t *size = !c.any_term ? none : c.transposed ? c.y_size : c.x_size;
    const View5 full = lift(p.grad_input);
    if (!cuts_nothing(full, begin, size)) zero_fill_outside(full, begin, size);
  }
  if (p.mask[1]) {
    const int64_t *size = c.any_term ? c.kernel : none;
    const View5 full = lift(p.grad_weight);
    if (!cuts_nothing(full, c.k_begin, size)) zero_fill_outside(full, c.k_begin, size);
  }
}

// Runs one planned GEMM output; false when it must be recomputed by the reference.
GemmScratch gemm_scratch(const Plan &plan, unsigned char *base) {
  GemmScratch scratch;
  scratch.shared = reinterpret_cast<float *>(base + plan.shared_at);
  scratch.base = reinterpret_cast<float *>(base + plan.scratch_at);
  scratch.slot_stride = static_cast<int64_t>(plan.slot_bytes / sizeof(float));
  scratch.slots = plan.slots;
  return scratch;
}

// Runs one output by its planned algorithm (the table's); false when it must be recomputed by the reference.
bool run_gemm(const Plan &plan, const OutputPlan &o, const Canonical &c, const Rounding &rounding,
              unsigned char *base) {
  const AlgorithmEntry *e = algorithm_entry(o.algorithm);
  return e != nullptr && e->run(c, plan.kernels, o.config, gemm_scratch(plan, base), rounding);
}

// The format the cube reads the operands in (docs/contract.md §3.5), e.g. "hf32-11" for FP32 with cubeMathType 1 on
// A2/A3.
std::string compute_text(const Problem &p) {
  switch (p.compute) {
    case ComputeType::kFp32:
      return "fp32";
    case ComputeType::kHf32:
      return "hf32-" + std::to_string(p.hf32_mantissa_bits);
    case ComputeType::kFp16:
      return "fp16";
    case ComputeType::kBf16:
      return "bf16";
    case ComputeType::kHif8:
      return "fp32-from-8bit";
  }
  return "?";
}

void print_verbose(const Problem &p, const Plan &plan, const char *outcome, double ms) {
  std::fprintf(stderr, "aclnn_cpu_verbose,exec,%s,compute=%s,threads=%d,%s,%s,time_ms=%.3f\n", describe(p).c_str(),
               compute_text(p).c_str(), plan.threads, describe_plan(plan).c_str(), outcome, ms);
}

int compute(const Problem &p, const Plan &plan, const Canonical &c, unsigned char *base, const char **outcome) {
  const Rounding rounding(p);
  // Operands of the outputs the plan gave to the reference, staged in the workspace.
  Staged s;
  const StagingLayout &layout = plan.staging;
  const bool in_plan[3] = {layout.grad_output, layout.input, layout.weight};
  const uint64_t at[3] = {layout.grad_output_at, layout.input_at, layout.weight_at};
  const OperandViews operands(c);
  const float **dst[3] = {&s.grad_output, &s.input, &s.weight};
  for (int i = 0; i < 3; ++i) {
    if (!in_plan[i]) continue;
    float *staged = reinterpret_cast<float *>(base + at[i]);
    stage_operand(*operands.views[i], rounding, staged);
    *dst[i] = staged;
  }

  // (Aliasing and alignment are the plan's: a changed address is planned again before any launch.)
  bool gemm_input = p.mask[0] && is_gemm(plan.grad_input.algorithm);
  bool gemm_weight_out = p.mask[1] && is_gemm(plan.grad_weight.algorithm);
  // gradBias reads the caller's gradOutput directly: sum it before any output is written, store it last, in
  // case an output shares memory with an operand (in-place callers). The fused depthwise pass (never planned for
  // them) sums each channel as it reads it.
  const bool fused = gemm_input && gemm_weight_out && plan.depthwise_fused;
  float *bias_sums = reinterpret_cast<float *>(base + plan.bias_at);
  if (p.mask[2] && !fused) sum_grad_bias(c.grad_output, plan.kernels.rows->isa, plan.threads, rounding, bias_sums);
  bool input_done = false, weight_done = false;  // by the fused pass
  if (fused) {
    const DepthwiseFinite fin = depthwise_both(c, *plan.kernels.rows, gemm_scratch(plan, base), rounding, c.grad_input,
                                               c.grad_weight, p.mask[2] ? bias_sums : nullptr);
    input_done = fin.grad_input;
    weight_done = fin.grad_weight;
    gemm_input = gemm_weight_out = false;  // what it could not finish goes to the reference
    if (!input_done || !weight_done) *outcome = "fallback=non-finite";
  }
  if (p.mask[0] && !input_done && c.any_term) {
    if (!gemm_input || !run_gemm(plan, plan.grad_input, c, rounding, base)) {
      if (gemm_input) *outcome = "fallback=non-finite";
      reference_input(c, rounding, s);
    }
  }
  if (p.mask[1] && !weight_done && c.any_term) {
    if (!gemm_weight_out || !run_gemm(plan, plan.grad_weight, c, rounding, base)) {
      if (gemm_weight_out) *outcome = "fallback=non-finite";
      reference_weight(c, rounding, s);
    }
  }
  zero_outside_reach(p, c);
  if (p.mask[2]) store_grad_bias(bias_sums, c.grad_output.shape[1], rounding, p.grad_bias);
  return ACLNN_SUCCESS;
}

}  // namespace

void print_plan_verbose(const Problem &p, const Plan &plan) { std::fputs(describe_dispatch(p, plan).c_str(), stderr); }

uint64_t workspace_size(const Problem &problem) { return make_plan(problem, current_plan_context()).bytes; }

int execute(const Problem &problem, void *workspace, uint64_t workspace_bytes) {
  return execute(problem, make_plan(problem, current_plan_context()), workspace, workspace_bytes);
}

int execute(const Problem &p, const Plan &plan, void *workspace, uint64_t workspace_bytes) {
  const StandardFloatMode float_mode;  // whatever mode the calling thread is in (core/float_mode.hpp)
  if (p.empty_path) return run_empty_path(p);
  if (!plan.inconsistent.empty()) return internal_failure(p, "inconsistent problem: " + plan.inconsistent);
  const Canonical &c = plan.canonical;
  if (plan.bytes > 0 && (workspace == nullptr || workspace_bytes < plan.bytes)) {
    return internal_failure(p, "workspace of " + std::to_string(workspace_bytes) + " bytes at " +
                                   (workspace ? "a buffer" : "NULL") + " is smaller than the " +
                                   std::to_string(plan.bytes) + " bytes asked for");
  }
  if (reinterpret_cast<uintptr_t>(workspace) % alignof(float) != 0) {
    return internal_failure(p, "the workspace is not aligned to " + std::to_string(alignof(float)) + " bytes");
  }
  const bool verbose = verbose_level() > 0;
  const auto start = std::chrono::steady_clock::now();
  const char *outcome = "ok";
  const int status = compute(p, plan, c, static_cast<unsigned char *>(workspace), &outcome);
  if (verbose) {
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    print_verbose(p, plan, outcome, ms.count());
  }
  return status;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
