// Packing of GEMM operands into the microkernels' panel layout (kernels/gemm_ukernel.hpp), and the loop that runs
// the microkernel over a packed block. The fetch callbacks read user tensors through OperandReader, so conversion
// and rounding happen here, once per packed element.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

inline int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

// A (m × kc) from rows: fetch_row(r, tmp) writes the kc values of row r into tmp.
template <typename FetchRow>
void pack_a_by_rows(int mr, int64_t m, int64_t kc, float *tmp, float *dst, FetchRow fetch_row) {
  for (int64_t r = 0; r < round_up(m, mr); ++r) {
    float *d = dst + (r / mr) * mr * kc + r % mr;
    if (r < m) {
      fetch_row(r, tmp);
      for (int64_t k = 0; k < kc; ++k) d[k * mr] = tmp[k];
    } else {
      for (int64_t k = 0; k < kc; ++k) d[k * mr] = 0.0f;
    }
  }
}

// A (m × kc) from columns: fetch_k(k, tmp) writes the m values of column k into tmp.
template <typename FetchK>
void pack_a_by_ks(int mr, int64_t m, int64_t kc, float *tmp, float *dst, FetchK fetch_k) {
  const int64_t mp = round_up(m, mr);
  std::fill(tmp + m, tmp + mp, 0.0f);
  for (int64_t k = 0; k < kc; ++k) {
    fetch_k(k, tmp);
    for (int64_t p = 0; p < mp; p += mr) std::copy(tmp + p, tmp + p + mr, dst + p * kc + k * mr);
  }
}

// B (kc × n) from columns: fetch_col(j, tmp) writes the kc values of column j into tmp.
template <typename FetchCol>
void pack_b_by_cols(int nr, int64_t n, int64_t kc, float *tmp, float *dst, FetchCol fetch_col) {
  for (int64_t j = 0; j < round_up(n, nr); ++j) {
    float *d = dst + (j / nr) * nr * kc + j % nr;
    if (j < n) {
      fetch_col(j, tmp);
      for (int64_t k = 0; k < kc; ++k) d[k * nr] = tmp[k];
    } else {
      for (int64_t k = 0; k < kc; ++k) d[k * nr] = 0.0f;
    }
  }
}

// B (kc × n) from rows: fetch_k(k, tmp) writes the n values of row k into tmp.
template <typename FetchK>
void pack_b_by_ks(int nr, int64_t n, int64_t kc, float *tmp, float *dst, FetchK fetch_k) {
  const int64_t np = round_up(n, nr);
  std::fill(tmp + n, tmp + np, 0.0f);
  for (int64_t k = 0; k < kc; ++k) {
    fetch_k(k, tmp);
    for (int64_t p = 0; p < np; p += nr) std::copy(tmp + p, tmp + p + nr, dst + p * kc + k * nr);
  }
}

// C[m × n] (+)= A·B for packed A (m × kc) and B (kc × n); one B panel stays hot while every A panel passes.
inline void run_tiles(const GemmUkernel &uk, int64_t m, int64_t n, int64_t kc, const float *a, const float *b,
                      float *c, int64_t ldc, bool accumulate) {
  for (int64_t j = 0; j < n; j += uk.nr) {
    const float *bp = b + j * kc;
    const int nn = static_cast<int>(std::min<int64_t>(uk.nr, n - j));
    for (int64_t i = 0; i < m; i += uk.mr) {
      const int mm = static_cast<int>(std::min<int64_t>(uk.mr, m - i));
      uk.run(kc, a + i * kc, bp, c + i * ldc + j, ldc, mm, nn, accumulate);
    }
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
