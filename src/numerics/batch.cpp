#include "numerics/batch.hpp"

#include <cstring>

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

// Finishes a batch: the fast loops leave NaN inputs' results unspecified; the scalar function redoes them.
template <typename Scalar>
__attribute__((always_inline)) inline void redo_nans(const uint32_t *in_bits, float *v, int64_t n, Scalar scalar) {
  uint32_t any = 0;
  for (int64_t i = 0; i < n; ++i) any |= static_cast<uint32_t>((in_bits[i] & kFp32AbsMask) > kFp32Inf);
  if (any == 0) return;
  for (int64_t i = 0; i < n; ++i) {
    if ((in_bits[i] & kFp32AbsMask) > kFp32Inf) v[i] = scalar(bits_float(in_bits[i]));
  }
}

constexpr int64_t kChunk = 256;

// Applies `fast` (bits in → bits out, any non-NaN input) to v in chunks, then fixes NaNs with `scalar`.
template <typename Fast, typename Scalar>
__attribute__((always_inline)) inline void map_bits(float *v, int64_t n, Fast fast, Scalar scalar) {
  uint32_t in[kChunk];
  for (int64_t base = 0; base < n; base += kChunk) {
    const int64_t len = n - base < kChunk ? n - base : kChunk;
    float *p = v + base;
    std::memcpy(in, p, static_cast<size_t>(len) * 4);
    for (int64_t i = 0; i < len; ++i) {
      const uint32_t r = fast(in[i]);
      std::memcpy(p + i, &r, 4);
    }
    redo_nans(in, p, len, scalar);
  }
}

}  // namespace

ACLNN_CPU_MULTIVERSION
void round_to_fp16_n(float *v, int64_t n) {
  map_bits(
      v, n,
      [](uint32_t u) {
        const uint32_t sign = u & kFp32SignMask, a = u & kFp32AbsMask;
        // Normal range: drop 13 mantissa bits, ties to even (a carry moves into the exponent).
        const uint32_t normal = (a + 0xFFFu + ((a >> 13) & 1u)) & ~0x1FFFu;
        // Subnormal range: multiples of 2^-24; adding 0.5 puts the ulp at 2^-24, so the FPU rounds (RNE) for us.
        const uint32_t sub = float_bits((bits_float(a) + 0.5f) - 0.5f);
        const uint32_t is_inf = 0u - static_cast<uint32_t>(a >= 0x477FF000u);
        const uint32_t is_normal = ~is_inf & (0u - static_cast<uint32_t>(a >= 0x38800000u));
        return sign | (kFp32Inf & is_inf) | (normal & is_normal) | (sub & ~is_inf & ~is_normal);
      },
      [](float x) { return round_to_fp16(x); });
}

ACLNN_CPU_MULTIVERSION
void round_to_bf16_n(float *v, int64_t n) {
  map_bits(
      v, n, [](uint32_t u) { return (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u; },
      [](float x) { return round_to_bf16(x); });
}

ACLNN_CPU_MULTIVERSION
void round_to_hf32_n(float *v, int64_t n, int mantissa_bits, Hf32Rounding rounding) {
  if (mantissa_bits >= 23) return;
  const int drop = 23 - (mantissa_bits < 0 ? 0 : mantissa_bits);
  const uint32_t half = 1u << (drop - 1), keep = ~((1u << drop) - 1u);
  auto scalar = [=](float x) { return round_to_hf32(x, mantissa_bits, rounding); };
  if (rounding == Hf32Rounding::kTiesAway) {
    map_bits(
        v, n, [=](uint32_t u) { return (u & kFp32SignMask) | (((u & kFp32AbsMask) + half) & keep); }, scalar);
  } else {
    map_bits(
        v, n,
        [=](uint32_t u) {
          const uint32_t a = u & kFp32AbsMask;
          return (u & kFp32SignMask) | ((a + half - 1u + ((a >> drop) & 1u)) & keep);
        },
        scalar);
  }
}

ACLNN_CPU_MULTIVERSION
void fp32_to_fp16_n(const float *v, int64_t n, uint16_t *dst, int64_t stride) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t u = float_bits(v[i]);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & kFp32AbsMask;
    const uint32_t normal = (a - ((127u - 15u) << 23) + 0xFFFu + ((a >> 13) & 1u)) >> 13;
    const uint32_t sub = float_bits(bits_float(a) + 0.5f) - 0x3F000000u;  // units of 2^-24 (RNE by the FPU)
    const uint32_t h = a > kFp32Inf ? fp32_to_fp16(v[i]) : a >= 0x477FF000u ? 0x7C00u : a >= 0x38800000u ? normal : sub;
    dst[i * stride] = static_cast<uint16_t>(sign | h);
  }
}

ACLNN_CPU_MULTIVERSION
void fp32_to_bf16_n(const float *v, int64_t n, uint16_t *dst, int64_t stride) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t u = float_bits(v[i]);
    dst[i * stride] = (u & kFp32AbsMask) > kFp32Inf ? fp32_to_bf16(v[i])
                                                    : static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
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
void fp16_to_fp32_n(const uint16_t *src, int64_t stride, int64_t n, float *out) {
  uint32_t *dst = reinterpret_cast<uint32_t *>(out);
  if (stride == 1) {  // the common case, kept separate so that it vectorises
    for (int64_t i = 0; i < n; ++i) dst[i] = fp16_bits_to_fp32_bits(src[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i] = fp16_bits_to_fp32_bits(src[i * stride]);
}

}  // namespace numerics
}  // namespace aclnn_cpu
