// Reads runs of a user operand (any supported dtype, any strides) as fp32 already rounded to the compute type:
// the conversion and rounding fused into packing, so the fast algorithms never stage whole
// tensors. It also remembers whether it met a value that is not finite after rounding (see gemm_algorithms.hpp).
#pragma once

#include <cstdint>

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// out[i] = element at index + i·stride of `view`, as fp32, unrounded (exact for every supported dtype).
void decode_run(const View5 &view, int64_t index, int64_t stride, int64_t count, float *out);

// Whether v[0 .. count) holds no Inf or NaN.
bool all_finite(const float *v, int64_t count);

class OperandReader {
 public:
  // check_finite: read() scans what it returns for Inf/NaN (only the operands that meet the implicit padding's
  // zeros need it; see gemm_algorithms.hpp); otherwise read() always returns true.
  OperandReader(const View5 &view, const Rounding &rounding, bool check_finite = false)
      : view_(view),
        rounding_(rounding),
        exact_(rounding.keeps_every_value_of(view.dtype)),
        check_finite_(check_finite),
        plain_(fp32_exact() && !check_finite) {}

  const View5 &view() const { return view_; }
  const Rounding &rounding() const { return rounding_; }

  // True when the operand is FP32 that needs no rounding: its values can be used where they lie (the finite scan,
  // if asked for, is then the caller's business).
  bool fp32_exact() const { return view_.dtype == ACL_FLOAT && exact_; }

  // True when read() is a plain copy (FP32 data that needs no rounding, no finite scan): callers with many short
  // runs then copy from plain_data() themselves.
  bool plain() const { return plain_; }
  const float *plain_data() const { return static_cast<const float *>(view_.data); }

  // True when the operand is BF16 that needs no rounding (the compute type keeps every BF16 value): BF16 pair
  // kernels' panels can then be made from its bits where they lie.
  bool bf16_exact() const { return view_.dtype == ACL_BF16 && exact_; }
  const uint16_t *bf16_data() const { return static_cast<const uint16_t *>(view_.data); }

  // out[i] = operand(element at index + i·stride), i < count (indices in elements from view().data).
  // Returns false when check_finite and a value is not finite.
  bool read(int64_t index, int64_t stride, int64_t count, float *out) const;

  // read() in two steps, for callers that gather many short runs into one buffer: decode() each run (fp32,
  // unrounded), then finish() the whole buffer once (rounding and the finite scan; zeros stay zeros).
  void decode(int64_t index, int64_t stride, int64_t count, float *out) const {
    decode_run(view_, index, stride, count, out);
  }
  bool finish(float *v, int64_t count) const;

 private:
  View5 view_;
  const Rounding &rounding_;
  bool exact_;  // the dtype's values need no rounding to the compute type
  bool check_finite_;
  bool plain_;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu
