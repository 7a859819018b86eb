// The problem descriptor (src/conv_bwd/descriptor.hpp): its text form, reading it back, defaults and errors.
#include <gtest/gtest.h>

#include "conformance_cases.hpp"
#include "conv_bwd/descriptor.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

void expect_same(const ConvDesc &a, const ConvDesc &b, const std::string &text) {
  EXPECT_EQ(a.spatial_rank, b.spatial_rank) << text;
  EXPECT_EQ(a.transposed, b.transposed) << text;
  EXPECT_EQ(a.mb, b.mb) << text;
  EXPECT_EQ(a.groups, b.groups) << text;
  EXPECT_EQ(a.ic, b.ic) << text;
  EXPECT_EQ(a.oc, b.oc) << text;
  for (int d = 3 - a.spatial_rank; d < 3; ++d) {
    EXPECT_EQ(a.in[d], b.in[d]) << text;
    EXPECT_EQ(a.out[d], b.out[d]) << text;
    EXPECT_EQ(a.kernel[d], b.kernel[d]) << text;
    EXPECT_EQ(a.stride[d], b.stride[d]) << text;
    EXPECT_EQ(a.pad_begin[d], b.pad_begin[d]) << text;
    EXPECT_EQ(a.pad_end[d], b.pad_end[d]) << text;
    EXPECT_EQ(a.dilation[d], b.dilation[d]) << text;
    if (a.transposed) {
      EXPECT_EQ(a.output_padding[d], b.output_padding[d]) << text;
    }
  }
  for (int t = 0; t < 6; ++t) {
    EXPECT_EQ(a.present[t], b.present[t]) << text;
    if (a.present[t]) {
      EXPECT_EQ(a.dtype[t], b.dtype[t]) << text;
    }
  }
  for (int m = 0; m < 3; ++m) EXPECT_EQ(a.mask[m], b.mask[m]) << text;
  EXPECT_EQ(a.cube_math_type, b.cube_math_type) << text;
  EXPECT_EQ(a.product, b.product) << text;
}

TEST(CanonicalDescriptor, SeedSampleLine) {
  ConvDesc d;
  d.mb = 2;
  d.ic = d.oc = 2;
  d.in[1] = d.in[2] = d.out[1] = d.out[2] = 7;
  d.cube_math_type = 1;
  EXPECT_EQ(format_desc(d), "mb2_g1_ic2oc2_ih7iw7_oh7ow7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1_Ascend910B");
}

TEST(CanonicalDescriptor, EveryFieldIsWrittenAndReadBack) {
  ConvDesc d;
  d.spatial_rank = 2;
  d.transposed = true;
  d.mb = 3;
  d.groups = 2;
  d.ic = 4;
  d.oc = 6;
  d.in[1] = 5;
  d.in[2] = 6;
  d.kernel[1] = 3;
  d.kernel[2] = 2;
  d.stride[1] = 2;
  d.stride[2] = 3;
  d.pad_begin[1] = 1;
  d.pad_end[1] = 2;
  d.dilation[2] = 2;
  d.output_padding[1] = 1;
  for (int i = 0; i < 3; ++i) d.out[i] = implied_out_size(d, i);
  d.dtype[0] = ACL_FLOAT16;
  d.dtype[2] = ACL_BF16;
  d.present[kDescGradBias] = false;
  d.mask[2] = false;
  d.cube_math_type = 3;
  d.product = Product::kAscend910_93;
  const std::string text = format_desc(d);
  EXPECT_EQ(text,
            "mb3_g2_ic4oc6_ih5iw6_oh9ow18_kh3kw2_sh2sw3_ph1:2pw0_dh1dw2_tr1_oph1opw0_dtf16:f32:bf16:f32:f32:-"
            "_mask110_cmt3_Ascend910_93");
  ConvDesc back;
  std::string error;
  ASSERT_TRUE(parse_desc(text, &back, &error)) << error;
  expect_same(d, back, text);
}

TEST(CanonicalDescriptor, RandomConfigurationsRoundTrip) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const ConvDesc d = conformance::random_case(seed).desc;
    const std::string text = format_desc(d);
    ConvDesc back;
    std::string error;
    ASSERT_TRUE(parse_desc(text, &back, &error)) << text << ": " << error;
    expect_same(d, back, text);
    EXPECT_EQ(format_desc(back), text);
  }
}

TEST(CanonicalDescriptor, OmittedFieldsTakeDefaultsAndGradOutputSizesAreImplied) {
  ConvDesc d;
  std::string error;
  ASSERT_TRUE(parse_desc("ic3oc4_iw9_kw3", &d, &error)) << error;
  EXPECT_EQ(d.spatial_rank, 1);
  EXPECT_EQ(d.mb, 1);
  EXPECT_EQ(d.out[2], 7);
  EXPECT_EQ(d.dtype[kDescGradBias], ACL_FLOAT);
  EXPECT_EQ(d.product, Product::kAscend910B);
  // ttk_003: Ho = 16 + 6 − 4·4 − 1 + 1 = 6, Wo = 21 + 8 − 7·4 − 1 + 1 = 1.
  ASSERT_TRUE(parse_desc("mb1_g4_ic12oc12_ih16iw21_kh5kw5_ph3pw4_dh4dw7", &d, &error)) << error;
  EXPECT_EQ(d.spatial_rank, 2);
  EXPECT_EQ(d.out[1], 6);
  EXPECT_EQ(d.out[2], 1);
  // Transposed: Out = (In − 1)·s − (pb + pe) + dil·(k − 1) + outputPadding + 1 = 4·2 − 2 + 2 + 1 + 1.
  ASSERT_TRUE(parse_desc("ic2oc2_iw5_kw3_sw2_pw1_tr1_opw1", &d, &error)) << error;
  EXPECT_EQ(d.out[2], 10);
  // Depth makes it 3-D; an explicit gradOutput size is kept as given.
  ASSERT_TRUE(parse_desc("id2ih3iw4_od9", &d, &error)) << error;
  EXPECT_EQ(d.spatial_rank, 3);
  EXPECT_EQ(d.out[0], 9);
  EXPECT_EQ(d.out[1], 3);
}

TEST(CanonicalDescriptor, BadLinesAreRejectedWithAReason) {
  const char *bad[] = {"mb2_xy3",
                       "mb2_mb3",
                       "ic2_dtf64",
                       "ic2_dtf32:f16",
                       "ic2_mask12",
                       "ic2_mask1111",
                       "ic2_Ascend310B",
                       "ic2_kh3:4",
                       "ic2_ih",
                       "ic2_7",
                       "ic2_dtf32:f32:-:f32:f32:f32"};
  for (const char *text : bad) {
    ConvDesc d;
    std::string error;
    EXPECT_FALSE(parse_desc(text, &d, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
  }
}

TEST(CanonicalDescriptor, ShapesFollowTheWeightConventionOfEachMode) {
  ConvDesc d;
  std::string error;
  ASSERT_TRUE(parse_desc("mb2_g2_ic4oc6_ih5iw5_kh3kw1", &d, &error)) << error;
  std::vector<int64_t> shapes[6];
  desc_shapes(d, shapes);
  EXPECT_EQ(shapes[kDescWeight], (std::vector<int64_t>{6, 2, 3, 1}));
  EXPECT_EQ(shapes[kDescGradOutput], (std::vector<int64_t>{2, 6, 3, 5}));
  EXPECT_EQ(shapes[kDescGradBias], (std::vector<int64_t>{6}));
  ASSERT_TRUE(parse_desc("mb2_g2_ic4oc6_ih5iw5_kh3kw1_tr1", &d, &error)) << error;
  desc_shapes(d, shapes);
  EXPECT_EQ(shapes[kDescWeight], (std::vector<int64_t>{4, 3, 3, 1}));
  EXPECT_EQ(shapes[kDescGradOutput], (std::vector<int64_t>{2, 6, 7, 5}));
  EXPECT_EQ(shapes[kDescGradInput], (std::vector<int64_t>{2, 4, 5, 5}));
}

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu
