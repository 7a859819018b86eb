// Mixed and 8-bit dtypes, gapped/permuted/offset views, on the GEMM paths under ASan/UBSan
// (run also with ACLNN_CPU_ALGO=-gemm_backward_data for the flipped forward GEMM, and each ACLNN_CPU_MAX_ISA).
#include <gtest/gtest.h>

#include "conformance_harness.hpp"

namespace conformance {
namespace {

const char *const kGeometries[] = {
    "mb2_g2_ic4oc6_ih9iw7_kh3kw2_ph1pw1",                      // stride 1: backward_data or flipped forward
    "mb1_g1_ic3oc5_ih9iw9_kh3kw3_sh2sw2_ph1pw1",               // strided
    "mb1_g1_ic3oc2_ih5iw5_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1",  // transposed
    "mb2_g1_ic3oc2_iw700_kw3_pw2_dw2",                         // NT gradWeight
};
const char *const kDtypes[] = {
    "_dtf16:f16:f16:f32:f32:f16_cmt0",
    "_dtbf16:bf16:bf16:bf16:f32:bf16_cmt0",
    "_dtf32:f32:f32:f16:bf16:f32_cmt1",
    "_dtf32:f32:f32:f32:f32:f32_cmt2",
    "_dthif8:hif8:hif8:hif8:f32:-_mask110_cmt0_Ascend950",
};

TEST(ConformanceDtypesLayouts, MixedDtypesAndViews) {
  for (const char *g : kGeometries) {
    for (const char *d : kDtypes) {
      const std::string text = std::string(g) + d;
      if (std::string(d).find("hif8") != std::string::npos && std::string(g).find("tr1") != std::string::npos) continue;
      ConvCase c = parse_case(text, Data::kRandom, 41);
      EXPECT_TRUE(check_case(c)) << text;
      const int rank = c.desc.spatial_rank + 2;
      std::vector<int> reversed(rank);
      for (int i = 0; i < rank; ++i) reversed[i] = rank - 1 - i;
      for (int s = kGradOutput; s < kSlots; ++s) {
        if (s != kGradBias) c.layout[s] = Layout{reversed, 1 + s % 3, 1 + s};
      }
      EXPECT_TRUE(check_case(c)) << text << " reversed, gapped, offset views";
    }
  }
}

}  // namespace
}  // namespace conformance
