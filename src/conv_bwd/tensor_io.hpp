// Element access to user tensors of every dtype the operator computes with, through their strided views.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "conv_bwd/problem.hpp"
#include "core/config.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// FLOAT, FLOAT16, BF16, HIFLOAT8, FLOAT8_E4M3FN: the only dtypes docs/contract.md §2.3 V2 lets through on any product.
bool is_supported_dtype(aclDataType dtype);

// Element `index` (counted in elements from `data`) as fp32; exact for every supported dtype.
float load_value(const void *data, aclDataType dtype, int64_t index);

// Writes `value` converted to `dtype`: RNE for FLOAT16/BF16, ties away for HIFLOAT8, RNE with `overflow`
// for FLOAT8_E4M3FN (docs/contract.md §4).
void store_value(void *data, aclDataType dtype, int64_t index, float value, Fp8Overflow overflow);

// `value` as it reads back after store_value into `dtype`.
float round_to_dtype(float value, aclDataType dtype, Fp8Overflow overflow);

// A tensor seen as [N, C, D, H, W] (weights: [Cout, Cin, kD, kH, kW]). Ranks 3 and 4 are lifted the way
// Problem lifts attributes: a 1-D length becomes W, 2-D sizes become H and W; the added dims have size 1.
struct View5 {
  void *data = nullptr;
  aclDataType dtype = ACL_FLOAT;
  int64_t shape[5] = {0, 0, 1, 1, 1};
  int64_t strides[5] = {0, 0, 0, 0, 0};
  int64_t offset = 0;

  int64_t index(int64_t a, int64_t b, int64_t d, int64_t h, int64_t w) const {
    return offset + a * strides[0] + b * strides[1] + d * strides[2] + h * strides[3] + w * strides[4];
  }
  int64_t spatial_numel() const { return shape[2] * shape[3] * shape[4]; }
  int64_t numel() const { return shape[0] * shape[1] * spatial_numel(); }

  // Whether dims first..4 are row-major with element spacing strides[4] (size-1 dims excepted): a run over their
  // flattening is then one strided run.
  bool dense_from(int first) const {
    int64_t expect = strides[4];
    for (int d = 4; d >= first; --d) {
      if (shape[d] != 1 && strides[d] != expect) return false;
      expect *= shape[d];
    }
    return true;
  }
  // Whether every (n, c) plane is one contiguous run of elements (what in-place readers and whole-plane stores need).
  bool contiguous_planes() const { return strides[4] == 1 && dense_from(2); }
  // Whether every dims-1..4 row (a weight's (input channel, taps) row of one output channel) is one contiguous run.
  bool contiguous_rows() const { return strides[4] == 1 && dense_from(1); }

  // The sub-view of the spatial box [begin, begin + size) (D, H, W).
  View5 cut(const int64_t begin[3], const int64_t size[3]) const {
    View5 v = *this;
    for (int d = 0; d < 3; ++d) {
      v.offset += begin[d] * strides[2 + d];
      v.shape[2 + d] = size[d];
    }
    return v;
  }
};

// Requires 3 <= tensor.shape.size() <= 5.
View5 lift(const TensorArg &tensor);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
