// The loop nest shared by gradInput's two forms: each output element is one sum, over the input channels of
// its group and the kernel taps that reach it, of input × weight products:
//
//   out[n, g·A + a, p] = Σ_{b < B} Σ_{κ reaching p} in[n, g·B + b, q(p, κ)] · w[offset(g, a, b) + κ]
//
// backward-data (transposed = false): out = gradInput (x), in = gradOutput (dy), κ reaches p when
//   q = (p + pb − κ·dil) / s is an integer in [0, Out);
// forward (transposed = true): out = gradInput (y), in = gradOutput (x), κ reaches p when
//   q = p·s − pb + κ·dil lies in [0, In).
// The sum runs b, then κ in D, H, W order, all ascending; it depends only on the element, never on threads.
#pragma once

#include <cstdint>

#include "conv_bwd/algo/ref_operand.hpp"
#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

enum class TapRule { kBackwardData, kForward };

struct GatherSpec {
  TapRule rule = TapRule::kForward;
  int64_t batch = 0, groups = 1;
  int64_t out_per_group = 0;  // A
  int64_t in_per_group = 0;   // B
  int64_t out_size[3] = {1, 1, 1};
  int64_t in_size[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};
};

// `in`: [N][groups·B][in_size…]; `w`: the weight [Cy][Cx_g][k…], whose rows run over the out channels of a group
// (the forward rule: w[g·A + a, b]) or over its in channels (backward-data: w[g·B + b, a]); `out`: the user's output
// view, written element by element through its strides after rounding.grad_input(). Allocates nothing.
void gather(const GatherSpec &spec, const RefOperand &in, const RefOperand &w, const Rounding &rounding,
            const View5 &out);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
