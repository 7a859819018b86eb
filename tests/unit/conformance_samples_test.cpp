// docs/contract.md §5.1: the CANN sample programs (all-ones data, exact expected values) and §5.3's ttk cases, through
// the direct path; conformance_api_test.cpp runs the same cases through the public API.
#include <gtest/gtest.h>

#include "conformance_harness.hpp"

namespace conformance {
namespace {

// Every element of `t` equals `value`.
::testing::AssertionResult all_equal(const TestTensor &t, double value) {
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (t.get(i) != value)
      return ::testing::AssertionFailure() << "element " << i << " is " << t.get(i) << ", not " << value;
  }
  return ::testing::AssertionSuccess();
}

TEST(ConformanceSamples, S0SeedSampleGivesTwoNinetyEightNinetyEight) {
  const ConvCase c = parse_case("mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1", Data::kOnes);
  CaseTensors t(c);
  ASSERT_TRUE(check_case(c, t));
  EXPECT_TRUE(all_equal(t.t[kGradInput], 2));
  EXPECT_TRUE(all_equal(t.t[kGradWeight], 98));
  EXPECT_TRUE(all_equal(t.t[kGradBias], 98));
}

TEST(ConformanceSamples, S1OneDimensional) {
  const ConvCase c = parse_case("mb4_g1_ic2oc2_iw9_kw3_sw3_pw0_dw1_dtf32_mask111_cmt0", Data::kOnes);
  CaseTensors t(c);
  ASSERT_EQ(t.t[kGradOutput].shape(), (std::vector<int64_t>{4, 2, 3}));
  ASSERT_TRUE(check_case(c, t));
  EXPECT_TRUE(all_equal(t.t[kGradInput], 2));
  EXPECT_TRUE(all_equal(t.t[kGradWeight], 12));
  EXPECT_TRUE(all_equal(t.t[kGradBias], 12));
}

// S2 is [4,320,80,80] x [320,30,3,3]; scaled to 2 x 24 x 10x10 with 6 input channels. The pattern is the same:
// gradInput = Cout·(taps inside) = 24·9 inside, 24·6 on edges, 24·4 at corners; gradWeight = N·(rows)·(cols)
// the tap sees; gradBias = N·H·W.
TEST(ConformanceSamples, S2ScaledDown) {
  const ConvCase c = parse_case("mb2_g1_ic6oc24_ih10iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_mask111_cmt1", Data::kOnes);
  CaseTensors t(c);
  ASSERT_TRUE(check_case(c, t));
  const TestTensor &gi = t.t[kGradInput];
  for (int64_t i = 0; i < gi.numel(); ++i) {
    const int64_t h = (i / 10) % 10, w = i % 10;
    const int64_t rows = (h == 0 || h == 9) ? 2 : 3, cols = (w == 0 || w == 9) ? 2 : 3;
    ASSERT_EQ(gi.get(i), 24.0 * rows * cols) << i;
  }
  const TestTensor &gw = t.t[kGradWeight];
  for (int64_t i = 0; i < gw.numel(); ++i) {
    const int64_t kh = (i / 3) % 3, kw = i % 3;
    ASSERT_EQ(gw.get(i), 2.0 * (kh == 1 ? 10 : 9) * (kw == 1 ? 10 : 9)) << i;
  }
  EXPECT_TRUE(all_equal(t.t[kGradBias], 200));
}

TEST(ConformanceSamples, S3ThreeDimensional) {
  const ConvCase c =
      parse_case("mb2_g1_ic2oc2_id7ih7iw7_kd1kh1kw1_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1_dtf32_mask111_cmt1", Data::kOnes);
  CaseTensors t(c);
  ASSERT_TRUE(check_case(c, t));
  EXPECT_TRUE(all_equal(t.t[kGradInput], 2));
  EXPECT_TRUE(all_equal(t.t[kGradWeight], 686));
  EXPECT_TRUE(all_equal(t.t[kGradBias], 686));
}

// ttk_003: groups 4, dilation [4,7], padding [3,4]: gradOutput is [1,12,6,1].
TEST(ConformanceSamples, Ttk003GroupedDilated) {
  ConvCase c = parse_case("mb1_g4_ic12oc12_ih16iw21_kh5kw5_sh1sw1_ph3pw4_dh4dw7_dtf32_mask111_cmt0_Ascend950");
  CaseTensors t(c);
  ASSERT_EQ(t.t[kGradOutput].shape(), (std::vector<int64_t>{1, 12, 6, 1}));
  EXPECT_TRUE(check_case(c, t));
  c.data = Data::kIntegers;
  EXPECT_TRUE(check_case(c));
}

// ttk_001: transposed, empty batch: gradInput empty, gradWeight and gradBias zero.
TEST(ConformanceSamples, Ttk001TransposedEmptyBatch) {
  const ConvCase c = parse_case("mb0_g1_ic1oc1_iw1_ow1_kw1_sw1_pw0_dw1_tr1_opw0_dtf16_mask111_cmt0_Ascend950");
  CaseTensors t(c);
  ASSERT_TRUE(check_case(c, t));
  EXPECT_TRUE(all_equal(t.t[kGradWeight], 0));
  EXPECT_TRUE(all_equal(t.t[kGradBias], 0));
}

}  // namespace
}  // namespace conformance
