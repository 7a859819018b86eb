// Direct algorithms by row kernels on rounded planes, one file each: depthwise_weight (Cx_g = 1;
// depthwise_weight.cpp), direct_data (Cx_g = 1, any stride; or at stride 1 up to kMaxDirectChannels channels per
// group on both sides, with two groups or more above kMaxDirectChannelsOneGroup; direct_data.cpp) and depthwise_both
// (depthwise_both.cpp). What they share: depthwise_planes.hpp.
// direct_data serves a convolution's gradInput (not a transposed call's, whose gradInput is the forward relation).
#pragma once

#include <cstdint>
#include <string>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/kernels/rows.hpp"
#include "conv_bwd/work.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// (y channel, tap) terms the direct algorithms take: their term tables live on the stack of the thread that runs the
// call (about 40 KB at this limit), which is the caller's own thread for a small call (plan.hpp: on_caller).
constexpr int64_t kMaxDwTaps = 1024;
constexpr int64_t kMaxDwMultiplier = 8;  // y channels per group above which the GEMMs (M = multiplier) win
// direct_data at stride 1: channels per group (x and y). Its x channels share every load of the dy boxes
// (taps_channels), so it beats the GEMMs up to 32 (ResNeXt's 16 per group: gradInput 0.44 → 0.27 ms; 64 lost).
// Above 8 it needs 2 groups or more: a group is its one item, and a single one would leave threads idle (the choice
// may not depend on the thread count, or the bits would).
constexpr int64_t kMaxDirectChannels = 32;
constexpr int64_t kMaxDirectChannelsOneGroup = 8;

// Blocking (gemm_algorithms.hpp): one item per group; per-slot scratch holds the rounded planes of one group (boxes
// or q-space in the shifted layout, phased rows otherwise) and its weight rows or gradWeight lanes.
struct DirectBlocking : Blocking {};
DirectBlocking depthwise_weight_blocking(const Canonical &c, const GemmKernels &k, int threads);
DirectBlocking direct_data_blocking(const Canonical &c, const GemmKernels &k, int threads);

// False when the shifted layout met a non-finite result (its padding products may have made it): the caller then
// recomputes the output with the reference. direct_data at strides above 1 multiplies no padding: always true.
bool depthwise_weight(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                      const View5 &grad_weight);
bool direct_data(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                 const View5 &grad_input);

// Both gradients in one pass over the planes (each dy channel read once), when depthwise_fused_refusal(c) is "":
// depthwise at stride 1 with planes that keep their size. The same bits as depthwise_weight then direct_data; with
// bias_sums (not null) also sum_grad_bias's sums, each dy plane summed while it is in cache.
struct DepthwiseFinite {
  bool grad_input, grad_weight;  // false: that output met a non-finite result (recompute it with the reference)
};
std::string depthwise_fused_refusal(const Canonical &c);
int64_t depthwise_fused_floats(const Canonical &c);  // per slot
DepthwiseFinite depthwise_both(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                               const View5 &grad_input, const View5 &grad_weight, float *bias_sums);
Work depthwise_both_work(const Canonical &c, int slots);  // its one job (work.hpp)

}  // namespace conv_bwd
}  // namespace aclnn_cpu
