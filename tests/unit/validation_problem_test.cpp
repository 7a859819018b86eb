// The Problem a successful validation fills: tensor copies, attributes lifted to D/H/W, paths, precision.
#include "validation_support.hpp"

namespace validation_test {
namespace {

using aclnn_cpu::conv_bwd::ComputeType;
using ValidationProblem = ValidationTest;

Problem validated(const Spec &spec) {
  Problem p;
  Built b(spec);
  EXPECT_EQ(b.validate(&p), ACLNN_SUCCESS) << last_error();
  return p;
}

void expect_triple(const int64_t (&got)[3], int64_t d, int64_t h, int64_t w, const char *what) {
  EXPECT_EQ(got[0], d) << what << " D";
  EXPECT_EQ(got[1], h) << what << " H";
  EXPECT_EQ(got[2], w) << what << " W";
}

TEST_F(ValidationProblem, OneDimAttributesGoToW) {
  Spec s = base_1d();
  s.stride = Shape{2};
  s.padding = Shape{1};
  s.dilation = Shape{3};
  s.grad_output->shape = {2, 8, 6};  // (16 + 2 - 6 - 1) / 2 + 1
  const Problem p = validated(s);
  EXPECT_EQ(p.rank, 3);
  expect_triple(p.stride, 1, 1, 2, "stride");
  expect_triple(p.dilation, 1, 1, 3, "dilation");
  expect_triple(p.pad_begin, 0, 0, 1, "pad_begin");
  expect_triple(p.pad_end, 0, 0, 1, "pad_end");
  expect_triple(p.output_padding, 0, 0, 0, "output_padding");
}

TEST_F(ValidationProblem, TwoDimAttributesGoToHAndW) {
  Spec s = base_case();
  s.stride = Shape{2, 3};
  s.dilation = Shape{1, 2};
  s.padding = Shape{1, 2};
  s.grad_output->shape = {1, 16, 5, 4};  // H (10+2-3)/2+1 = 5, W (10+4-5)/3+1 = 4
  const Problem p = validated(s);
  EXPECT_EQ(p.rank, 4);
  expect_triple(p.stride, 1, 2, 3, "stride");
  expect_triple(p.dilation, 1, 1, 2, "dilation");
  expect_triple(p.pad_begin, 0, 1, 2, "pad_begin");
  expect_triple(p.pad_end, 0, 1, 2, "pad_end");
}

TEST_F(ValidationProblem, FourValuePaddingIsTopBottomLeftRight) {
  Spec s = base_case();
  s.padding = Shape{1, 0, 2, 1};
  s.grad_output->shape = {1, 16, 9, 11};
  const Problem p = validated(s);
  expect_triple(p.pad_begin, 0, 1, 2, "pad_begin");
  expect_triple(p.pad_end, 0, 0, 1, "pad_end");
}

TEST_F(ValidationProblem, ThreeDimAttributesKeepTheirPlaces) {
  Spec s = base_3d();
  s.stride = Shape{2, 1, 1};
  s.padding = Shape{1, 0, 0};
  s.dilation = Shape{1, 1, 1};
  const Problem p = validated(s);  // D: (2 + 2 - 1) / 2 + 1 = 2
  EXPECT_EQ(p.rank, 5);
  expect_triple(p.stride, 2, 1, 1, "stride");
  expect_triple(p.pad_begin, 1, 0, 0, "pad_begin");
  expect_triple(p.pad_end, 1, 0, 0, "pad_end");
}

TEST_F(ValidationProblem, OutputPaddingFromTwoAndFourValues) {
  Spec s = base_transposed();
  s.stride = Shape{2, 2};
  s.output_padding = Shape{1, 0};
  s.grad_output->shape = {1, 8, 12, 11};
  Problem p = validated(s);
  EXPECT_TRUE(p.transposed);
  expect_triple(p.output_padding, 0, 1, 0, "output_padding");
  s.output_padding = Shape{0, 5, 1, 7};  // entries [0] (H) and [2] (W)
  s.grad_output->shape = {1, 8, 11, 12};
  p = validated(s);
  expect_triple(p.output_padding, 0, 0, 1, "output_padding");
}

TEST_F(ValidationProblem, TensorsAreCopiedWithTheirViews) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{0, 1, 1};
  s.grad_input.reset();
  Built b(s);
  b.tensor(2).strides = {1, 16, 16 * 16 * 3, 16 * 16};
  b.tensor(2).offset = 5;
  Problem p;
  ASSERT_EQ(b.validate(&p), ACLNN_SUCCESS) << last_error();
  EXPECT_TRUE(p.weight.present);
  EXPECT_EQ(p.weight.dtype, ACL_FLOAT16);
  EXPECT_EQ(p.weight.shape, (Shape{16, 16, 3, 3}));
  EXPECT_EQ(p.weight.strides, (Shape{1, 16, 768, 256}));
  EXPECT_EQ(p.weight.offset, 5);
  EXPECT_EQ(p.weight.data, b.tensor(2).data);
  EXPECT_EQ(p.weight.numel, 16 * 16 * 9);
  EXPECT_EQ(p.input.numel, 1600);
  EXPECT_EQ(p.grad_output.shape, (Shape{1, 16, 8, 8}));
  EXPECT_FALSE(p.grad_input.present);
  EXPECT_TRUE(p.grad_bias.present);
  EXPECT_EQ(p.grad_bias.shape, (Shape{16}));
  EXPECT_FALSE(p.mask[0]);
  EXPECT_TRUE(p.mask[1]);
  EXPECT_TRUE(p.mask[2]);
}

TEST_F(ValidationProblem, CallFlags) {
  Spec s = base_case();
  s.groups = 2;
  s.weight->shape = {16, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  s.cube_math_type = 3;
  const Problem p = validated(s);
  EXPECT_EQ(p.groups, 2);
  EXPECT_EQ(p.cube_math_type, 3);
  EXPECT_FALSE(p.transposed);
  EXPECT_FALSE(p.empty_path);
}

TEST_F(ValidationProblem, EmptyPath) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  const Problem p = validated(s);
  EXPECT_TRUE(p.empty_path);
  EXPECT_EQ(p.input.numel, 0);
  EXPECT_EQ(p.grad_output.numel, 0);
  EXPECT_EQ(p.weight.numel, 16 * 16 * 9);
}

TEST_F(ValidationProblem, PromotedDtype) {
  struct Case {
    aclDataType grad_output, input, weight, promoted;
  };
  const Case cases[] = {
      {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16}, {ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16},
      {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},         {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT},
      {ACL_FLOAT16, ACL_FLOAT16, ACL_BF16, ACL_FLOAT},      {ACL_BF16, ACL_FLOAT, ACL_BF16, ACL_FLOAT},
  };
  for (const Case &c : cases) {
    Spec s = base_case();
    s.grad_output->dtype = c.grad_output;
    s.input->dtype = c.input;
    s.weight->dtype = c.weight;
    EXPECT_EQ(validated(s).promoted, c.promoted) << c.grad_output << " " << c.input << " " << c.weight;
  }
}

// docs/contract.md §3.5, written out per product: expected compute type for FLOAT, FLOAT16, BF16 by cmt.
struct ComputeRow {
  Product product;
  int cmt;
  ComputeType fp32, fp16, bf16;
};

TEST_F(ValidationProblem, ComputeTypeTable) {
  const ComputeType F32 = ComputeType::kFp32, H = ComputeType::kHf32, F16 = ComputeType::kFp16,
                    B16 = ComputeType::kBf16;
  const ComputeRow rows[] = {
      {Product::kAscend910B, 0, F32, F16, B16},   {Product::kAscend910B, 1, H, F16, B16},
      {Product::kAscend910B, 2, F16, F16, F16},   {Product::kAscend910B, 3, H, F16, B16},
      {Product::kAscend910_93, 0, F32, F16, B16}, {Product::kAscend910_93, 1, H, F16, B16},
      {Product::kAscend910_93, 2, F16, F16, F16}, {Product::kAscend910_93, 3, H, F16, B16},
      {Product::kAscend950, 0, F32, F16, B16},    {Product::kAscend950, 1, H, F16, B16},
      {Product::kAscend950, 2, F16, F16, F16},    {Product::kAscend950, 3, H, F16, B16},
  };
  for (const ComputeRow &r : rows) {
    use(r.product);
    const aclDataType dtypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    const ComputeType expected[3] = {r.fp32, r.fp16, r.bf16};
    for (int i = 0; i < 3; ++i) {
      SCOPED_TRACE(std::string(aclnn_cpu::product_name(r.product)) + " cmt " + std::to_string(r.cmt) + " dtype " +
                   std::to_string(dtypes[i]));
      Spec s = base_case();
      s.set_dtype(dtypes[i]);
      s.cube_math_type = static_cast<int8_t>(r.cmt);
      EXPECT_EQ(validated(s).compute, expected[i]);
    }
  }
}

TEST_F(ValidationProblem, ComputeTypeOnLegacyIsAlwaysFp16) {
  for (Product product : {Product::kAscend910, Product::kAscend310P}) {
    use(product);
    for (int cmt = 0; cmt <= 3; ++cmt) {
      Spec s = base_case();
      s.cube_math_type = static_cast<int8_t>(cmt);
      EXPECT_EQ(validated(s).compute, ComputeType::kFp16) << cmt;
      if (cmt == 1 || cmt == 2) {  // FLOAT is accepted only where it computes in FP16
        s.set_dtype(ACL_FLOAT);
        EXPECT_EQ(validated(s).compute, ComputeType::kFp16) << cmt;
      }
    }
  }
}

TEST_F(ValidationProblem, MixedHalfInputsPromoteToFloatAndUseHf32) {
  Spec s = base_case();
  s.weight->dtype = ACL_BF16;
  s.cube_math_type = 1;
  const Problem p = validated(s);
  EXPECT_EQ(p.promoted, ACL_FLOAT);
  EXPECT_EQ(p.compute, ComputeType::kHf32);
}

TEST_F(ValidationProblem, Hif8StaysHif8On950) {
  use(Product::kAscend950);
  for (int cmt = 0; cmt <= 3; ++cmt) {
    Spec s = base_transposed();
    s.set_dtype(ACL_HIFLOAT8);
    s.grad_weight->dtype = ACL_FLOAT;
    s.grad_bias.reset();
    s.mask = std::vector<uint8_t>{1, 1, 0};
    s.cube_math_type = static_cast<int8_t>(cmt);
    const Problem p = validated(s);
    EXPECT_EQ(p.promoted, ACL_HIFLOAT8);
    EXPECT_EQ(p.compute, ComputeType::kHif8) << cmt;
  }
}

TEST_F(ValidationProblem, Hf32MantissaBitsAndProductPerSoc) {
  const struct {
    Product product;
    int bits;
  } cases[] = {{Product::kAscend910B, 11}, {Product::kAscend910_93, 11}, {Product::kAscend950, 10}};
  for (const auto &c : cases) {
    use(c.product);
    Spec s = base_case();
    s.set_dtype(ACL_FLOAT);
    s.cube_math_type = 1;
    const Problem p = validated(s);
    EXPECT_EQ(p.hf32_mantissa_bits, c.bits) << aclnn_cpu::product_name(c.product);
    EXPECT_EQ(p.product, c.product);
  }
}

TEST_F(ValidationProblem, RoundingSettingsAreCopied) {
  const aclnn_cpu::Settings now = aclnn_cpu::settings();
  const Problem p = validated(base_case());
  EXPECT_EQ(p.hf32_rounding, now.hf32_rounding);
  EXPECT_EQ(p.fp8_overflow, now.fp8_overflow);
}

}  // namespace
}  // namespace validation_test
