// docs/contract.md §5.6: the negative cases N1–N28, each one change to the base case B (A2/A3 unless noted).
// N1–N26 run through conv_bwd::validate; N27 through the public phase-two entry point. N28 needs an executor
// with a positive workspace and is covered by executor_lifecycle_test.cpp (N28_*), owned by the API layer.
// Plus one end-to-end check that a validation failure reaches the caller through the public phase-one entry.
#include "aclnnop/aclnn_convolution_backward.h"
#include "validation_support.hpp"

namespace validation_test {
namespace {

using ValidationNegativeCases = ValidationTest;

TEST_F(ValidationNegativeCases, N1_NullArguments) {
  void (*const clears[])(Spec &) = {
      [](Spec &s) { s.grad_output.reset(); },    [](Spec &s) { s.input.reset(); },
      [](Spec &s) { s.weight.reset(); },         [](Spec &s) { s.stride.reset(); },
      [](Spec &s) { s.padding.reset(); },        [](Spec &s) { s.dilation.reset(); },
      [](Spec &s) { s.output_padding.reset(); }, [](Spec &s) { s.mask.reset(); },
  };
  for (auto clear : clears) {
    Spec s = base_case();
    clear(s);
    expect(s, ACLNN_ERR_PARAM_NULLPTR, "but got null for argument");
  }
}

TEST_F(ValidationNegativeCases, N2_OutputMaskOfLengthTwo) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{1, 1};
  expect(s, ACLNN_ERR_PARAM_NULLPTR, "outputMask");
}

TEST_F(ValidationNegativeCases, N3_RequestedOutputNull) {
  Spec a = base_case();
  a.grad_input.reset();
  expect(a, ACLNN_ERR_PARAM_NULLPTR, "gradInput");
  Spec b = base_case();
  b.grad_weight.reset();
  expect(b, ACLNN_ERR_PARAM_NULLPTR, "gradWeight");
  Spec c = base_case();
  c.grad_bias.reset();
  expect(c, ACLNN_ERR_PARAM_NULLPTR, "gradBias");
}

TEST_F(ValidationNegativeCases, N4_MaskedOffOutputMayBeNull) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{0, 1, 1};
  s.grad_input.reset();
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationNegativeCases, N5_NullBiasSizes) {
  Spec s = base_case();
  s.bias_sizes.reset();
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationNegativeCases, N6_UnsupportedInputDtype) {
  Spec s = base_case();
  s.input->dtype = ACL_INT32;
  expect(s, ACLNN_ERR_PARAM_INVALID, "input");
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    Spec b = base_case();
    b.input->dtype = ACL_BF16;
    expect(b, ACLNN_ERR_PARAM_INVALID, "input");
  }
}

TEST_F(ValidationNegativeCases, N7_FourDimInputFormat) {
  for (aclFormat f : {ACL_FORMAT_NHWC, ACL_FORMAT_ND}) {
    Spec s = base_case();
    s.input->format = f;
    expect(s, ACLNN_ERR_PARAM_INVALID, "input");
  }
}

TEST_F(ValidationNegativeCases, N8_GradBiasFormat) {
  Spec s = base_case();
  s.grad_bias->format = ACL_FORMAT_NCHW;
  for (Product p : {Product::kAscend910B, Product::kAscend950}) {
    use(p);
    expect(s, ACLNN_ERR_PARAM_INVALID, "gradBias");
  }
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    expect(s, ACLNN_SUCCESS);
  }
}

TEST_F(ValidationNegativeCases, N9_AttributeValues) {
  Spec a = base_case();
  a.stride = Shape{0, 1};
  expect(a, ACLNN_ERR_PARAM_INVALID, "stride");
  Spec b = base_case();
  b.padding = Shape{-1, 0};
  expect(b, ACLNN_ERR_PARAM_INVALID, "padding");
  Spec c = base_case();
  c.dilation = Shape{0, 1};
  expect(c, ACLNN_ERR_PARAM_INVALID, "dilation");
}

TEST_F(ValidationNegativeCases, N10_OutputPaddingWithoutTransposed) {
  Spec s = base_case();
  s.output_padding = Shape{1, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "outputPadding");
}

TEST_F(ValidationNegativeCases, N11_GroupsZero) {
  Spec s = base_case();
  s.groups = 0;
  expect(s, ACLNN_ERR_PARAM_INVALID, "groups");
}

TEST_F(ValidationNegativeCases, N12_CubeMathTypeOutOfRange) {
  for (int cmt : {4, -1}) {
    Spec s = base_case();
    s.cube_math_type = static_cast<int8_t>(cmt);
    expect(s, ACLNN_ERR_PARAM_INVALID, "cubeMathType");
  }
}

TEST_F(ValidationNegativeCases, N13_FloatKeepDtypeOnLegacy) {
  Spec s = base_case();
  s.set_dtype(ACL_FLOAT);
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    expect(s, ACLNN_ERR_PARAM_INVALID, "cubeMathType");
  }
}

TEST_F(ValidationNegativeCases, N14_GradInputShape) {
  Spec s = base_case();
  s.grad_input->shape = {1, 16, 10, 9};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradInput");
}

TEST_F(ValidationNegativeCases, N15_GradBiasShape) {
  for (Shape shape : {Shape{8}, Shape{16, 1}}) {
    Spec s = base_case();
    s.grad_bias->shape = shape;
    expect(s, ACLNN_ERR_PARAM_INVALID, "gradBias");
  }
}

TEST_F(ValidationNegativeCases, N16_ArrayLengths) {
  Spec a = base_case();
  a.stride = Shape{1, 1, 1};
  expect(a, ACLNN_ERR_PARAM_INVALID, "stride");
  Spec b = base_case();
  b.padding = Shape{0, 0, 0};
  expect(b, ACLNN_ERR_PARAM_INVALID, "padding");
}

TEST_F(ValidationNegativeCases, N17_FourElementPadding) {
  Spec s = base_case();
  s.padding = Shape{1, 1, 1, 1};
  s.grad_output->shape = {1, 16, 10, 10};
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationNegativeCases, N18_ChannelsOverWeightNotGroups) {
  Spec s = base_case();
  s.weight->shape = {16, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "groups");
}

TEST_F(ValidationNegativeCases, N19_TwoGroups) {
  Spec s = base_case();
  s.weight->shape = {16, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  s.groups = 2;
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationNegativeCases, N20_GradOutputChannels) {
  Spec s = base_case();
  s.grad_output->shape = {1, 12, 8, 8};
  s.grad_bias->shape = {12};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput");
}

TEST_F(ValidationNegativeCases, N21_WrongTwoDimSpatialSizeIsRejected) {
  // Not rejected by CANN's checker; rejected here (docs/contract.md §6 Q3).
  Spec s = base_case();
  s.grad_output->shape = {1, 16, 7, 7};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput");
}

TEST_F(ValidationNegativeCases, N22_WrongThreeDimSpatialSize) {
  Spec s = base_3d();
  s.grad_output->shape = {1, 16, 2, 7, 7};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput");
}

TEST_F(ValidationNegativeCases, N23_ThreeDimOnLegacy) {
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    expect(base_3d(), ACLNN_ERR_PARAM_INVALID, "3-D");
  }
}

TEST_F(ValidationNegativeCases, N24_EmptyInputWithoutBiasSizes) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  s.bias_sizes.reset();
  expect(s, ACLNN_ERR_PARAM_INVALID, "biasSizes");
}

TEST_F(ValidationNegativeCases, N25_EmptyInputWithWrongBiasSizes) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  s.bias_sizes = Shape{15};
  expect(s, ACLNN_ERR_PARAM_INVALID, "biasSizes");
}

TEST_F(ValidationNegativeCases, N26_EmptyGradOutputOnly) {
  Spec s = base_case();
  s.grad_output->shape = {0, 16, 8, 8};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput");
}

TEST_F(ValidationNegativeCases, N27_NullExecutorInPhaseTwo) {
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

// The public entry point runs this validator: a failure comes back with its status and message.
TEST_F(ValidationNegativeCases, PublicEntryPointReportsValidationFailures) {
  const int64_t go_dims[] = {1, 16, 7, 7};
  const int64_t in_dims[] = {1, 16, 10, 10};
  const int64_t w_dims[] = {16, 16, 3, 3};
  const int64_t ones[] = {1, 1};
  const int64_t zeros[] = {0, 0};
  const bool mask[] = {false, true, false};
  void *data = dummy_data();
  aclTensor *go = aclCreateTensor(go_dims, 4, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_NCHW, go_dims, 4, data);
  aclTensor *in = aclCreateTensor(in_dims, 4, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_NCHW, in_dims, 4, data);
  aclTensor *w = aclCreateTensor(w_dims, 4, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_NCHW, w_dims, 4, data);
  aclTensor *gw = aclCreateTensor(w_dims, 4, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_NCHW, w_dims, 4, data);
  aclIntArray *stride = aclCreateIntArray(ones, 2);
  aclIntArray *padding = aclCreateIntArray(zeros, 2);
  aclIntArray *dilation = aclCreateIntArray(ones, 2);
  aclIntArray *output_padding = aclCreateIntArray(zeros, 2);
  aclBoolArray *output_mask = aclCreateBoolArray(mask, 3);
  ASSERT_TRUE(go && in && w && gw && stride && padding && dilation && output_padding && output_mask);

  uint64_t workspace = 0;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(
      aclnnConvolutionBackwardGetWorkspaceSize(go, in, w, nullptr, stride, padding, dilation, false, output_padding, 1,
                                               output_mask, 0, nullptr, gw, nullptr, &workspace, &executor),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(executor, nullptr);
  const char *message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("the shape of gradOutput should equal [1, 16, 8, 8]"), std::string::npos)
      << message;

  for (const aclTensor *t : {go, in, w, gw}) aclDestroyTensor(t);
  for (const aclIntArray *a : {stride, padding, dilation, output_padding}) aclDestroyIntArray(a);
  aclDestroyBoolArray(output_mask);
}

}  // namespace
}  // namespace validation_test
