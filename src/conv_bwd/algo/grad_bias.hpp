// gradBias (docs/contract.md §3.2 / §3.3): db[c] = Σ_n Σ_o gradOutput[n, c, o], read from the user's gradOutput with
// its original values (never rounded to the compute type), summed in 32 double lanes in a fixed order, rounded to
// gradOutput's dtype (docs/contract.md §3.5 step 5), then stored in gradBias's dtype.
#pragma once

#include <cstdint>

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/tensor_io.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Two steps: the sums (already rounded to gradOutput's dtype) go to `sums` (one float per channel, in the
// workspace) before any output is written, and are stored in `grad_bias` (the user's rank-1 output) at the end,
// so that no output, whatever memory it shares with an operand, changes what another output reads.
// `isa`: the plan's (the width of the vector adds; the bits are the same on every ISA).
// `threads`: the plan's thread count, which sizes the channel blocks (grad_bias_block) and nothing else.
void sum_grad_bias(const View5 &grad_output, Isa isa, int threads, const Rounding &rounding, float *sums);
// sum_grad_bias's items: blocks of this many channels (the last may hold fewer), each summed sample by sample.
int64_t grad_bias_block(int64_t channels, int threads);

// One channel's sum, sample by sample, in sum_grad_bias's order (the same bits): for a pass that reads gradOutput
// plane by plane anyway (the fused depthwise pass) and sums each plane while it is in cache.
// The k-th element of a channel goes into lane k mod kLanes whatever the runs it comes in, so short planes are gathered
// (up to kPending elements) and added as one run: same bits, without a few lanes' segment per plane.
class BiasSum {
 public:
  static constexpr int kLanes = 32;
  static constexpr int kPending = 256;
  BiasSum() : BiasSum(Isa::kScalar) {}
  explicit BiasSum(Isa isa);
  void add_plane(const View5 &grad_output, int64_t n, int64_t channel);
  float result(const Rounding &rounding);  // rounded to gradOutput's dtype

 private:
  void add_run(const float *v, int64_t n);
  void flush();
  double lanes_[kLanes] = {};
  int next_ = 0;
  int pending_ = 0;  // elements waiting in pending_values_
  void (*add_blocks_)(const float *v, int64_t n, double lanes[kLanes]);
  float pending_values_[kPending] = {};  // zeroed: BiasSums are copied (std::fill, assignment) before use
};
void store_grad_bias(const float *sums, int64_t channels, const Rounding &rounding, const TensorArg &grad_bias);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
