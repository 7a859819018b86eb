// fp32 <-> bfloat16: spot values, every code, every rounding midpoint, and many patterns against the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "numerics/formats.hpp"
#include "numerics_patterns.hpp"
#include "numerics_reference.hpp"
#include "numerics_test_util.hpp"

namespace {

using aclnn_cpu::numerics::bf16_to_fp32;
using aclnn_cpu::numerics::fp32_to_bf16;
using aclnn_cpu::numerics::round_to_bf16;
using numerics_ref::bits_of;
using numerics_ref::float_of;
using numerics_test::MismatchLog;

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(NumericsBf16, SpotValues) {
  EXPECT_EQ(fp32_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(fp32_to_bf16(-3.0f), 0xC040);
  EXPECT_EQ(fp32_to_bf16(float_of(0x3F808000u)), 0x3F80);  // tie, even
  EXPECT_EQ(fp32_to_bf16(float_of(0x3F818000u)), 0x3F82);  // tie, even
  EXPECT_EQ(fp32_to_bf16(float_of(0x3F808001u)), 0x3F81);
  EXPECT_EQ(fp32_to_bf16(float_of(0x3F807FFFu)), 0x3F80);
  EXPECT_EQ(fp32_to_bf16(float_of(0x3FFF8000u)), 0x4000);              // carry into the exponent
  EXPECT_EQ(fp32_to_bf16(std::numeric_limits<float>::max()), 0x7F80);  // rounds past the largest bf16: Inf
  EXPECT_EQ(fp32_to_bf16(float_of(0x7F7F7FFFu)), 0x7F7F);
  EXPECT_EQ(fp32_to_bf16(float_of(0x00008000u)), 0x0000);  // subnormal tie, even
  EXPECT_EQ(fp32_to_bf16(float_of(0x00018000u)), 0x0002);
  EXPECT_EQ(fp32_to_bf16(float_of(0x807F8000u)), 0x8080);  // largest subnormal rounds up to the smallest normal
  EXPECT_EQ(bf16_to_fp32(0x4049), 3.140625f);
  EXPECT_EQ(round_to_bf16(1.0f / 3.0f), 0.333984375f);
}

TEST(NumericsBf16, SpecialValues) {
  EXPECT_EQ(fp32_to_bf16(0.0f), 0x0000);
  EXPECT_EQ(fp32_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(fp32_to_bf16(kInf), 0x7F80);
  EXPECT_EQ(fp32_to_bf16(-kInf), 0xFF80);
  EXPECT_EQ(fp32_to_bf16(float_of(0x7FC00000u)), 0x7FC0);
  EXPECT_EQ(fp32_to_bf16(float_of(0x7F800001u)), 0x7FC0);  // payload only in the dropped half: still NaN
  EXPECT_EQ(fp32_to_bf16(float_of(0xFFFFFFFFu)), 0xFFFF);  // no rounding carry out of a NaN
  EXPECT_EQ(fp32_to_bf16(float_of(0xFF810000u)), 0xFFC1);
  EXPECT_EQ(bits_of(bf16_to_fp32(0xFF81)), 0xFF810000u);  // widening keeps the pattern
}

TEST(NumericsBf16, EveryCodeDecodesLikeTheReferenceAndRoundTrips) {
  MismatchLog decode("bf16_to_fp32"), round_trip("fp32_to_bf16(bf16_to_fp32(b))");
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto code = static_cast<uint16_t>(b);
    const float value = bf16_to_fp32(code);
    decode.equal(b, bits_of(value), bits_of(numerics_ref::bf16_to_fp32(code)));
    const bool is_nan = (b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0;
    round_trip.equal(b, fp32_to_bf16(value), is_nan ? (b | 0x0040) : b);
  }
  EXPECT_EQ(decode.checked(), 65536u);
}

TEST(NumericsBf16, EveryMidpointRoundsToEven) {
  MismatchLog log("fp32_to_bf16 near a midpoint");
  for (uint32_t lo = 0; lo < 0x7F80; ++lo) {
    const uint32_t hi = lo + 1;
    const double hi_value = hi == 0x7F80 ? std::ldexp(1.0, 128) : numerics_ref::bf16_value(static_cast<uint16_t>(hi));
    const auto mid = static_cast<float>((numerics_ref::bf16_value(static_cast<uint16_t>(lo)) + hi_value) / 2);
    const uint32_t even = (lo & 1u) == 0 ? lo : hi;
    for (uint32_t sign : {0u, 0x8000u}) {
      const float m = sign ? -mid : mid;
      log.equal(bits_of(m), fp32_to_bf16(m), sign | even);
      log.equal(bits_of(m), fp32_to_bf16(std::nextafter(m, 0.0f)), sign | lo);
      log.equal(bits_of(m), fp32_to_bf16(std::nextafter(m, sign ? -kInf : kInf)), sign | hi);
    }
  }
}

TEST(NumericsBf16, EdgeAndRandomPatternsMatchTheReference) {
  MismatchLog log("fp32_to_bf16");
  for (const auto &patterns : {numerics_patterns::rounding_edges(), numerics_patterns::random_any(1000000, 5)}) {
    for (uint32_t u : patterns) {
      if (!log.equal(u, fp32_to_bf16(float_of(u)), numerics_ref::fp32_to_bf16(float_of(u)))) break;
    }
  }
}

}  // namespace
