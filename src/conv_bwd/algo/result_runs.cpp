#include "conv_bwd/algo/result_runs.hpp"

#include <algorithm>

namespace aclnn_cpu {
namespace conv_bwd {

void store_run(const View5 &out, int64_t a, int64_t b, int64_t j0, int64_t count, const float *values,
               ResultKind kind, const Rounding &rounding) {
  const int first = b >= 0 ? 2 : 1;
  int64_t idx[5] = {a, b >= 0 ? b : 0, 0, 0, 0};
  int64_t rest = j0;
  for (int d = 4; d >= first; --d) {
    idx[d] = rest % out.shape[d];
    rest /= out.shape[d];
  }
  const bool plain = out.dtype == ACL_FLOAT && (kind == ResultKind::kGradWeight || rounding.grad_input_is_identity());
  int64_t done = 0;
  while (done < count) {
    const int64_t len = std::min(count - done, out.shape[4] - idx[4]);
    const int64_t at = out.index(idx[0], idx[1], idx[2], idx[3], idx[4]);
    const float *src = values + done;
    if (plain) {
      float *dst = static_cast<float *>(out.data) + at;
      for (int64_t i = 0; i < len; ++i) dst[i * out.strides[4]] = src[i];
    } else {
      for (int64_t i = 0; i < len; ++i) {
        const float v = kind == ResultKind::kGradInput ? rounding.grad_input(src[i]) : src[i];
        store_value(out.data, out.dtype, at + i * out.strides[4], v, rounding.fp8_overflow());
      }
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
