// FLOAT8_E4M3FN (docs/contract.md §4.4): spot values, overflow in both modes, all 256 codes, every rounding midpoint,
// and random patterns against the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "numerics/formats.hpp"
#include "numerics_patterns.hpp"
#include "numerics_reference.hpp"
#include "numerics_test_util.hpp"

namespace {

using aclnn_cpu::Fp8Overflow;
using aclnn_cpu::numerics::e4m3fn_to_fp32;
using aclnn_cpu::numerics::fp32_to_e4m3fn;
using numerics_ref::bits_of;
using numerics_ref::float_of;
using numerics_test::hex;
using numerics_test::MismatchLog;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr Fp8Overflow kSat = Fp8Overflow::kSaturate;
constexpr Fp8Overflow kNan = Fp8Overflow::kNan;

TEST(NumericsE4m3fn, DecodeSpotValues) {
  const struct {
    uint8_t code;
    float value;
  } cases[] = {
      {0x01, 0.001953125f}, {0x07, 0.013671875f}, {0x08, 0x1p-6f}, {0x7E, 448.0f}, {0x38, 1.0f},    {0x40, 2.0f},
      {0x30, 0.5f},         {0x28, 0.25f},        {0x46, 3.5f},    {0xBC, -1.5f},  {0xFE, -448.0f},
  };
  for (const auto &c : cases) EXPECT_EQ(e4m3fn_to_fp32(c.code), c.value) << hex(c.code, 2);
  EXPECT_EQ(bits_of(e4m3fn_to_fp32(0x00)), 0x00000000u);
  EXPECT_EQ(bits_of(e4m3fn_to_fp32(0x80)), 0x80000000u);
  EXPECT_TRUE(std::isnan(e4m3fn_to_fp32(0x7F)));
  EXPECT_FALSE(std::signbit(e4m3fn_to_fp32(0x7F)));
  EXPECT_TRUE(std::isnan(e4m3fn_to_fp32(0xFF)));
  EXPECT_TRUE(std::signbit(e4m3fn_to_fp32(0xFF)));
}

TEST(NumericsE4m3fn, EncodeSpotValues) {
  for (Fp8Overflow mode : {kSat, kNan}) {
    EXPECT_EQ(fp32_to_e4m3fn(1.0f, mode), 0x38);
    EXPECT_EQ(fp32_to_e4m3fn(-1.5f, mode), 0xBC);
    EXPECT_EQ(fp32_to_e4m3fn(448.0f, mode), 0x7E);
    EXPECT_EQ(fp32_to_e4m3fn(464.0f, mode), 0x7E);  // tie between 448 and 480: even
    EXPECT_EQ(fp32_to_e4m3fn(-464.0f, mode), 0xFE);
    EXPECT_EQ(fp32_to_e4m3fn(1.0625f, mode), 0x38);   // tie, even
    EXPECT_EQ(fp32_to_e4m3fn(1.1875f, mode), 0x3A);   // tie, even
    EXPECT_EQ(fp32_to_e4m3fn(0x1p-10f, mode), 0x00);  // tie between 0 and 2^-9: even
    EXPECT_EQ(fp32_to_e4m3fn(0x1.000002p-10f, mode), 0x01);
    EXPECT_EQ(fp32_to_e4m3fn(0x3p-10f, mode), 0x02);  // subnormal tie, even
    EXPECT_EQ(fp32_to_e4m3fn(0x5p-10f, mode), 0x02);
    EXPECT_EQ(fp32_to_e4m3fn(0xFp-10f, mode), 0x08);  // largest subnormal + half step: smallest normal
    EXPECT_EQ(fp32_to_e4m3fn(0.0f, mode), 0x00);
    EXPECT_EQ(fp32_to_e4m3fn(-0.0f, mode), 0x80);
    EXPECT_EQ(fp32_to_e4m3fn(-1e-20f, mode), 0x80);
    EXPECT_EQ(fp32_to_e4m3fn(std::numeric_limits<float>::quiet_NaN(), mode), 0x7F);
    EXPECT_EQ(fp32_to_e4m3fn(-std::numeric_limits<float>::quiet_NaN(), mode), 0xFF);
    EXPECT_EQ(fp32_to_e4m3fn(float_of(0x7F800001u), mode), 0x7F);
  }
}

TEST(NumericsE4m3fn, OverflowSaturatesTo448) {
  EXPECT_EQ(fp32_to_e4m3fn(std::nextafter(464.0f, kInf), kSat), 0x7E);
  EXPECT_EQ(fp32_to_e4m3fn(479.99f, kSat), 0x7E);
  EXPECT_EQ(fp32_to_e4m3fn(480.0f, kSat), 0x7E);
  EXPECT_EQ(fp32_to_e4m3fn(-480.0f, kSat), 0xFE);
  EXPECT_EQ(fp32_to_e4m3fn(1e30f, kSat), 0x7E);
  EXPECT_EQ(fp32_to_e4m3fn(kInf, kSat), 0x7E);
  EXPECT_EQ(fp32_to_e4m3fn(-kInf, kSat), 0xFE);
}

// PyTorch's float8_e4m3fn cast: every value whose RNE result would pass 448 is NaN, so 464 < |x| < 480 is NaN
// too (the specification behind docs/contract.md §4.4 said 479.99 → 448 here; PyTorch's code rounds it to the NaN
// pattern, and we follow the code).
TEST(NumericsE4m3fn, OverflowGivesSignedNanInPyTorchMode) {
  EXPECT_EQ(fp32_to_e4m3fn(std::nextafter(464.0f, kInf), kNan), 0x7F);
  EXPECT_EQ(fp32_to_e4m3fn(479.99f, kNan), 0x7F);
  EXPECT_EQ(fp32_to_e4m3fn(480.0f, kNan), 0x7F);
  EXPECT_EQ(fp32_to_e4m3fn(-480.0f, kNan), 0xFF);
  EXPECT_EQ(fp32_to_e4m3fn(1e30f, kNan), 0x7F);
  EXPECT_EQ(fp32_to_e4m3fn(kInf, kNan), 0x7F);
  EXPECT_EQ(fp32_to_e4m3fn(-kInf, kNan), 0xFF);
}

TEST(NumericsE4m3fn, EveryCodeDecodesLikeTheReferenceAndRoundTrips) {
  MismatchLog decode("e4m3fn_to_fp32"), round_trip("fp32_to_e4m3fn(e4m3fn_to_fp32(c))");
  for (uint32_t c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    const float value = e4m3fn_to_fp32(code);
    decode.equal(c, bits_of(value), bits_of(numerics_ref::e4m3fn_to_fp32(code)));
    EXPECT_EQ(std::isnan(value), (c & 0x7F) == 0x7F) << hex(c, 2);
    for (Fp8Overflow mode : {kSat, kNan}) round_trip.equal(c, fp32_to_e4m3fn(value, mode), c);
  }
  EXPECT_EQ(decode.checked(), 256u);
}

// Between adjacent codes (the NaN pattern taking part as 480) the exact midpoint goes to the even code and its
// float neighbours to the nearer code; landing on 480 is overflow.
TEST(NumericsE4m3fn, EveryMidpointRoundsToEven) {
  MismatchLog log("fp32_to_e4m3fn near a midpoint");
  for (Fp8Overflow mode : {kSat, kNan}) {
    const uint32_t overflow = mode == kSat ? 0x7E : 0x7F;
    for (uint32_t lo = 0; lo < 0x7F; ++lo) {
      const uint32_t hi = lo + 1;
      const float hi_value = hi == 0x7F ? 480.0f : e4m3fn_to_fp32(static_cast<uint8_t>(hi));
      const float mid = (e4m3fn_to_fp32(static_cast<uint8_t>(lo)) + hi_value) / 2;  // exact
      const auto result = [&](uint32_t c) { return c == 0x7F ? overflow : c; };
      const uint32_t even = (lo & 1u) == 0 ? lo : hi;
      for (uint32_t sign : {0u, 0x80u}) {
        const float m = sign ? -mid : mid;
        log.equal(bits_of(m), fp32_to_e4m3fn(m, mode), sign | result(even));
        log.equal(bits_of(m), fp32_to_e4m3fn(std::nextafter(m, 0.0f), mode), sign | result(lo));
        log.equal(bits_of(m), fp32_to_e4m3fn(std::nextafter(m, sign ? -kInf : kInf), mode), sign | result(hi));
      }
    }
  }
  EXPECT_EQ(log.checked(), 2u * 127 * 6);
}

TEST(NumericsE4m3fn, EdgeAndRandomPatternsMatchTheReference) {
  const auto edges = numerics_patterns::rounding_edges();
  // Exponents from 2^-14 (everything rounds to zero) to 2^10 (everything overflows), then any pattern.
  const auto near = numerics_patterns::random_in_exponents(500000, 113, 137, 10);
  const auto any = numerics_patterns::random_any(100000, 11);
  for (Fp8Overflow mode : {kSat, kNan}) {
    MismatchLog log(mode == kSat ? "fp32_to_e4m3fn saturating" : "fp32_to_e4m3fn NaN on overflow");
    for (const auto *patterns : {&edges, &near, &any}) {
      for (uint32_t u : *patterns) {
        const float x = float_of(u);
        if (!log.equal(u, fp32_to_e4m3fn(x, mode), numerics_ref::fp32_to_e4m3fn(x, mode == kSat))) break;
      }
    }
  }
}

}  // namespace
