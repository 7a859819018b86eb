// The pair kernels' K steps and B panels from the fp32 RA kernels' (gemm_ra_bf16_ukernel.hpp), for any ISA: the
// pairing is the same on every one, so each gives the fp32 kernels' sums.
#include <algorithm>

#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

int64_t ra_pair_steps(const int32_t *at, int64_t kc, int32_t *pair_at, int32_t *run_steps, int64_t *runs) {
  int64_t pairs = 0, n = 0;
  for (int64_t k = 0; k < kc;) {
    int64_t end = k + 1;
    while (end < kc && at[end] == at[end - 1] + 1) ++end;
    for (int64_t i = k; i < end; i += 2) pair_at[pairs++] = at[i];
    run_steps[n++] = static_cast<int32_t>(end - k);
    k = end;
  }
  *runs = n;
  return pairs;
}

int ra_b_pairs(const GemmRaBf16Ukernel &k, const float *b, int64_t kc_stride, int64_t panels, const int32_t *run_steps,
               int64_t runs, uint32_t *dst) {
  int64_t kp = 0;
  for (int64_t r = 0; r < runs; ++r) kp += pair_steps(run_steps[r]);
  int floor = kBf16FloorAllZero;
  for (int64_t p = 0; p < panels; ++p) {
    const float *src = b + p * kc_stride * k.nr;
    uint32_t *out = dst + p * kp * k.nr;
    for (int64_t r = 0; r < runs; ++r) {
      floor = std::min(floor, k.to_pairs(src, 1, k.nr, run_steps[r], out));
      src += run_steps[r] * k.nr;
      out += pair_steps(run_steps[r]) * k.nr;
    }
  }
  return floor;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
