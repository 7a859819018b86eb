// AVX512-BF16 pair kernel: gemm_f32_8x32__avx512f's tile (8 rows × 2 zmm columns = 16 accumulators) with each
// VDPBF16PS taking two K steps, so per pair step 2 B loads, 8 broadcast words and 16 dot products; and the panel
// conversion into pairs (gemm_bf16_ukernel.hpp). Compiled with -mavx512f -mavx512bf16 (src/CMakeLists.txt); called
// only when CPUID and the OS report both.
#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/bf16_floor_avx512.hpp"
#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_avx512.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The high half of `hi` over the high half of `lo`: BF16 values held as fp32 lose nothing.
inline __m256i pair_words(__m256i hi, __m256i lo) {
  return _mm256_or_si256(_mm256_and_si256(hi, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u))),
                         _mm256_srli_epi32(lo, 16));
}

}  // namespace

int gemm_bf16_pairs__avx512bf16(const float *src, int64_t panels, int width, int64_t kc, uint32_t *dst) {
  const int64_t kp = (kc + 1) / 2, full = kc / 2;
  Magnitudes seen;
  for (int64_t p = 0; p < panels; ++p) {
    const float *s = src + p * kc * width;
    uint32_t *d = dst + p * kp * width;
    for (int64_t i = 0; i < full; ++i) {
      for (int j = 0; j < width; j += 8) {
        const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + 2 * i * width + j));
        const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + (2 * i + 1) * width + j));
        seen.add(hi);
        seen.add(lo);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + i * width + j), pair_words(hi, lo));
      }
    }
    if (kp == full) continue;
    for (int j = 0; j < width; j += 8) {  // the last step alone, over a zero
      const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + (kc - 1) * width + j));
      seen.add(hi);
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + full * width + j), pair_words(hi, _mm256_setzero_si256()));
    }
  }
  return seen.floor();
}

void gemm_bf16_8x32__avx512bf16(int64_t kp, const uint32_t *a, const uint32_t *b, float *c, int64_t ldc, int m, int n,
                                bool accumulate) {
  constexpr int kMr = 8;
  __m512 acc[kMr][2];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int64_t k = 0; k < kp; ++k) {
    const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b), b1 = (__m512bh)_mm512_loadu_si512(b + 16);
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      const __m512bh ar = (__m512bh)_mm512_set1_epi32(static_cast<int>(a[r]));
      acc[r][0] = _mm512_dpbf16_ps(acc[r][0], ar, b0);
      acc[r][1] = _mm512_dpbf16_ps(acc[r][1], ar, b1);
    }
    a += kMr;
    b += 32;
  }
  store_tile_8x32(acc, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
