// V4 (formats and ranks), our view sanity checks, V5 (attribute lengths and values), V6 (cubeMathType).
#include <limits>

#include "validation_support.hpp"

namespace validation_test {
namespace {

using ValidationFormats = ValidationTest;
using ValidationViews = ValidationTest;
using ValidationAttributes = ValidationTest;
using ValidationCubeMath = ValidationTest;

// ---- V4 ----

TEST_F(ValidationFormats, FourDimTensorsMustBeNchw) {
  for (aclFormat f : {ACL_FORMAT_NHWC, ACL_FORMAT_ND, ACL_FORMAT_NCDHW}) {
    Spec s = base_case();
    s.input->format = f;
    expect(s, ACLNN_ERR_PARAM_INVALID, "format of input");
  }
}

TEST_F(ValidationFormats, ThreeDimTensorsAcceptNdAndNcl) {
  Spec s = base_1d();
  s.input->format = ACL_FORMAT_ND;
  s.grad_output->format = ACL_FORMAT_ND;
  expect(s, ACLNN_SUCCESS);
  s.weight->format = ACL_FORMAT_NCHW;
  expect(s, ACLNN_ERR_PARAM_INVALID, "format of weight");
}

TEST_F(ValidationFormats, FiveDimTensorsMustBeNcdhw) {
  Spec s = base_3d();
  s.grad_output->format = ACL_FORMAT_NDHWC;
  expect(s, ACLNN_ERR_PARAM_INVALID, "format of gradOutput");
}

TEST_F(ValidationFormats, RanksOtherThanThreeToFiveAreRejected) {
  for (Shape shape : {Shape{}, Shape{16, 10}, Shape{1, 16, 1, 1, 10, 10}}) {
    Spec s = base_case();
    s.input = TensorSpec(shape, ACL_FLOAT16, ACL_FORMAT_NCHW);
    expect(s, ACLNN_ERR_PARAM_INVALID, "invalid shape dim of input");
  }
  Spec s = base_case();
  s.grad_input = TensorSpec({}, ACL_FLOAT16, ACL_FORMAT_NCHW);
  expect(s, ACLNN_ERR_PARAM_INVALID, "invalid shape dim of gradInput");
}

TEST_F(ValidationFormats, MaskedOffOutputFormatIsStillChecked) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{1, 0, 1};
  s.grad_weight->format = ACL_FORMAT_NHWC;
  expect(s, ACLNN_ERR_PARAM_INVALID, "format of gradWeight");
}

TEST_F(ValidationFormats, GradBiasMustBeNdOnA2A3And950WhenNotTransposed) {
  Spec s = base_case();
  s.grad_bias->format = ACL_FORMAT_NCHW;
  for (Product p : {Product::kAscend910B, Product::kAscend910_93, Product::kAscend950}) {
    use(p);
    expect(s, ACLNN_ERR_PARAM_INVALID, "gradBias");
  }
  use(Product::kAscend910);
  expect(s, ACLNN_SUCCESS);
  use(Product::kAscend910B);
  Spec t = base_transposed();
  t.grad_bias->format = ACL_FORMAT_NCHW;
  expect(t, ACLNN_SUCCESS);
}

// ---- views (ours) ----

TEST_F(ValidationViews, NegativeDimIsRejected) {
  Spec s = base_case();
  s.weight->shape = {16, 16, -3, 3};
  expect(s, ACLNN_ERR_PARAM_INVALID, "weight");
  EXPECT_NE(last_error().find("negative dim"), std::string::npos);
}

TEST_F(ValidationViews, StrideCountMustMatchRank) {
  Built b(base_case());
  b.tensor(1).strides.pop_back();
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("input has 3 strides"), std::string::npos) << last_error();
}

TEST_F(ValidationViews, ElementCountOverflowIsRejected) {
  Spec s = base_case();
  const int64_t big = int64_t{1} << 32;
  s.input->shape = {big, big, 10, 10};
  expect(s, ACLNN_ERR_PARAM_INVALID, "overflows int64");
}

TEST_F(ValidationViews, HugeShapeWithAZeroDimIsEmpty) {
  // [0, 2^62, 2^62, 1] has no element; the product of the others would overflow.
  Spec s = base_case();
  const int64_t big = int64_t{1} << 62;
  s.input->shape = {0, 16, big, big};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  aclnn_cpu::conv_bwd::Problem p;
  Built b(s);
  EXPECT_EQ(b.validate(&p), ACLNN_SUCCESS) << last_error();
  EXPECT_TRUE(p.empty_path);
  EXPECT_EQ(p.input.numel, 0);
}

// ---- V5 ----

TEST_F(ValidationAttributes, ArrayLengths) {
  struct Case {
    const char *message;
    void (*change)(Spec &);
  };
  const Case cases[] = {
      {"expected stride to have 2 elements for a 4-dim input, but got 3",
       [](Spec &s) {
         s.stride = Shape{1, 1, 1};
       }},
      {"expected stride to have 2 elements",
       [](Spec &s) {
         s.stride = Shape{1, 1, 1, 1};
       }},
      {"expected dilation to have 2 elements", [](Spec &s) { s.dilation = Shape{1}; }},
      {"expected padding to have 2 or 4 elements",
       [](Spec &s) {
         s.padding = Shape{0, 0, 0};
       }},
      {"expected padding to have 2 or 4 elements", [](Spec &s) { s.padding = Shape{}; }},
      {"expected outputPadding to have 2 or 4 elements", [](Spec &s) { s.output_padding = Shape{0}; }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    Spec s = base_case();
    c.change(s);
    expect(s, ACLNN_ERR_PARAM_INVALID, c.message);
  }
}

TEST_F(ValidationAttributes, FourElementPaddingOnlyFor2d) {
  Spec s = base_case();
  s.padding = Shape{1, 1, 1, 1};
  s.grad_output->shape = {1, 16, 10, 10};
  expect(s, ACLNN_SUCCESS);
  Spec one = base_1d();
  one.padding = Shape{0, 0, 0, 0};
  expect(one, ACLNN_ERR_PARAM_INVALID, "expected padding to have 1 elements");
  Spec three = base_3d();
  three.padding = Shape{0, 0, 0, 0, 0, 0};
  expect(three, ACLNN_ERR_PARAM_INVALID, "expected padding to have 3 elements");
}

TEST_F(ValidationAttributes, FourElementOutputPaddingIsAcceptedFor2d) {
  Spec s = base_case();
  s.output_padding = Shape{0, 0, 0, 0};
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationAttributes, LengthsAreCheckedBeforeValues) {
  // A transposed 3-D outputPadding longer than stride: CANN's value loop would read past stride.
  Spec s = base_3d();
  s.transposed = true;
  s.output_padding = Shape{0, 0, 0, 0, 5};
  expect(s, ACLNN_ERR_PARAM_INVALID, "expected outputPadding to have 3 elements");
}

TEST_F(ValidationAttributes, Values) {
  struct Case {
    const char *message;
    void (*change)(Spec &);
  };
  const Case cases[] = {
      {"value of stride must be >= 1, but got [0, 1]",
       [](Spec &s) {
         s.stride = Shape{0, 1};
       }},
      {"value of padding must be >= 0, but got [-1, 0]",
       [](Spec &s) {
         s.padding = Shape{-1, 0};
       }},
      {"value of dilation must be >= 1, but got [0, 1]",
       [](Spec &s) {
         s.dilation = Shape{0, 1};
       }},
      {"outputPadding must be 0 when transposed is false",
       [](Spec &s) {
         s.output_padding = Shape{1, 0};
       }},
      {"value of groups must be >= 1, but got 0", [](Spec &s) { s.groups = 0; }},
      {"value of groups must be >= 1, but got -2", [](Spec &s) { s.groups = -2; }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    Spec s = base_case();
    c.change(s);
    expect(s, ACLNN_ERR_PARAM_INVALID, c.message);
  }
}

TEST_F(ValidationAttributes, TransposedOutputPaddingMustBeNonNegative) {
  Spec s = base_transposed();
  s.output_padding = Shape{0, -1};
  expect(s, ACLNN_ERR_PARAM_INVALID, "value of outputPadding must be >= 0");
}

TEST_F(ValidationAttributes, OutputPaddingBelowStrideOnlyChecksFor3dTransposed) {
  // 3-D transposed: outputPadding 1 with stride 1 → rejected.
  Spec s = base_3d();
  s.transposed = true;
  s.output_padding = Shape{0, 1, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "less than stride");
  // 2-D transposed (Q12): outputPadding 1 ≥ stride 1 is accepted; gradOutput grows by 1 per padded dim.
  Spec t = base_transposed();
  t.output_padding = Shape{1, 1};
  t.grad_output->shape = {1, 8, 8, 8};
  expect(t, ACLNN_SUCCESS);
}

// ---- V6 ----

TEST_F(ValidationCubeMath, RangeIsZeroToThree) {
  for (int cmt : {-1, 4, 127, -128}) {
    Spec s = base_case();
    s.cube_math_type = static_cast<int8_t>(cmt);
    expect(s, ACLNN_ERR_PARAM_INVALID, "cubeMathType");
  }
  for (int cmt = 0; cmt <= 3; ++cmt) {
    Spec s = base_case();
    s.cube_math_type = static_cast<int8_t>(cmt);
    expect(s, ACLNN_SUCCESS);
  }
}

TEST_F(ValidationCubeMath, LegacyCapabilityTable) {
  // FLOAT: 0 and 3 need an FP32 cube; 1 and 2 compute in FP16. FLOAT16: everything goes.
  const int float_expected[4] = {ACLNN_ERR_PARAM_INVALID, ACLNN_SUCCESS, ACLNN_SUCCESS, ACLNN_ERR_PARAM_INVALID};
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    for (int cmt = 0; cmt <= 3; ++cmt) {
      SCOPED_TRACE(cmt);
      Spec s = base_case();
      s.cube_math_type = static_cast<int8_t>(cmt);
      expect(s, ACLNN_SUCCESS);
      s.set_dtype(ACL_FLOAT);
      expect(s, float_expected[cmt], "does not support bf16/fp32");
    }
  }
}

TEST_F(ValidationCubeMath, LegacyUsesThePromotedDtype) {
  use(Product::kAscend910);
  Spec s = base_case();
  s.weight->dtype = ACL_FLOAT;  // FLOAT16 with FLOAT promotes to FLOAT
  expect(s, ACLNN_ERR_PARAM_INVALID, "promoted dtype is FLOAT");
}

TEST_F(ValidationCubeMath, A2A3And950AcceptEveryValueForEveryDtype) {
  for (Product p : {Product::kAscend910B, Product::kAscend950}) {
    use(p);
    for (aclDataType d : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (int cmt = 0; cmt <= 3; ++cmt) {
        Spec s = base_case();
        s.set_dtype(d);
        s.cube_math_type = static_cast<int8_t>(cmt);
        expect(s, ACLNN_SUCCESS);
      }
    }
  }
}

}  // namespace
}  // namespace validation_test
