#include "numerics/batch.hpp"

#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "numerics/bits.hpp"
#include "numerics/formats.hpp"

// On x86-64 each entry point is also compiled for AVX2 and picked at load time (GCC/clang function
// multiversioning): the same integer and float operations, just wider, so results are identical.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ACLNN_CPU_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define ACLNN_CPU_MULTIVERSION
#endif

namespace aclnn_cpu {
namespace numerics {
namespace {

using namespace detail;

// Applies `fast` (bits in → bits out, every input including NaNs) to v in place, in one pass the compiler can
// vectorise (no calls, no branches in `fast`).
template <typename Fast>
__attribute__((always_inline)) inline void map_bits(float *v, int64_t n, Fast fast) {
  uint32_t *u = reinterpret_cast<uint32_t *>(v);
  for (int64_t i = 0; i < n; ++i) u[i] = fast(u[i]);
}

// dst[i] = fast(src[i]), the arrays apart: one pass, read and written once.
template <typename Fast>
__attribute__((always_inline)) inline void map_bits_copy(const float *__restrict src, int64_t n, float *__restrict dst,
                                                         Fast fast) {
  const uint32_t *__restrict s = reinterpret_cast<const uint32_t *>(src);
  uint32_t *__restrict d = reinterpret_cast<uint32_t *>(dst);
  for (int64_t i = 0; i < n; ++i) d[i] = fast(s[i]);
}

// All ones when u is a NaN pattern, else zero.
__attribute__((always_inline)) inline uint32_t nan_mask(uint32_t u) {
  return 0u - static_cast<uint32_t>((u & kFp32AbsMask) > kFp32Inf);
}

}  // namespace

ACLNN_CPU_MULTIVERSION
void round_to_fp16_n(float *v, int64_t n) {
  map_bits(v, n, [](uint32_t u) {
    const uint32_t sign = u & kFp32SignMask, a = u & kFp32AbsMask;
    // Normal range: drop 13 mantissa bits, ties to even (a carry moves into the exponent).
    const uint32_t normal = (a + 0xFFFu + ((a >> 13) & 1u)) & ~0x1FFFu;
    // Subnormal range: multiples of 2^-24; adding 0.5 puts the ulp at 2^-24, so the FPU rounds (RNE) for us.
    const uint32_t sub = float_bits((bits_float(a) + 0.5f) - 0.5f);
    const uint32_t is_inf = 0u - static_cast<uint32_t>(a >= 0x477FF000u);
    const uint32_t is_normal = ~is_inf & (0u - static_cast<uint32_t>(a >= 0x38800000u));
    const uint32_t value = sign | (kFp32Inf & is_inf) | (normal & is_normal) | (sub & ~is_inf & ~is_normal);
    // NaN: FP16 keeps the sign and the top 9 payload bits and sets the quiet bit (fp32_to_fp16).
    const uint32_t nan = (u & 0x807FE000u) | 0x7FC00000u;
    const uint32_t m = nan_mask(u);
    return (nan & m) | (value & ~m);
  });
}

ACLNN_CPU_MULTIVERSION
void round_to_bf16_n(float *v, int64_t n) {
  map_bits(v, n, [](uint32_t u) {
    const uint32_t value = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    const uint32_t nan = (u & 0xFFFF0000u) | kFp32QuietBit;  // sign and top payload kept, quieted
    const uint32_t m = nan_mask(u);
    return (nan & m) | (value & ~m);
  });
}

namespace {

// HF32 with `drop` mantissa bits dropped (0 < drop ≤ 23), ties away from zero or to even, as bits → bits. NaN and Inf
// stay as they are (round_to_hf32); Inf is a fixed point of both formulas anyway.
struct Hf32Bits {
  int drop;
  uint32_t half, keep;
  explicit Hf32Bits(int mantissa_bits)
      : drop(23 - (mantissa_bits < 0 ? 0 : mantissa_bits)), half(1u << (drop - 1)), keep(~((1u << drop) - 1u)) {}

  __attribute__((always_inline)) uint32_t away(uint32_t u) const {
    const uint32_t value = (u & kFp32SignMask) | (((u & kFp32AbsMask) + half) & keep);
    const uint32_t m = nan_mask(u);
    return (u & m) | (value & ~m);
  }
  __attribute__((always_inline)) uint32_t even(uint32_t u) const {
    const uint32_t a = u & kFp32AbsMask;
    const uint32_t value = (u & kFp32SignMask) | ((a + half - 1u + ((a >> drop) & 1u)) & keep);
    const uint32_t m = nan_mask(u);
    return (u & m) | (value & ~m);
  }
};

}  // namespace

ACLNN_CPU_MULTIVERSION
void round_to_hf32_n(float *v, int64_t n, int mantissa_bits, Hf32Rounding rounding) {
  if (mantissa_bits >= 23) return;
  const Hf32Bits h(mantissa_bits);
  if (rounding == Hf32Rounding::kTiesAway) {
    map_bits(v, n, [=](uint32_t u) { return h.away(u); });
  } else {
    map_bits(v, n, [=](uint32_t u) { return h.even(u); });
  }
}

ACLNN_CPU_MULTIVERSION
void round_to_hf32_copy(const float *src, int64_t n, float *dst, int mantissa_bits, Hf32Rounding rounding) {
  if (mantissa_bits >= 23) {
    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
    return;
  }
  const Hf32Bits h(mantissa_bits);
  if (rounding == Hf32Rounding::kTiesAway) {
    map_bits_copy(src, n, dst, [=](uint32_t u) { return h.away(u); });
  } else {
    map_bits_copy(src, n, dst, [=](uint32_t u) { return h.even(u); });
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
namespace {

// F16C's conversion is IEEE's (exact; a signalling NaN is quieted with its payload kept), the same as
// fp16_to_fp32; the unit test compares every code.
__attribute__((target("avx,f16c"))) void fp16_to_fp32_f16c(const uint16_t *src, int64_t n, float *out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
  }
  if (i == n) return;
  // The rest (rows of 14 are common: 6 of them per row went through the scalar function, a third of an FP16 call
  // on MobileNet's 14 × 14 depthwise planes): the last 8 again when there are 8, else through a padded vector.
  if (n >= 8) {
    _mm256_storeu_ps(out + n - 8, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(src + n - 8))));
    return;
  }
  alignas(16) uint16_t h[8] = {};
  alignas(32) float f[8];
  for (int64_t j = i; j < n; ++j) h[j - i] = src[j];
  _mm256_store_ps(f, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i *>(h))));
  for (int64_t j = i; j < n; ++j) out[j] = f[j - i];
}

// RNE, overflow to Inf, NaN quieted with the top payload bits kept: exactly fp32_to_fp16.
__attribute__((target("avx,f16c"))) void fp32_to_fp16_f16c(const float *v, int64_t n, uint16_t *dst) {
  constexpr int kRne = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(v + i), kRne));
  }
  if (i == n) return;
  // The rest as in fp16_to_fp32_f16c: the last 8 again, or a padded vector.
  if (n >= 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + n - 8), _mm256_cvtps_ph(_mm256_loadu_ps(v + n - 8), kRne));
    return;
  }
  alignas(32) float f[8] = {};
  alignas(16) uint16_t h[8];
  for (int64_t j = i; j < n; ++j) f[j - i] = v[j];
  _mm_store_si128(reinterpret_cast<__m128i *>(h), _mm256_cvtps_ph(_mm256_load_ps(f), kRne));
  for (int64_t j = i; j < n; ++j) dst[j] = h[j - i];
}

// AVX with the OS saving YMM state (__builtin_cpu_supports checks that) and CPUID.1:ECX.F16C[bit 29] (clang 14's
// __builtin_cpu_supports does not know "f16c").
bool have_f16c() {
  static const bool yes = [] {
    __builtin_cpu_init();
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
  }();
  return yes;
}

}  // namespace
#endif

ACLNN_CPU_MULTIVERSION
void fp32_to_fp16_n(const float *v, int64_t n, uint16_t *dst, int64_t stride) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (stride == 1 && have_f16c()) {
    fp32_to_fp16_f16c(v, n, dst);
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t u = float_bits(v[i]);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & kFp32AbsMask;
    const uint32_t normal = (a - ((127u - 15u) << 23) + 0xFFFu + ((a >> 13) & 1u)) >> 13;
    const uint32_t sub = float_bits(bits_float(a) + 0.5f) - 0x3F000000u;  // units of 2^-24 (RNE by the FPU)
    const uint32_t h = a > kFp32Inf ? fp32_to_fp16(v[i]) : a >= 0x477FF000u ? 0x7C00u : a >= 0x38800000u ? normal : sub;
    dst[i * stride] = static_cast<uint16_t>(sign | h);
  }
}

namespace {

// Branch-free (all three cases computed, one selected by masks) so that the loops vectorise.
__attribute__((always_inline)) inline uint32_t fp16_bits_to_fp32_bits(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, em = h & 0x7FFFu, mant = h & 0x3FFu;
  const uint32_t normal = (em << 13) + ((127u - 15u) << 23);
  const uint32_t nan_bits = (0u - static_cast<uint32_t>(mant != 0)) & (kFp32QuietBit | (mant << 13));
  const uint32_t special = kFp32Inf | nan_bits;
  const uint32_t sub = float_bits(static_cast<float>(static_cast<int32_t>(em)) * 0x1p-24f);
  const uint32_t is_special = 0u - static_cast<uint32_t>(em >= 0x7C00u);
  const uint32_t is_normal = ~is_special & (0u - static_cast<uint32_t>(em >= 0x0400u));
  const uint32_t is_sub = ~is_special & ~is_normal;
  return sign | (special & is_special) | (normal & is_normal) | (sub & is_sub);
}

}  // namespace

ACLNN_CPU_MULTIVERSION
void fp32_to_bf16_n(const float *v, int64_t n, uint16_t *dst, int64_t stride) {
  // Branch-free, as fp32_to_bf16: a NaN keeps its sign and top payload and gets the quiet bit.
  const auto narrow = [](uint32_t u) {
    const uint32_t m = nan_mask(u);
    const uint32_t value = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16, nan = (u | kFp32QuietBit) >> 16;
    return static_cast<uint16_t>((nan & m) | (value & ~m));
  };
  const uint32_t *u = reinterpret_cast<const uint32_t *>(v);
  if (stride == 1) {  // the common case, kept separate so that it vectorises
    for (int64_t i = 0; i < n; ++i) dst[i] = narrow(u[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i * stride] = narrow(u[i]);
}

ACLNN_CPU_MULTIVERSION
void fp16_to_fp32_n(const uint16_t *src, int64_t stride, int64_t n, float *out) {
  uint32_t *dst = reinterpret_cast<uint32_t *>(out);
  if (stride == 1) {  // the common case, kept separate so that it vectorises
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_f16c()) {
      fp16_to_fp32_f16c(src, n, out);
      return;
    }
#endif
    for (int64_t i = 0; i < n; ++i) dst[i] = fp16_bits_to_fp32_bits(src[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i] = fp16_bits_to_fp32_bits(src[i * stride]);
}

void fp16_rows_to_fp32(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (have_f16c()) {  // one dispatch for the rows (a depthwise plane is 14 rows of 14)
    for (int64_t r = 0; r < rows; ++r) fp16_to_fp32_f16c(src + r * lds, n, dst + r * ldd);
    return;
  }
#endif
  for (int64_t r = 0; r < rows; ++r) fp16_to_fp32_n(src + r * lds, 1, n, dst + r * ldd);
}

}  // namespace numerics
}  // namespace aclnn_cpu
