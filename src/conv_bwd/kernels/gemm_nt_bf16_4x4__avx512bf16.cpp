// AVX512-BF16 pair NT kernel: gemm_nt_f32_4x4__avx512f's tile (4 A rows × 4 B rows = 16 zmm accumulators of 16 lanes)
// with each VDPBF16PS taking two K steps per lane, so per 32 k: 4 + 4 loads and 16 dot products, then the fp32
// kernel's fold (gemm_nt_reduce_avx512.hpp); and the row conversions into NT pair rows (gemm_nt_bf16_ukernel.hpp).
// Compiled with -mavx512f -mavx512bw -mavx512bf16 (src/CMakeLists.txt); called only when CPUID and the OS report them.
// Named accumulators, as in the fp32 kernel.
#include <algorithm>

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/bf16_floor_avx512.hpp"
#include "conv_bwd/kernels/gemm_nt_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_reduce_avx512.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

inline __m512bh words(const uint32_t *p) { return (__m512bh)_mm512_loadu_si512(p); }

// 16 values' bits, their magnitudes into seen.
inline __m512i load_seen(const float *p, Magnitudes *seen) {
  const __m512i v = _mm512_loadu_si512(p);
  seen->add(_mm512_castsi512_si256(v));
  seen->add(_mm512_extracti64x4_epi64(v, 1));
  return v;
}

}  // namespace

int gemm_nt_bf16_rows__avx512bf16(const float *src, int64_t ld, int64_t rows, int64_t kc, uint32_t *dst) {
  const int64_t kw = nt_pair_words(kc);
  Magnitudes seen;
  const __m512i high = _mm512_set1_epi32(static_cast<int>(0xFFFF0000u));
  for (int64_t r = 0; r < rows; ++r) {
    const float *s = src + r * ld;
    uint32_t *d = dst + r * kw;
    for (int64_t k = 0; k < kc; k += 32) {
      const __m512i hi = load_seen(s + k, &seen);
      const __m512i lo = k + 16 < kc ? load_seen(s + k + 16, &seen) : _mm512_setzero_si512();
      _mm512_storeu_si512(d + k / 2, _mm512_or_si512(_mm512_and_si512(hi, high), _mm512_srli_epi32(lo, 16)));
    }
  }
  return seen.floor();
}

int gemm_nt_bf16_rows_from_bf16__avx512bf16(const uint16_t *src, int64_t ld, int64_t rows, int64_t n, int64_t kc,
                                            uint32_t *dst) {
  const int64_t kw = nt_pair_words(kc);
  // Word l of a chunk: value l over value 16 + l, i.e. 16-bit lanes (16 + l, l) in little-endian order.
  alignas(64) static const uint16_t kInterleave[32] = {16, 0, 17, 1, 18, 2,  19, 3,  20, 4,  21, 5,  22, 6,  23, 7,
                                                       24, 8, 25, 9, 26, 10, 27, 11, 28, 12, 29, 13, 30, 14, 31, 15};
  const __m512i interleave = _mm512_load_si512(kInterleave);
  WordMagnitudes seen;
  for (int64_t r = 0; r < rows; ++r) {
    const uint16_t *s = src + r * ld;
    uint32_t *d = dst + r * kw;
    for (int64_t k = 0; k < kc; k += 32) {
      const int64_t count = std::clamp<int64_t>(n - k, 0, 32);
      const __mmask32 mask = count == 32 ? ~__mmask32{0} : static_cast<__mmask32>((1u << count) - 1u);
      const __m512i v = _mm512_maskz_loadu_epi16(mask, s + k);
      seen.add(v);
      _mm512_storeu_si512(d + k / 2, _mm512_permutexvar_epi16(interleave, v));
    }
  }
  return seen.floor();
}

void gemm_nt_bf16_4x4__avx512bf16(int64_t kw, const uint32_t *a, int64_t lda, const uint32_t *const *b, float *c,
                                  int64_t ldc, int m, int n, bool accumulate) {
  __m512 c00 = _mm512_setzero_ps(), c01 = c00, c02 = c00, c03 = c00;
  __m512 c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  __m512 c20 = c00, c21 = c00, c22 = c00, c23 = c00;
  __m512 c30 = c00, c31 = c00, c32 = c00, c33 = c00;
  const uint32_t *a1 = a + lda, *a2 = a1 + lda, *a3 = a2 + lda;
  const uint32_t *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
  for (int64_t k = 0; k < kw; k += 16) {
    const __m512bh x0 = words(a + k), x1 = words(a1 + k), x2 = words(a2 + k), x3 = words(a3 + k);
    __m512bh y = words(b0 + k);
    c00 = _mm512_dpbf16_ps(c00, x0, y);
    c10 = _mm512_dpbf16_ps(c10, x1, y);
    c20 = _mm512_dpbf16_ps(c20, x2, y);
    c30 = _mm512_dpbf16_ps(c30, x3, y);
    y = words(b1 + k);
    c01 = _mm512_dpbf16_ps(c01, x0, y);
    c11 = _mm512_dpbf16_ps(c11, x1, y);
    c21 = _mm512_dpbf16_ps(c21, x2, y);
    c31 = _mm512_dpbf16_ps(c31, x3, y);
    y = words(b2 + k);
    c02 = _mm512_dpbf16_ps(c02, x0, y);
    c12 = _mm512_dpbf16_ps(c12, x1, y);
    c22 = _mm512_dpbf16_ps(c22, x2, y);
    c32 = _mm512_dpbf16_ps(c32, x3, y);
    y = words(b3 + k);
    c03 = _mm512_dpbf16_ps(c03, x0, y);
    c13 = _mm512_dpbf16_ps(c13, x1, y);
    c23 = _mm512_dpbf16_ps(c23, x2, y);
    c33 = _mm512_dpbf16_ps(c33, x3, y);
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
