// HiFloat8 (docs/contract.md §4.3): the spec's decode spot values and encode vectors, all 256 codes, every rounding
// midpoint, and random patterns against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "numerics/formats.hpp"
#include "numerics_patterns.hpp"
#include "numerics_reference.hpp"
#include "numerics_test_util.hpp"

namespace {

using aclnn_cpu::numerics::fp32_to_hif8;
using aclnn_cpu::numerics::hif8_to_fp32;
using numerics_ref::bits_of;
using numerics_ref::float_of;
using numerics_test::hex;
using numerics_test::MismatchLog;

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(NumericsHifloat8, DecodeSpotValues) {
  const struct {
    uint8_t code;
    float value;
  } cases[] = {
      {0x00, 0.0f},  {0x01, 0x1p-22f},    {0x07, 0x1p-16f},  {0x08, 1.0f},       {0x09, 1.125f}, {0x0F, 1.875f},
      {0x10, 2.0f},  {0x18, 0.5f},        {0x20, 4.0f},      {0x28, 8.0f},       {0x30, 0.25f},  {0x38, 0.125f},
      {0x40, 16.0f}, {0x4C, 128.0f},      {0x50, 1.0f / 16}, {0x5C, 0x1p-7f},    {0x60, 256.0f}, {0x6E, 32768.0f},
      {0x6F, kInf},  {0x70, 0x1p-8f},     {0x7E, 0x1p-15f},  {0x7F, 0x1.8p-15f}, {0x88, -1.0f},  {0xEE, -32768.0f},
      {0xEF, -kInf}, {0xFF, -0x1.8p-15f},
  };
  for (const auto &c : cases) EXPECT_EQ(hif8_to_fp32(c.code), c.value) << hex(c.code, 2);
  EXPECT_TRUE(std::isnan(hif8_to_fp32(0x80)));
  EXPECT_EQ(bits_of(hif8_to_fp32(0x00)), 0u);
}

TEST(NumericsHifloat8, EncodeVectors) {
  const struct {
    float input;
    uint8_t code;
  } cases[] = {
      {1.0f, 0x08},
      {1.0625f, 0x09},
      {1.0624f, 0x08},
      {1.1875f, 0x0A},
      {3.875f, 0x20},
      {7.75f, 0x28},
      {15.5f, 0x40},
      {18.0f, 0x41},
      {30.0f, 0x44},
      {448.0f, 0x62},
      {384.0f, 0x61},
      {36864.0f, 0x6E},
      {40960.0f, 0x6F},
      {65504.0f, 0x6F},
      {-2.5f, 0x92},
      {0x1p-23f, 0x01},
      {0x1p-24f, 0x00},
      {0x1.8p-17f, 0x07},
      {0x1.8p-16f, 0x7E},
      {1e-9f, 0x00},
      // Further cases from docs/contract.md §4.3's rules.
      {std::nextafter(40960.0f, 0.0f), 0x6E},
      {32768.0f, 0x6E},
      {1e30f, 0x6F},
      {-1e30f, 0xEF},
      {kInf, 0x6F},
      {-kInf, 0xEF},
      {0.0f, 0x00},
      {-0.0f, 0x00},
      {-0x1p-24f, 0x00},
      {std::nextafter(0x1p-23f, 0.0f), 0x00},
      {-0x1p-23f, 0x81},
      {0x1.fffffep-23f, 0x01},
      {std::numeric_limits<float>::denorm_min(), 0x00},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(fp32_to_hif8(c.input), c.code) << c.input << " (" << hex(bits_of(c.input)) << ")";
  }
  EXPECT_EQ(fp32_to_hif8(std::numeric_limits<float>::quiet_NaN()), 0x80);
  EXPECT_EQ(fp32_to_hif8(-std::numeric_limits<float>::quiet_NaN()), 0x80);
  EXPECT_EQ(fp32_to_hif8(float_of(0x7F800001u)), 0x80);
}

// Rounding up into a binade with fewer mantissa bits, in both directions of the exponent.
TEST(NumericsHifloat8, RoundingCrossesIntoTheNextBinade) {
  EXPECT_EQ(fp32_to_hif8(7.75f), 0x28);      // 1.9375·2^2 (3 bits) → 2^3 (2 bits)
  EXPECT_EQ(fp32_to_hif8(0x1.fp-4f), 0x38);  // 1.9375·2^-4 (2 bits) → 2^-3 (3 bits)
  EXPECT_EQ(fp32_to_hif8(0x1.ep-8f), 0x5C);  // 1.875·2^-8 (1 bit) → 2^-7 (2 bits)
  EXPECT_EQ(hif8_to_fp32(0x5C), 0x1p-7f);
  EXPECT_EQ(fp32_to_hif8(0x1.8p-16f), 0x7E);  // last denormal binade → 2^-15 normal code
  EXPECT_EQ(fp32_to_hif8(0x1.8p-23f), 0x01);
  EXPECT_EQ(fp32_to_hif8(0x1.8p-22f), 0x02);  // tie between 2^-22 and 2^-21: away
  EXPECT_EQ(fp32_to_hif8(std::nextafter(0x1.8p-22f, 0.0f)), 0x01);
}

TEST(NumericsHifloat8, EveryCodeDecodesLikeTheReferenceAndRoundTrips) {
  MismatchLog decode("hif8_to_fp32"), round_trip("fp32_to_hif8(hif8_to_fp32(c))");
  std::set<float> finite_values;
  for (uint32_t c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    const float value = hif8_to_fp32(code);
    if (c == 0x80) {
      EXPECT_TRUE(std::isnan(value));
    } else {
      decode.equal(c, bits_of(value), bits_of(numerics_ref::hif8_to_fp32(code)));
      if (std::isfinite(value)) finite_values.insert(value);
    }
    round_trip.equal(c, fp32_to_hif8(value), c);
  }
  EXPECT_EQ(finite_values.size(), 253u);  // 256 codes minus NaN and ±Inf, all distinct (a single zero)
  EXPECT_EQ(*finite_values.rbegin(), 32768.0f);
  EXPECT_EQ(*finite_values.upper_bound(0.0f), 0x1p-22f);
}

// Between adjacent representable magnitudes the exact midpoint goes away from zero and its float neighbours go to
// the nearer value; the pattern 0x6F takes part as 1.5·2^15 so that 40960 and up become Inf.
TEST(NumericsHifloat8, EveryMidpointRoundsAwayFromZero) {
  std::vector<std::pair<float, uint8_t>> magnitudes;
  for (uint32_t c = 0; c < 0x80; ++c) {
    const float v = c == 0x6F ? 49152.0f : hif8_to_fp32(static_cast<uint8_t>(c));
    magnitudes.emplace_back(v, static_cast<uint8_t>(c));
  }
  std::sort(magnitudes.begin(), magnitudes.end());
  MismatchLog log("fp32_to_hif8 near a midpoint");
  for (size_t i = 0; i + 1 < magnitudes.size(); ++i) {
    const auto [lo, lo_code] = magnitudes[i];
    const auto [hi, hi_code] = magnitudes[i + 1];
    const float mid = (lo + hi) / 2;  // exact: both have at most 4 significant bits
    for (const bool negative : {false, true}) {
      const float m = negative ? -mid : mid;
      const auto signed_code = [&](uint8_t c) { return static_cast<uint32_t>(negative && c != 0 ? (c | 0x80) : c); };
      log.equal(bits_of(m), fp32_to_hif8(m), signed_code(hi_code));
      log.equal(bits_of(m), fp32_to_hif8(std::nextafter(m, 0.0f)), signed_code(lo_code));
      log.equal(bits_of(m), fp32_to_hif8(std::nextafter(m, negative ? -kInf : kInf)), signed_code(hi_code));
    }
  }
  EXPECT_EQ(log.checked(), 127u * 6);
}

TEST(NumericsHifloat8, EdgeAndRandomPatternsMatchTheReference) {
  MismatchLog log("fp32_to_hif8");
  // Exponents from 2^-30 (everything zero) to 2^20 (everything Inf), then any pattern.
  for (const auto &patterns :
       {numerics_patterns::rounding_edges(), numerics_patterns::random_in_exponents(1000000, 97, 147, 8),
        numerics_patterns::random_any(200000, 9)}) {
    for (uint32_t u : patterns) {
      if (!log.equal(u, fp32_to_hif8(float_of(u)), numerics_ref::fp32_to_hif8(float_of(u)))) break;
    }
  }
}

}  // namespace
