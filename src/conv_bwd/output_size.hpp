// gradOutput's size along one spatial dim, from the size it is computed from, the kernel and the attributes
// (docs/contract.md §3.2 / §3.3): for validation, which rejects a call whose formula leaves int64, and for problem
// descriptors, whose values may be anything int64 holds.
#pragma once

#include <cstdint>

#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The attributes of one spatial dim of a call.
struct DimAttr {
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t pad_begin = 0;
  int64_t pad_end = 0;
  int64_t output_padding = 0;  // read by the transposed formula only
};

// One spatial dim of a call; `in` is the size the formula starts from.
struct DimSizes {
  int64_t in = 1;
  int64_t kernel = 1;
  DimAttr attr;
};

struct OutputSize {
  Int128 exact = 0;  // the formula's value, in 128 bits, which no int64 arguments overflow
  // A step of the formula in int64 (the summed pads, the padded input, the dilated kernel, ... or the result) does
  // not fit.
  bool overflow = false;
  // Forward only, without overflow: the dilated kernel is larger than the padded input (exact < 1).
  bool kernel_too_big = false;
};

// floor((in + pad_begin + pad_end − dilation·(kernel−1) − 1) / stride) + 1, the convolution's; stride ≥ 1.
OutputSize forward_output_size(const DimSizes &d);
// (in − 1)·stride − pad_begin − pad_end + dilation·(kernel−1) + output_padding + 1, the transposed convolution's.
OutputSize transposed_output_size(const DimSizes &d);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
