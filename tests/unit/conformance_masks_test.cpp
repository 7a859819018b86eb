// outputMask and the empty-tensor path through the direct path: every mask combination, masked-off outputs
// passed or NULL (never written either way), and the zero fills of docs/contract.md §2.5 / §3.9.
#include <gtest/gtest.h>

#include "conformance_harness.hpp"

namespace conformance {
namespace {

std::string mask_text(int bits) {
  return std::string("_mask") + ((bits & 4) ? "1" : "0") + ((bits & 2) ? "1" : "0") + ((bits & 1) ? "1" : "0");
}

TEST(ConformanceMasks, EveryCombinationWithMaskedOffOutputsPassedOrNull) {
  const char *geometries[] = {"mb2_g2_ic4oc6_ih6iw5_kh3kw3_sh2sw1_ph1pw0_dh1dw1",
                              "mb1_g1_ic3oc2_iw6_kw3_sw2_pw1_dw1_tr1_opw1",
                              "mb1_g2_ic2oc4_id3ih3iw4_kd2kh2kw3_sd1sh1sw2_pd0ph1pw1_dd1dh1dw1"};
  for (const char *geometry : geometries) {
    for (int bits = 0; bits < 8; ++bits) {
      ConvCase c = parse_case(std::string(geometry) + mask_text(bits), Data::kIntegers, 21);
      EXPECT_TRUE(check_case(c));  // masked-off outputs present: must keep their poison
      for (int m = 0; m < 3; ++m) c.desc.present[kGradInput + m] = c.desc.mask[m];
      EXPECT_TRUE(check_case(c));  // masked-off outputs NULL
    }
  }
}

TEST(ConformanceMasks, EmptyBatchZeroFillsGradWeightAndGradBias) {
  for (int bits = 0; bits < 8; ++bits) {
    EXPECT_TRUE(check_case(parse_case("mb0_g1_ic4oc4_ih5iw5_kh3kw3_sh1sw1_ph1pw1_dh1dw1" + mask_text(bits))));
    EXPECT_TRUE(
        check_case(parse_case("mb0_g2_ic4oc4_ih6iw6_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1" + mask_text(bits))));
  }
  // ttk / UT cases 43-44 (950): non-transposed and transposed empty input, fp16.
  EXPECT_TRUE(check_case(parse_case("mb0_g1_ic16oc16_ih32iw16_kh3kw3_sh1sw2_ph1pw2_dh1dw2_dtf16_Ascend950")));
  EXPECT_TRUE(
      check_case(parse_case("mb0_g1_ic16oc16_ih32iw8_kh3kw3_sh1sw2_ph1pw2_dh1dw2_tr1_oph0opw0_dtf16_Ascend950")));
}

// Input C = 0 with weight [Cout, 0, k...]: gradOutput is not empty, yet the real op's empty path writes zeros to
// gradBias (docs/contract.md §2.5, §6 Q10: we follow the real op, not PyTorch).
TEST(ConformanceMasks, EmptyChannelsGiveZeroGradBiasEvenForNonEmptyGradOutput) {
  const ConvCase c = parse_case("mb2_g1_ic0oc8_iw15_kw2_sw2_pw0_dw1_mask111", Data::kOnes);
  CaseTensors t(c);
  ASSERT_GT(t.t[kGradOutput].numel(), 0);
  ASSERT_TRUE(check_case(c, t));
  for (int64_t i = 0; i < t.t[kGradBias].numel(); ++i) EXPECT_EQ(t.t[kGradBias].get(i), 0.0);
  EXPECT_EQ(t.t[kGradWeight].numel(), 0);
}

// torch_npu test_group_conv_empty / test_group_convTranspose_empty geometries.
TEST(ConformanceMasks, GroupedEmptyBatches) {
  EXPECT_TRUE(check_case(parse_case("mb0_g4_ic4oc4_ih4iw4_kh3kw3_sh2sw2_ph1pw1_dh1dw1")));
  EXPECT_TRUE(check_case(parse_case("mb0_g4_ic4oc4_ih4iw4_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1")));
  EXPECT_TRUE(check_case(parse_case("mb0_g1_ic2oc3_id2ih3iw3_kd2kh2kw2_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1")));
}

}  // namespace
}  // namespace conformance
