// AVX-512 NT kernel: 4 A rows × 4 B rows = 16 zmm accumulators of 16 lanes; per 16 k: 4 + 4 loads, 16 FMAs.
// Compiled with -mavx512f. Named accumulators (an array would live on the stack, see the NN AVX2 kernel).
#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/gemm_nt_reduce_avx512.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_nt_f32_4x4__avx512f(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                              int m, int n, bool accumulate) {
  __m512 c00 = _mm512_setzero_ps(), c01 = c00, c02 = c00, c03 = c00;
  __m512 c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  __m512 c20 = c00, c21 = c00, c22 = c00, c23 = c00;
  __m512 c30 = c00, c31 = c00, c32 = c00, c33 = c00;
  const float *a1 = a + lda, *a2 = a1 + lda, *a3 = a2 + lda;
  const float *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
  for (int64_t k = 0; k < kc; k += 16) {
    const __m512 x0 = _mm512_loadu_ps(a + k), x1 = _mm512_loadu_ps(a1 + k);
    const __m512 x2 = _mm512_loadu_ps(a2 + k), x3 = _mm512_loadu_ps(a3 + k);
    __m512 y = _mm512_loadu_ps(b0 + k);
    c00 = _mm512_fmadd_ps(x0, y, c00);
    c10 = _mm512_fmadd_ps(x1, y, c10);
    c20 = _mm512_fmadd_ps(x2, y, c20);
    c30 = _mm512_fmadd_ps(x3, y, c30);
    y = _mm512_loadu_ps(b1 + k);
    c01 = _mm512_fmadd_ps(x0, y, c01);
    c11 = _mm512_fmadd_ps(x1, y, c11);
    c21 = _mm512_fmadd_ps(x2, y, c21);
    c31 = _mm512_fmadd_ps(x3, y, c31);
    y = _mm512_loadu_ps(b2 + k);
    c02 = _mm512_fmadd_ps(x0, y, c02);
    c12 = _mm512_fmadd_ps(x1, y, c12);
    c22 = _mm512_fmadd_ps(x2, y, c22);
    c32 = _mm512_fmadd_ps(x3, y, c32);
    y = _mm512_loadu_ps(b3 + k);
    c03 = _mm512_fmadd_ps(x0, y, c03);
    c13 = _mm512_fmadd_ps(x1, y, c13);
    c23 = _mm512_fmadd_ps(x2, y, c23);
    c33 = _mm512_fmadd_ps(x3, y, c33);
  }
  NtTile4x4 t;
  t.c[0][0] = c00, t.c[0][1] = c01, t.c[0][2] = c02, t.c[0][3] = c03;
  t.c[1][0] = c10, t.c[1][1] = c11, t.c[1][2] = c12, t.c[1][3] = c13;
  t.c[2][0] = c20, t.c[2][1] = c21, t.c[2][2] = c22, t.c[2][3] = c23;
  t.c[3][0] = c30, t.c[3][1] = c31, t.c[3][2] = c32, t.c[3][3] = c33;
  nt_reduce_store_4x4(t, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
