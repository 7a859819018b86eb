// Validation of aclnnConvolutionBackwardGetWorkspaceSize, in the order the real op applies its rules
// (docs/contract.md §2.3 V1–V14, empty path §2.5), plus our own bounds and overflow safety and the optional strict
// mode.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "conv_bwd/problem.hpp"
#include "core/span.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// One tensor argument as the caller passed it, borrowed from the caller's object for the length of the call.
struct TensorView {
  bool given = false;     // false: the caller passed NULL
  Span<int64_t> shape;    // the view's
  Span<int64_t> strides;  // in elements, as many as the caller gave (validation wants one per dim)
  int64_t offset = 0;     // in elements, from `data`
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  void *data = nullptr;
};

// One int or bool array argument, borrowed like a TensorView.
template <typename T>
struct ArrayView {
  bool given = false;  // false: the caller passed NULL
  Span<T> values;
};
using IntArrayView = ArrayView<int64_t>;
using BoolArrayView = ArrayView<uint8_t>;  // 0 or 1

// The call's arguments exactly as received, described without the API's objects.
struct Args {
  TensorView gradOutput;
  TensorView input;
  TensorView weight;
  IntArrayView biasSizes;
  IntArrayView stride;
  IntArrayView padding;
  IntArrayView dilation;
  bool transposed = false;
  IntArrayView outputPadding;
  int groups = 1;
  BoolArrayView outputMask;
  int8_t cubeMathType = 0;
  TensorView gradInput;
  TensorView gradWeight;
  TensorView gradBias;
};

// Checks `args` against the rules of the emulated product (config.hpp) and, on success, fills `*problem`.
// Returns an aclnnStatus (ACLNN_SUCCESS, 161001, 161002, 561103); on failure the thread's recent error holds a
// message naming the API, the parameter, the value and the rule, and `*problem` must not be used.
int validate(const Args &args, Problem *problem);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
