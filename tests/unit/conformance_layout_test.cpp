// Non-contiguous tensors through the direct path: permuted strides (channels-last and others), gaps between
// elements, storage offsets — on each tensor alone and on all six at once, inputs and outputs alike.
#include <gtest/gtest.h>

#include "conformance_harness.hpp"

namespace conformance {
namespace {

std::vector<Layout> layouts_for_rank(int rank) {
  std::vector<int> natural(rank), channels_last(rank), reversed(rank);
  for (int i = 0; i < rank; ++i) natural[i] = i;
  channels_last[0] = 0;
  for (int i = 1; i < rank - 1; ++i) channels_last[i] = i + 1;
  channels_last[rank - 1] = rank > 1 ? 1 : 0;
  for (int i = 0; i < rank; ++i) reversed[i] = rank - 1 - i;
  return {Layout{channels_last, 1, 0}, Layout{natural, 2, 0}, Layout{natural, 1, 5}, Layout{reversed, 3, 7}};
}

TEST(ConformanceLayout, EachTensorAloneAndAllTogether) {
  const char *geometries[] = {
      "mb2_g2_ic4oc6_ih6iw5_kh3kw2_sh2sw1_ph1:0pw1_dh1dw2_dtf16_cmt0", "mb2_g1_ic3oc2_iw7_kw3_sw2_pw1_dw1_tr1_opw1",
      "mb1_g2_ic2oc4_id3ih4iw3_kd2kh2kw2_sd1sh2sw1_pd1ph0pw1_dd1dh1dw1_dtbf16:bf16:bf16:f32:f32:bf16"};
  for (const char *geometry : geometries) {
    const ConvCase base = parse_case(geometry, Data::kIntegers, 31);
    for (int s = 0; s < kSlots; ++s) {
      const int rank = s == kGradBias ? 1 : base.desc.spatial_rank + 2;
      for (const Layout &l : layouts_for_rank(rank)) {
        ConvCase c = base;
        c.layout[s] = l;
        EXPECT_TRUE(check_case(c)) << kSlotName[s] << " non-contiguous";
      }
    }
    for (size_t k = 0; k < 4; ++k) {
      ConvCase c = base;
      c.data = Data::kRandom;
      for (int s = 0; s < kSlots; ++s)
        c.layout[s] = layouts_for_rank(s == kGradBias ? 1 : base.desc.spatial_rank + 2)[k];
      EXPECT_TRUE(check_case(c)) << "all tensors non-contiguous, layout " << k;
    }
  }
}

// torch_npu test_noncontig_conv_grad: gradOutput a slice [:, 1] of a [2,2,5,10,10] tensor, i.e. channel
// stride 500 and a storage offset of 500... expressed here as a gap-and-offset layout of the same shape.
TEST(ConformanceLayout, SlicedGradOutput) {
  ConvCase c = parse_case("mb2_g1_ic3oc5_ih10iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1", Data::kRandom, 32);
  c.layout[kGradOutput] = Layout{{0, 1, 2, 3}, 2, 1};
  EXPECT_TRUE(check_case(c));
}

}  // namespace
}  // namespace conformance
