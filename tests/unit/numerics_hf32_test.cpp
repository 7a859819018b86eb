// FP32 -> HF32 (docs/contract.md §4.2): the worked examples for m = 11 and m = 10, both rounding modes, specials,
// subnormals, the golden's integer formula, and many patterns against the double-arithmetic reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "numerics/formats.hpp"
#include "numerics_patterns.hpp"
#include "numerics_reference.hpp"
#include "numerics_test_util.hpp"

namespace {

using aclnn_cpu::Hf32Rounding;
using aclnn_cpu::numerics::round_to_hf32;
using numerics_ref::bits_of;
using numerics_ref::float_of;
using numerics_test::MismatchLog;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr Hf32Rounding kAway = Hf32Rounding::kTiesAway;
constexpr Hf32Rounding kEven = Hf32Rounding::kNearestEven;

// docs/contract.md §4.2 worked examples, written for mantissa width m: ulp = 2^-m at 1.0.
void expect_worked_examples(int m) {
  SCOPED_TRACE(m);
  const float ulp = std::ldexp(1.0f, -m);
  EXPECT_EQ(round_to_hf32(1.0f, m, kAway), 1.0f);
  EXPECT_EQ(round_to_hf32(1.0f + ulp / 2, m, kAway), 1.0f + ulp);  // tie: away
  EXPECT_EQ(round_to_hf32(1.0f + ulp / 2, m, kEven), 1.0f);        // tie: even
  EXPECT_EQ(round_to_hf32(1.0f + ulp / 4, m, kAway), 1.0f);
  EXPECT_EQ(round_to_hf32(1.0f + 3 * ulp / 4, m, kAway), 1.0f + ulp);
  EXPECT_EQ(round_to_hf32(1.0f + 3 * ulp / 4, m, kEven), 1.0f + ulp);
  EXPECT_EQ(round_to_hf32(1.0f + 3 * ulp / 2, m, kEven), 1.0f + 2 * ulp);  // tie: even is upward here
  EXPECT_EQ(round_to_hf32(-(1.0f + ulp / 2), m, kAway), -(1.0f + ulp));    // away from zero, not upward
  EXPECT_EQ(round_to_hf32(2.0f - ulp / 2, m, kAway), 2.0f);                // carry into the exponent
}

TEST(NumericsHf32, WorkedExamplesM11) {
  expect_worked_examples(11);
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x3F800800u), 11, kAway)), 0x3F801000u);  // 1 + 2^-12 → 1 + 2^-11
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x3F800400u), 11, kAway)), 0x3F800000u);  // 1 + 2^-13 → 1
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x3F800C00u), 11, kAway)), 0x3F801000u);  // 1 + 3·2^-13 → 1 + 2^-11
}

TEST(NumericsHf32, WorkedExamplesM10) {
  expect_worked_examples(10);
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x3F801000u), 10, kAway)), 0x3F802000u);  // 1 + 2^-11 → 1 + 2^-10
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x3F800800u), 10, kAway)), 0x3F800000u);  // 1 + 2^-12 → 1
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x3F801800u), 10, kAway)), 0x3F802000u);  // 1 + 3·2^-12 → 1 + 2^-10
}

TEST(NumericsHf32, SpecialValuesAreKept) {
  for (int m : {10, 11}) {
    for (Hf32Rounding r : {kAway, kEven}) {
      for (uint32_t u :
           {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFF800FFFu, 0x7FFFFFFFu, 0x00000000u, 0x80000000u}) {
        EXPECT_EQ(bits_of(round_to_hf32(float_of(u), m, r)), u) << numerics_test::hex(u) << " m=" << m;
      }
    }
  }
}

TEST(NumericsHf32, LargestFiniteValuesRoundToInf) {
  const float max = std::numeric_limits<float>::max();
  EXPECT_EQ(round_to_hf32(max, 11, kAway), kInf);
  EXPECT_EQ(round_to_hf32(-max, 10, kEven), -kInf);
  // The largest HF32 value itself and values below its upper half-step stay finite.
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x7F7FF000u), 11, kAway)), 0x7F7FF000u);
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x7F7FF7FFu), 11, kAway)), 0x7F7FF000u);
  EXPECT_EQ(round_to_hf32(float_of(0x7F7FF800u), 11, kAway), kInf);
  EXPECT_EQ(round_to_hf32(float_of(0x7F7FF800u), 11, kEven), kInf);  // tie; the even neighbour is 2^128
}

TEST(NumericsHf32, SubnormalsRoundOnTheLowestBinadeGrid) {
  // m = 11 keeps pattern multiples of 2^12 = 0x1000, so half a step is 0x800.
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x00000800u), 11, kAway)), 0x00001000u);
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x00000800u), 11, kEven)), 0x00000000u);
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x800007FFu), 11, kAway)), 0x80000000u);
  EXPECT_EQ(bits_of(round_to_hf32(float_of(0x007FF800u), 11, kAway)), 0x00800000u);  // up into the normals
  EXPECT_EQ(bits_of(round_to_hf32(std::numeric_limits<float>::denorm_min(), 10, kAway)), 0u);
}

// docs/contract.md §4.2 states the golden's formula u' = (u + 2^(22-m)) & ~(2^(23-m) - 1) for ties-away; check it
// literally.
TEST(NumericsHf32, TiesAwayIsTheGoldenIntegerFormula) {
  MismatchLog log("round_to_hf32 vs (u + half) & mask");
  for (int m : {10, 11}) {
    const uint32_t half = 1u << (22 - m);
    const uint32_t mask = ~((1u << (23 - m)) - 1u);
    for (uint32_t u : numerics_patterns::random_any(200000, 6 + m)) {
      if ((u & 0x7F800000u) == 0x7F800000u) continue;  // NaN/Inf are kept instead
      if (!log.equal(u, bits_of(round_to_hf32(float_of(u), m, kAway)), (u + half) & mask)) break;
    }
  }
}

TEST(NumericsHf32, EdgeAndRandomPatternsMatchTheReference) {
  const auto edges = numerics_patterns::rounding_edges();
  const auto random = numerics_patterns::random_any(250000, 7);
  for (int m : {10, 11}) {
    for (Hf32Rounding r : {kAway, kEven}) {
      MismatchLog log(r == kAway ? "round_to_hf32 ties away" : "round_to_hf32 nearest even");
      for (const auto *patterns : {&edges, &random}) {
        for (uint32_t u : *patterns) {
          const float x = float_of(u);
          const float want = numerics_ref::round_to_hf32(x, m, r == kAway);
          if (!log.equal(u, bits_of(round_to_hf32(x, m, r)), bits_of(want))) break;
        }
      }
    }
  }
}

}  // namespace
