// The plan of one call, built once in GetWorkspaceSize (a pure function of the problem and a PlanContext):
// the algorithm of each output, the first of the table of algorithms (algorithms.hpp) that accepts, each before it
// refusing with a reason; the microkernel (ISA); the static partition (slots); and the exact workspace layout.
// Execution follows the plan and allocates nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/staging.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "conv_bwd/problem.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// One of the table's algorithms (not none, not the reference, not zeros).
inline bool is_gemm(Algorithm a) { return algorithm_entry(a) != nullptr; }

// What the plan may use: the ISA (already capped by the CPU), threads, and whether only the reference may run.
struct PlanContext {
  Isa isa = Isa::kScalar;
  int threads = 1;
  bool reference_only = false;
  std::string disabled;  // ",name,name,": algorithms to skip (ACLNN_CPU_ALGO=-name,...)
};

// From the current settings: usable_isa(), effective_num_threads(), ACLNN_CPU_ALGO.
PlanContext current_plan_context();

struct OutputPlan {
  Algorithm algorithm = Algorithm::kNone;
  std::vector<std::string> refusals;  // "candidate: reason", in table order, for the candidates before the choice
  AlgorithmConfig config;             // the chosen algorithm's own (monostate for the others)

  // The chosen algorithm's configuration, of its type (algorithms.hpp).
  template <typename Config>
  const Config &blocking() const {
    return std::get<Config>(config);
  }
};

struct Plan {
  // What the plan was made from and for: execution reads the problem's canonical form here and never re-derives
  // it; a changed tensor address is planned again with the same context (api/conv_backward_operation.cpp).
  PlanContext context;
  Canonical canonical;       // valid unless the problem takes the empty path or `inconsistent` says why not
  std::string inconsistent;  // why make_canonical refused a problem validation let through, or ""
  OutputPlan grad_input, grad_weight;
  // Both by depthwise_both in one pass (depthwise.hpp) instead of direct_data then depthwise_weight, when both
  // outputs are those two (fusable) and it does not refuse (fused_refusal "").
  bool depthwise_fused = false;
  bool fusable = false;
  std::string fused_refusal;
  Isa isa = Isa::kScalar;  // the ISA of the plan's microkernels
  GemmKernels kernels{nullptr, nullptr, nullptr, nullptr};  // the microkernels of the plan's ISA
  int threads = 1;  // the thread count it is made for (PlanContext::threads), which the launch computes with
  int slots = 1;
  StagingLayout staging;    // operands the reference outputs need, from offset 0
  uint64_t bias_at = 0;     // then gradBias's sums (one float per channel) when it is requested
  uint64_t shared_at = 0;   // then the GEMM algorithms' shared area (partial sums)
  uint64_t scratch_at = 0;  // then `slots` areas of slot_bytes
  uint64_t slot_bytes = 0;
  uint64_t bytes = 0;  // the whole workspace
  double macs = 0;     // multiply-adds of the requested outputs (gradBias: one add per gradOutput element)
  // Why the call cannot be planned, or "": a valid call whose reach exceeds kMaxReach (reach.hpp), which
  // GetWorkspaceSize reports with 161002 (canonical.hpp).
  std::string unplannable;
  // Small enough that handing the call to the stream's thread and back costs more than computing it: the launch
  // runs it on the calling thread when the stream is idle: a tiny call is a few µs of work.
  bool on_caller = false;
};

// Calls of at most this many multiply-adds run on one thread in a few µs, about what a hand-off to the stream's
// thread costs; they also stay below the size that parallel_for splits.
constexpr double kCallerMacs = 1 << 16;

// Above this much scratch per slot the GEMM algorithms refuse (the reference needs none besides staging).
constexpr uint64_t kMaxSlotBytes = static_cast<uint64_t>(kMaxSlotFloats) * sizeof(float);
constexpr uint64_t kMaxSharedBytes = uint64_t{1} << 30;

Plan make_plan(const Problem &problem, const PlanContext &context);

// "gradInput=gemm_backward_data:gemm_f32_8x32__avx512f gradWeight=gemm_weight_shifted:gemm_nt_f32_4x4__avx512f
// slots=2 workspace=…" (a forward GEMM in the shifted layout says "+shifted" after its kernel, one packing B from
// stride-phase windows "+phases"; a fused depthwise pass adds "fused=depthwise_both").
std::string describe_plan(const Plan &plan);

// How the plan was chosen, oneDNN-dispatch style: per requested output one line per algorithm of the table it tried,
// in table order, "aclnn_cpu_verbose,dispatch,<problem>,<output>,<algorithm>,refused: <reason>", then the chosen one,
// "...,<output>,<algorithm>,chosen[,<kernel>],isa=<isa>" (the algorithms after it are not tried); the fused depthwise
// pass when both outputs could take it; gradBias's sum. ACLNN_CPU_VERBOSE=2 prints it at GetWorkspaceSize;
// aclnnCpuDescribeExecutor returns it.
std::string describe_dispatch(const Problem &problem, const Plan &plan);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
