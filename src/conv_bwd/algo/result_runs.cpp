#include "conv_bwd/algo/result_runs.hpp"

#include <algorithm>
#include <cstring>

#include "numerics/batch.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr int64_t kChunk = 256;

// Stores n values (already rounded as their kernel writes them) at `at`, `at + stride`, ... of `out`.
void store_values(const View5 &out, int64_t at, int64_t stride, const float *v, int64_t n, Fp8Overflow overflow) {
  switch (out.dtype) {
    case ACL_FLOAT: {
      float *dst = static_cast<float *>(out.data) + at;
      if (stride == 1) {  // the common case, as a plain copy (a runtime stride keeps the loop scalar)
        std::memcpy(dst, v, static_cast<size_t>(n) * sizeof(float));
        return;
      }
      for (int64_t i = 0; i < n; ++i) dst[i * stride] = v[i];
      return;
    }
    case ACL_FLOAT16:
      numerics::fp32_to_fp16_n(v, n, static_cast<uint16_t *>(out.data) + at, stride);
      return;
    case ACL_BF16:
      numerics::fp32_to_bf16_n(v, n, static_cast<uint16_t *>(out.data) + at, stride);
      return;
    default:
      for (int64_t i = 0; i < n; ++i) store_value(out.data, out.dtype, at + i * stride, v[i], overflow);
      return;
  }
}

}  // namespace

void store_run(const View5 &out, int64_t a, int64_t b, int64_t j0, int64_t count, const float *values, ResultKind kind,
               const Rounding &rounding) {
  const int first = b >= 0 ? 2 : 1;
  const bool dense = out.dense_from(first);
  int64_t idx[5] = {a, b >= 0 ? b : 0, 0, 0, 0};
  if (dense) {
    // One strided run: no index walk (the shifted layouts store one output row per call).
    idx[4] = j0;
  } else {
    int64_t rest = j0;
    for (int d = 4; d >= first; --d) {
      idx[d] = rest % out.shape[d];
      rest /= out.shape[d];
    }
  }
  const bool round = kind == ResultKind::kGradInput && !rounding.grad_input_left_to_the_store(out.dtype);
  float tmp[kChunk];
  int64_t done = 0;
  while (done < count) {
    const int64_t len = dense ? count : std::min(count - done, out.shape[4] - idx[4]);
    const int64_t at = out.index(idx[0], idx[1], idx[2], idx[3], idx[4]);
    for (int64_t c = 0; c < len; c += kChunk) {
      const int64_t n = std::min(kChunk, len - c);
      const float *src = values + done + c;
      if (round) {
        std::memcpy(tmp, src, static_cast<size_t>(n) * sizeof(float));
        rounding.grad_inputs(tmp, n);
        src = tmp;
      }
      store_values(out, at + c * out.strides[4], out.strides[4], src, n, rounding.fp8_overflow());
    }
    done += len;
    idx[4] = 0;
    for (int d = 3; d >= first; --d) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
