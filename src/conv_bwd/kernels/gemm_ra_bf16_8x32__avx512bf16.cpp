// AVX512-BF16 pair RA kernels: gemm_ra_f32_8x32__avx512f's and gemm_ra_f32_8x16__avx512f's tiles with each VDPBF16PS
// taking two K steps, so per pair step the B loads of its 32 or 16 columns, 8 broadcast words (each row's two
// columns, one unaligned 32-bit load from its reversed window) and 16 or 8 dot products; the tile stored as it is or
// transposed as the fp32 ones store theirs; and the reversed window conversion (gemm_ra_bf16_ukernel.hpp). Compiled
// with -mavx512f -mavx512bw -mavx512bf16 (src/CMakeLists.txt); called only when CPUID and the OS report them.
#include <cstring>

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/bf16_floor_avx512.hpp"
#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_avx512.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <int kHalves, bool kTransposedC>
inline bool ra_pairs_8xn(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b, int64_t ldb,
                         float *c, int64_t ldc, int m, int n, bool accumulate) {
  constexpr int kMr = 8;
  const uint16_t *rows[kMr];  // held in registers across the loop, as the fp32 RA kernels hold theirs
  __m512 acc[kMr][kHalves];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) {
    rows[r] = a[r];
    for (int h = 0; h < kHalves; ++h) acc[r][h] = _mm512_setzero_ps();
  }
  for (int64_t step = 0; step < kp; ++step) {
    const int64_t k = at[step];
    __m512bh bh[kHalves];
    for (int h = 0; h < kHalves; ++h) bh[h] = (__m512bh)_mm512_loadu_si512(b + 16 * h);
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      int32_t word;
      std::memcpy(&word, rows[r] - k, sizeof word);
      const __m512bh ar = (__m512bh)_mm512_set1_epi32(word);
      for (int h = 0; h < kHalves; ++h) acc[r][h] = _mm512_dpbf16_ps(acc[r][h], ar, bh[h]);
    }
    b += ldb;
  }
  if constexpr (!kTransposedC) {
    store_tile_8xn<kHalves>(acc, c, ldc, m, n, accumulate);
    return true;
  }
  return store_tile_8xn_transposed<kHalves>(acc, c, ldc, m, n, accumulate);
}

// 16 values: their BF16 halves reversed into dst (dst[15 − j] = src[j]), their magnitudes into seen.
inline void reverse_16(const float *src, uint16_t *dst, Magnitudes *seen) {
  const __m512i v = _mm512_loadu_si512(src);
  seen->add(_mm512_castsi512_si256(v));
  seen->add(_mm512_extracti64x4_epi64(v, 1));
  const __m512i reversed =
      _mm512_permutexvar_epi32(_mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), v);
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst), _mm512_cvtepi32_epi16(_mm512_srli_epi32(reversed, 16)));
}

}  // namespace

int gemm_ra_bf16_window__avx512bf16(const float *src, int64_t n, uint16_t *dst_end) {
  Magnitudes seen;
  int64_t f = 0;
  for (; f + 16 <= n; f += 16) reverse_16(src + f, dst_end - f - 15, &seen);
  if (f < n) {  // the last values through a zero-padded block (zeros leave the floor unchanged)
    float tail[16] = {};
    uint16_t out[16];
    std::memcpy(tail, src + f, static_cast<size_t>(n - f) * sizeof(float));
    reverse_16(tail, out, &seen);
    for (int64_t i = f; i < n; ++i) dst_end[-i] = out[15 - (i - f)];
  }
  return seen.floor();
}

void gemm_ra_bf16_8x32__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                   int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_pairs_8xn<2, false>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_bf16_8x32__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                      int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_pairs_8xn<2, true>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

void gemm_ra_bf16_8x16__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                   int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_pairs_8xn<1, false>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_bf16_8x16__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                      int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_pairs_8xn<1, true>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
