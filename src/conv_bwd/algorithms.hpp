// The table of algorithms: every algorithm is declared once, in ACLNN_CPU_ALGORITHMS, whose order is the order in which
// an output tries them (gradInput's among themselves, gradWeight's among themselves); the reference computes what
// all of an output's algorithms refuse. The list drives the plan (plan.cpp), execution (execute.cpp), the names that
// ACLNN_CPU_ALGO may skip, the verbose dispatch lines and the tests' algorithm sweeps.
//
// X(Enumerator, name, output, Config): the algorithm's file(s) define, besides the algorithm itself,
//   std::string <name>_refusal(const Canonical &c)            why it cannot compute the call, or ""
//   Config <name>_blocking(const Canonical &c, const GemmKernels &k, int threads)   how it cuts the work
//   bool <name>_run(const Canonical &c, const GemmKernels &k, const Config &b, const GemmScratch &s,
//                   const Rounding &rounding)                 computes the output; false: recompute with the reference
//   std::string <name>_kernel(const GemmKernels &k, const Config &b)   the microkernel it runs (verbose lines)
//   Work <name>_work(const Canonical &c, const GemmKernels &k, const Config &b, const Rounding &rounding, int slots)
//                                                             the jobs its run runs, with their items' estimated cost
//                                                             (work.hpp; a test checks them against the run's)
// Adding an algorithm: its files, and one line here.
#pragma once

#include <string>
#include <variant>

#include "conv_bwd/algo/depthwise.hpp"
#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/work.hpp"

#define ACLNN_CPU_ALGORITHMS(X)                                                  \
  X(kDirectData, direct_data, kGradInput, DirectBlocking)                        \
  X(kGemmPointwiseData, gemm_pointwise_data, kGradInput, PointwiseBlocking)      \
  X(kGemmBackwardData, gemm_backward_data, kGradInput, DataBlocking)             \
  X(kGemmFlippedForward, gemm_flipped_forward, kGradInput, ForwardBlocking)      \
  X(kGemmForward, gemm_forward, kGradInput, ForwardBlocking)                     \
  X(kDepthwiseWeight, depthwise_weight, kGradWeight, DirectBlocking)             \
  X(kGemmWeightShifted, gemm_weight_shifted, kGradWeight, ShiftedWeightBlocking) \
  X(kGemmWeight, gemm_weight, kGradWeight, WeightBlocking)

namespace aclnn_cpu {
namespace conv_bwd {

enum class Output { kGradInput, kGradWeight };

#define ACLNN_CPU_ALGORITHM_ENUMERATOR(id, name, output, Config) id,
enum class Algorithm { kNone, ACLNN_CPU_ALGORITHMS(ACLNN_CPU_ALGORITHM_ENUMERATOR) kReference, kZeros };
#undef ACLNN_CPU_ALGORITHM_ENUMERATOR

#define ACLNN_CPU_ALGORITHM_DECLARATIONS(id, name, output, Config)                                 \
  std::string name##_refusal(const Canonical &c);                                                  \
  Config name##_blocking(const Canonical &c, const GemmKernels &k, int threads);                   \
  bool name##_run(const Canonical &c, const GemmKernels &k, const Config &b, const GemmScratch &s, \
                  const Rounding &rounding);                                                       \
  std::string name##_kernel(const GemmKernels &k, const Config &b);                                \
  Work name##_work(const Canonical &c, const GemmKernels &k, const Config &b, const Rounding &rounding, int slots);
ACLNN_CPU_ALGORITHMS(ACLNN_CPU_ALGORITHM_DECLARATIONS)
#undef ACLNN_CPU_ALGORITHM_DECLARATIONS

// Every algorithm's own configuration (monostate: none, the reference, zeros).
using AlgorithmConfig = std::variant<std::monostate, DirectBlocking, PointwiseBlocking, DataBlocking, ForwardBlocking,
                                     ShiftedWeightBlocking, WeightBlocking>;

// One row of the table, its functions taking and giving the configuration as an AlgorithmConfig.
struct AlgorithmEntry {
  Algorithm id;
  const char *name;
  Output output;
  std::string (*refusal)(const Canonical &c);
  AlgorithmConfig (*blocking)(const Canonical &c, const GemmKernels &k, int threads);
  bool (*run)(const Canonical &c, const GemmKernels &k, const AlgorithmConfig &config, const GemmScratch &s,
              const Rounding &rounding);
  std::string (*kernel)(const GemmKernels &k, const AlgorithmConfig &config);
  Work (*work)(const Canonical &c, const GemmKernels &k, const AlgorithmConfig &config, const Rounding &rounding,
               int slots);
};

// The table, in ACLNN_CPU_ALGORITHMS's order.
const AlgorithmEntry *algorithms_begin();
const AlgorithmEntry *algorithms_end();

// The entry of `id`, or nullptr (none, the reference, zeros).
const AlgorithmEntry *algorithm_entry(Algorithm id);

// "gemm_flipped_forward", ..., "reference", "zeros", "none".
const char *algorithm_name(Algorithm algorithm);

// The fused depthwise pass (Plan::depthwise_fused), which ACLNN_CPU_ALGO=-depthwise_both skips.
constexpr const char *kDepthwiseBothName = "depthwise_both";

// The ACLNN_CPU_ALGO value under which e is its output's first choice: the algorithms tried before it skipped ("auto"
// for the first). The tests and the PyTorch cross-check sweep the table with it.
std::string setting_with_first(const AlgorithmEntry &e);

// The common part of a configuration (nullptr for monostate).
const Blocking *common_blocking(const AlgorithmConfig &config);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
