// fp32 <-> IEEE binary16: spot values, every code, every rounding midpoint, and millions of patterns against the
// slow reference (tests/numerics_reference.hpp) and, where the CPU has it, against the F16C instructions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "numerics/formats.hpp"
#include "numerics_patterns.hpp"
#include "numerics_reference.hpp"
#include "numerics_test_util.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define NUMERICS_TEST_HAVE_F16C 1
#endif

namespace {

using aclnn_cpu::numerics::fp16_to_fp32;
using aclnn_cpu::numerics::fp32_to_fp16;
using numerics_ref::bits_of;
using numerics_ref::float_of;
using numerics_test::MismatchLog;

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(NumericsFp16, SpotValues) {
  EXPECT_EQ(fp32_to_fp16(1.0f), 0x3C00);
  EXPECT_EQ(fp32_to_fp16(-2.0f), 0xC000);
  EXPECT_EQ(fp32_to_fp16(65504.0f), 0x7BFF);
  EXPECT_EQ(fp32_to_fp16(std::nextafter(65520.0f, 0.0f)), 0x7BFF);
  EXPECT_EQ(fp32_to_fp16(65520.0f), 0x7C00);  // the tie rounds to the even neighbour, which is past the range
  EXPECT_EQ(fp32_to_fp16(-1e6f), 0xFC00);
  EXPECT_EQ(fp32_to_fp16(0x1p-14f), 0x0400);
  EXPECT_EQ(fp32_to_fp16(0x1p-24f), 0x0001);
  EXPECT_EQ(fp32_to_fp16(0x1p-25f), 0x0000);  // tie between 0 and the smallest subnormal: even
  EXPECT_EQ(fp32_to_fp16(0x1.8p-25f), 0x0001);
  EXPECT_EQ(fp32_to_fp16(0x3p-25f), 0x0002);         // 1.5 ulp: tie to even (2)
  EXPECT_EQ(fp32_to_fp16(0x1.ffcp-15f), 0x0400);     // largest subnormal + half ulp rounds into the normals
  EXPECT_EQ(fp32_to_fp16(1.0f + 0x1p-11f), 0x3C00);  // tie, even
  EXPECT_EQ(fp32_to_fp16(1.0f + 0x3p-11f), 0x3C02);  // tie, even
  EXPECT_EQ(fp32_to_fp16(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(fp32_to_fp16(-std::numeric_limits<float>::denorm_min()), 0x8000);
  EXPECT_EQ(fp16_to_fp32(0x7BFF), 65504.0f);
  EXPECT_EQ(fp16_to_fp32(0x0001), 0x1p-24f);
  EXPECT_EQ(fp16_to_fp32(0x03FF), 0x1.ff8p-15f);
  EXPECT_EQ(fp16_to_fp32(0x3555), 0x1.554p-2f);
}

TEST(NumericsFp16, SpecialValues) {
  EXPECT_EQ(fp32_to_fp16(0.0f), 0x0000);
  EXPECT_EQ(fp32_to_fp16(-0.0f), 0x8000);
  EXPECT_EQ(fp32_to_fp16(kInf), 0x7C00);
  EXPECT_EQ(fp32_to_fp16(-kInf), 0xFC00);
  EXPECT_EQ(fp32_to_fp16(float_of(0x7FC00000u)), 0x7E00);
  EXPECT_EQ(fp32_to_fp16(float_of(0xFFC00000u)), 0xFE00);
  // A signalling NaN whose payload lives only in the dropped bits must stay NaN (quiet), not become Inf.
  EXPECT_EQ(fp32_to_fp16(float_of(0x7F800001u)), 0x7E00);
  EXPECT_EQ(fp32_to_fp16(float_of(0xFFA02000u)), 0xFF01);  // sign and top payload bits kept
  EXPECT_EQ(bits_of(fp16_to_fp32(0x8000)), 0x80000000u);
  EXPECT_EQ(fp16_to_fp32(0x7C00), kInf);
  EXPECT_EQ(fp16_to_fp32(0xFC00), -kInf);
  EXPECT_EQ(bits_of(fp16_to_fp32(0x7C01)), 0x7FC02000u);  // quieted, payload kept
  EXPECT_EQ(bits_of(fp16_to_fp32(0xFE00)), 0xFFC00000u);
}

TEST(NumericsFp16, EveryCodeDecodesLikeTheReferenceAndRoundTrips) {
  MismatchLog decode("fp16_to_fp32"), round_trip("fp32_to_fp16(fp16_to_fp32(h))");
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto code = static_cast<uint16_t>(h);
    const float value = fp16_to_fp32(code);
    decode.equal(h, bits_of(value), bits_of(numerics_ref::fp16_to_fp32(code)));
    const bool is_nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
    round_trip.equal(h, fp32_to_fp16(value), is_nan ? (h | 0x0200) : h);  // NaNs come back quieted
  }
  EXPECT_EQ(decode.checked(), 65536u);
}

// Between every two adjacent non-negative codes (Inf counting as the code after 65504) the exact midpoint goes to
// the even code, and the floats just beside it go to the nearer code. Same for negative values.
TEST(NumericsFp16, EveryMidpointRoundsToEven) {
  MismatchLog log("fp32_to_fp16 near a midpoint");
  for (uint32_t lo = 0; lo < 0x7C00; ++lo) {
    const uint32_t hi = lo + 1;
    const double hi_value = hi == 0x7C00 ? 65536.0 : numerics_ref::fp16_value(static_cast<uint16_t>(hi));
    const auto mid = static_cast<float>((numerics_ref::fp16_value(static_cast<uint16_t>(lo)) + hi_value) / 2);
    const uint32_t even = (lo & 1u) == 0 ? lo : hi;
    for (uint32_t sign : {0u, 0x8000u}) {
      const float m = sign ? -mid : mid;
      log.equal(bits_of(m), fp32_to_fp16(m), sign | even);
      log.equal(bits_of(m), fp32_to_fp16(std::nextafter(m, 0.0f)), sign | lo);
      log.equal(bits_of(m), fp32_to_fp16(std::nextafter(m, sign ? -kInf : kInf)), sign | hi);
    }
  }
}

void expect_matches_reference(const std::vector<uint32_t> &patterns, const char *what) {
  MismatchLog log(what);
  for (uint32_t u : patterns) {
    const float x = float_of(u);
    if (!log.equal(u, fp32_to_fp16(x), numerics_ref::fp32_to_fp16(x))) break;
  }
}

TEST(NumericsFp16, RoundingEdgesMatchTheReference) {
  expect_matches_reference(numerics_patterns::rounding_edges(), "fp32_to_fp16 at rounding edges");
}

TEST(NumericsFp16, RandomPatternsMatchTheReference) {
  // Exponents from well below the subnormals (2^-30) to past the overflow (2^17), then any pattern at all.
  expect_matches_reference(numerics_patterns::random_in_exponents(1000000, 97, 144, 1), "fp32_to_fp16 random");
  expect_matches_reference(numerics_patterns::random_any(300000, 2), "fp32_to_fp16 random (any pattern)");
}

#ifdef NUMERICS_TEST_HAVE_F16C
// F16C is VEX-encoded: it needs the CPU flag and the OS saving the AVX state (OSXSAVE, XCR0 bits 1-2).
bool cpu_has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool f16c = (ecx & (1u << 29)) != 0;
  const bool osxsave = (ecx & (1u << 27)) != 0;
  if (!f16c || !osxsave) return false;
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  return (xcr0_low & 6u) == 6u;
}

__attribute__((target("f16c"))) uint16_t f16c_encode(float x) {
  return static_cast<uint16_t>(_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float f16c_decode(uint16_t h) { return _cvtsh_ss(h); }
#endif

// The hardware converter is an independent oracle, NaN payload handling included.
TEST(NumericsFp16, AgreesWithF16C) {
#ifdef NUMERICS_TEST_HAVE_F16C
  if (!cpu_has_f16c()) GTEST_SKIP() << "CPU without F16C";
  MismatchLog decode("fp16_to_fp32 vs F16C"), encode("fp32_to_fp16 vs F16C");
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    decode.equal(h, bits_of(fp16_to_fp32(static_cast<uint16_t>(h))), bits_of(f16c_decode(static_cast<uint16_t>(h))));
  }
  for (const auto &patterns : {numerics_patterns::rounding_edges(), numerics_patterns::random_any(1000000, 3),
                               numerics_patterns::random_in_exponents(1000000, 97, 144, 4)}) {
    for (uint32_t u : patterns) {
      if (!encode.equal(u, fp32_to_fp16(float_of(u)), f16c_encode(float_of(u)))) break;
    }
  }
#else
  GTEST_SKIP() << "F16C intrinsics not available on this target";
#endif
}

}  // namespace
