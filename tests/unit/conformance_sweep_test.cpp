// Geometry sweeps through the direct path (Problem → execute): named feature cases with integer data
// (compared exactly) and random data, then seeded random configurations (random geometry, dtypes,
// cubeMathType, products, masks and non-contiguous layouts).
#include <gtest/gtest.h>

#include "conformance_cases.hpp"
#include "conformance_harness.hpp"

namespace conformance {
namespace {

class ConformanceFeature : public ::testing::TestWithParam<std::string> {};

TEST_P(ConformanceFeature, IntegersExact) { EXPECT_TRUE(check_case(parse_case(GetParam(), Data::kIntegers, 3))); }

TEST_P(ConformanceFeature, RandomWithinRoundingBound) {
  EXPECT_TRUE(check_case(parse_case(GetParam(), Data::kRandom, 4)));
}

TEST_P(ConformanceFeature, Fp16AndBf16UnderEveryCubeMathType) {
  for (const char *dt : {"_dtf16", "_dtbf16", "_dtf16:f32:bf16:f32:f16:bf16"}) {
    for (int cmt = 0; cmt < 4; ++cmt) {
      EXPECT_TRUE(check_case(parse_case(GetParam() + dt + "_cmt" + std::to_string(cmt), Data::kRandom, 5)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Conformance, ConformanceFeature, ::testing::ValuesIn(feature_cases()));

TEST(ConformanceRandom, TwoHundredSeededConfigurations) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const ConvCase c = random_case(seed);
    ASSERT_TRUE(check_case(c)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace conformance
