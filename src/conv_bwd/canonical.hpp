// The canonical problem every algorithm works on: 3 spatial dims, begin/end pads, and `transposed` folded
// into operand roles (docs/contract.md §2.1, §3.2, §3.3), so that one forward relation describes both kinds of call:
//
//   y[n, g·Cy_g + cy, o] = Σ_{cx < Cx_g} Σ_κ x[n, g·Cx_g + cx, o·s − pb + κ·dil] · w[g·Cy_g + cy, cx, κ]
//
// transposed = false: x := input, y := gradOutput, w = weight [Cout, Cin/g, k…];
//   gradInput  = backward-data (gradient of x) of dy := gradOutput,
//   gradWeight = weight gradient with x := input and dy := gradOutput.
// transposed = true:  x := gradOutput, y := input, w = weight [Cin, Cout/g, k…];
//   gradInput  = the forward relation itself applied to gradOutput (it lands on input's shape),
//   gradWeight = weight gradient with x := gradOutput and dy := input.
// gradBias = Σ over N and space of gradOutput in both cases.
// In both, weight's dim 0 runs over y's channels and dim 1 over x's channels of one group.
#pragma once

#include <cstdint>
#include <string>

#include "conv_bwd/descriptor.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

struct Canonical {
  bool transposed = false;
  ComputeType compute = ComputeType::kFp32;  // the problem's compute format (problem.hpp)
  int64_t batch = 0;
  int64_t groups = 1;
  int64_t cx_per_group = 0;  // x channels per group (= weight.shape[1])
  int64_t cy_per_group = 0;  // y channels per group (= weight.shape[0] / groups)
  int64_t x_size[kSpatial] = {1, 1, 1};
  int64_t y_size[kSpatial] = {1, 1, 1};
  int64_t kernel[kSpatial] = {1, 1, 1};
  int64_t stride[kSpatial] = {1, 1, 1};
  int64_t dilation[kSpatial] = {1, 1, 1};
  int64_t pad_begin[kSpatial] = {0, 0, 0};
  View5 x, y, w;      // the user's operands in their roles, cut to the reach (below)
  View5 grad_output;  // what gradBias sums (all of it)

  // The reach of the sums (reach.hpp): per dim, the y positions from y_begin, the taps from k_begin and x from
  // x_begin that take part in some term. The sizes and attributes above are the reduced relation's, x, y and w the
  // caller's views cut to it. The requested outputs are cut the same way; their elements outside the cut take part in
  // no term and are zeros (execute writes them). No term at all (any_term false): the outputs are zeros, and the
  // sizes, attributes and views above are the caller's.
  bool any_term = true;
  bool cut = false;  // some dim keeps only part of x, y or the taps (else the views are the caller's whole ones)
  int64_t x_begin[kSpatial] = {0, 0, 0}, y_begin[kSpatial] = {0, 0, 0}, k_begin[kSpatial] = {0, 0, 0};
  View5 grad_input, grad_weight;  // cut (gradInput as x, or as y when transposed), when requested

  int64_t x_channels() const { return groups * cx_per_group; }
  int64_t y_channels() const { return groups * cy_per_group; }
  int64_t kernel_numel() const { return kernel[0] * kernel[1] * kernel[2]; }
  int64_t x_plane() const { return x_size[0] * x_size[1] * x_size[2]; }  // positions of one x channel
  int64_t y_plane() const { return y_size[0] * y_size[1] * y_size[2]; }
};

// Builds the canonical form of a compute-path problem, reduced to its reach. Also re-checks every relation the
// algorithms rely on for memory safety (ranks, channel and group relations, output shapes, supported dtypes), so
// that a validation slip becomes an error instead of an out-of-bounds access, and that the reach is within
// kMaxReach: on failure returns false and says why.
// *beyond_reach (when given) tells the one failure that a valid call can meet: a reach past kMaxReach.
bool make_canonical(const Problem &problem, Canonical *canonical, std::string *error, bool *beyond_reach = nullptr);

// The call as a descriptor (shapes taken from the tensors; pads, attributes and settings from the problem).
ConvDesc desc_of(const Problem &problem);

// format_desc(desc_of(problem)): the repro line of a call.
std::string describe(const Problem &problem);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
