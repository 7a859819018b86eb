// V7 (empty short-circuit), V8 (ranks, output shapes), our memory checks (data pointers, signs, extents),
// V9 (channels/groups) with Q4, V10 (3-D spatial sizes) and Q3 (1-D/2-D gradOutput consistency).
#include "validation_support.hpp"

namespace validation_test {
namespace {

using ValidationShortCircuit = ValidationTest;
using ValidationShapes = ValidationTest;
using ValidationMemory = ValidationTest;
using ValidationChannels = ValidationTest;
using ValidationSpatial = ValidationTest;
using ValidationRootCause = ValidationTest;

// ---- V7 ----

TEST_F(ValidationShortCircuit, EmptyInputSkipsShapeRulesOnA2A3And950) {
  // gradOutput's batch does not match, but with an empty input CANN never compares them.
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = {0, 16, 10, 10};
  s.grad_output->shape = {3, 16, 8, 8};
  for (Product p : {Product::kAscend910B, Product::kAscend950}) {
    use(p);
    expect(s, ACLNN_SUCCESS);
  }
}

TEST_F(ValidationShortCircuit, EmptyWeightIsRejectedByV8OnLegacyOnly) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.weight->shape = {16, 16, 0, 0};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_SUCCESS);
  use(Product::kAscend910);
  expect(s, ACLNN_ERR_PARAM_INVALID, "do not support empty tensors: weight");
}

// ---- V8 ----

TEST_F(ValidationShapes, RanksMustMatch) {
  Spec s = base_case();
  s.grad_output = TensorSpec({1, 16, 1, 8, 8}, ACL_FLOAT16);
  expect(s, ACLNN_ERR_PARAM_INVALID, "the dim of gradOutput");
  s = base_case();
  s.weight = TensorSpec({16, 16, 3}, ACL_FLOAT16);
  expect(s, ACLNN_ERR_PARAM_INVALID, "the dim of input");
}

TEST_F(ValidationShapes, EmptyGradOutputWithNonEmptyInputAndWeight) {
  Spec s = base_case();
  s.grad_output->shape = {0, 16, 8, 8};
  expect(s, ACLNN_ERR_PARAM_INVALID, "do not support empty tensors: gradOutput");
}

TEST_F(ValidationShapes, OutputShapesMustMatch) {
  Spec s = base_case();
  s.grad_input->shape = {1, 16, 10, 9};
  expect(s, ACLNN_ERR_PARAM_INVALID, "Expected tensor for gradInput to have same size as tensor for input");
  s = base_case();
  s.grad_weight->shape = {16, 16, 3, 1};
  expect(s, ACLNN_ERR_PARAM_INVALID, "Expected tensor for gradWeight");
  for (Shape bias : {Shape{8}, Shape{16, 1}, Shape{}}) {
    s = base_case();
    s.grad_bias->shape = bias;
    expect(s, ACLNN_ERR_PARAM_INVALID, "gradBias must be 1-D");
  }
}

TEST_F(ValidationShapes, MaskedOffOutputShapesAreStillChecked) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{0, 1, 1};
  s.grad_input->shape = {1, 16, 10, 9};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradInput");
}

// ---- memory (ours; bounds against aclrtMalloc are in validation_bounds_test.cpp) ----

TEST_F(ValidationMemory, NonEmptyTensorWithNullDataIs161001) {
  for (int slot = 0; slot < 6; ++slot) {
    SCOPED_TRACE(slot);
    Built b(base_case());
    b.tensor(slot).data = nullptr;
    EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(last_error().find("data pointer is null"), std::string::npos) << last_error();
  }
}

TEST_F(ValidationMemory, MaskedOffOutputMayHaveNullData) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{0, 1, 1};
  Built b(s);
  b.tensor(3).data = nullptr;
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationMemory, EmptyTensorMayHaveNullData) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  Built b(s);
  EXPECT_EQ(b.tensor(1).data, nullptr);
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationMemory, NegativeStrideOrOffsetIsRejected) {
  Built a(base_case());
  a.tensor(2).strides[3] = -1;
  EXPECT_EQ(a.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("weight"), std::string::npos) << last_error();
  Built b(base_case());
  b.tensor(0).offset = -4;
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("negative offset or stride"), std::string::npos) << last_error();
}

TEST_F(ValidationMemory, NonContiguousAndBroadcastInputsAreAccepted) {
  Built b(base_case());
  b.tensor(1).strides = {0, 0, 0, 0};  // a broadcast scalar
  b.tensor(2).strides = {1, 16, 16 * 16 * 3, 16 * 16};
  b.tensor(2).offset = 7;
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationMemory, ExtentOverflowIsRejected) {
  Built b(base_case());
  b.tensor(1).strides = {int64_t{1} << 62, 1, 1, 1};
  b.tensor(1).view_shape = {3, 16, 10, 10};
  b.tensor(3).view_shape = {3, 16, 10, 10};
  b.tensor(0).view_shape = {3, 16, 8, 8};
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("input"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("overflows"), std::string::npos) << last_error();
}

TEST_F(ValidationMemory, ByteExtentOverflowIsRejected) {
  // The element index fits in int64 but times 2 bytes (FLOAT16) it does not.
  Built b(base_case());
  b.tensor(1).offset = (int64_t{1} << 62) + 1;
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("overflows"), std::string::npos) << last_error();
}

// ---- V9 ----

TEST_F(ValidationChannels, GradOutputChannelsMustEqualWeightOut) {
  Spec s = base_case();
  s.grad_output->shape = {1, 12, 8, 8};
  s.grad_bias->shape = {12};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput.shape[1] = 12");
}

TEST_F(ValidationChannels, InputChannelsOverWeightInMustEqualGroups) {
  Spec s = base_case();
  s.weight->shape = {16, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "must equal groups");
  s.groups = 2;
  expect(s, ACLNN_SUCCESS);
  s.weight->shape = {16, 3, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "must be a multiple of weight.shape[1] = 3");
}

TEST_F(ValidationChannels, TransposedUsesGradOutputAsX) {
  Spec s = base_transposed();  // gradOutput C 8 = weight.shape[1] 8 * groups 1
  s.groups = 2;
  s.weight->shape = {16, 4, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_SUCCESS);
  s.groups = 1;
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput.shape[1] = 8 (shape [1, 8, 7, 7]) divided by");
  s = base_transposed();
  s.input->shape = {1, 12, 5, 5};
  s.grad_input->shape = s.input->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "input.shape[1] = 12");
}

TEST_F(ValidationChannels, WeightOutMustBeAMultipleOfGroups) {
  // Q4: CANN's checker accepts this (17 output channels in 2 groups); we reject it.
  Spec s = base_case();
  s.groups = 2;
  s.weight->shape = {17, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  s.grad_output->shape = {1, 17, 8, 8};
  s.grad_bias->shape = {17};
  expect(s, ACLNN_ERR_PARAM_INVALID, "weight.shape[0] = 17");
}

TEST_F(ValidationChannels, LegacyDepthwiseRule) {
  // V9.4 on a legacy product: with input C == groups, gradOutput C must be a positive multiple of groups. Only
  // reachable when the call goes the empty path there (input N = 0, gradOutput not empty).
  Spec s;
  s.grad_output = TensorSpec({1, 2, 3, 3}, ACL_FLOAT16);
  s.input = TensorSpec({0, 4, 5, 5}, ACL_FLOAT16);
  s.weight = TensorSpec({2, 1, 3, 3}, ACL_FLOAT16);
  s.bias_sizes = Shape{2};
  s.stride = Shape{1, 1};
  s.padding = Shape{0, 0};
  s.dilation = Shape{1, 1};
  s.output_padding = Shape{0, 0};
  s.groups = 4;
  fill_outputs(s);
  use(Product::kAscend910);
  expect(s, ACLNN_ERR_PARAM_INVALID, "positive multiple of groups");
}

// ---- V10 (3-D) ----

TEST_F(ValidationSpatial, ThreeDimGradOutputMustHaveTheForwardSize) {
  Spec s = base_3d();
  s.grad_output->shape = {1, 16, 2, 7, 7};
  expect(s, ACLNN_ERR_PARAM_INVALID, "the shape of gradOutput should equal [1, 16, 2, 8, 8]");
}

TEST_F(ValidationSpatial, ThreeDimKernelLargerThanPaddedInput) {
  Spec s = base_3d();
  s.weight->shape = {16, 16, 3, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "dilated kernel is larger than the padded input");
}

TEST_F(ValidationSpatial, ThreeDimTransposedAcceptsAnySizeAnOutputPaddingBelowStrideGives) {
  Spec s = base_3d();
  s.transposed = true;
  s.stride = Shape{1, 2, 2};
  s.input->shape = {1, 16, 2, 3, 3};
  s.grad_input->shape = s.input->shape;
  // (3-1)*2 + 3 = 7 with outputPadding 0, 8 with outputPadding 1; both pass although outputPadding is 0.
  for (int64_t size : {7, 8}) {
    s.grad_output->shape = {1, 16, 2, size, size};
    expect(s, ACLNN_SUCCESS);
  }
  s.grad_output->shape = {1, 16, 2, 9, 9};
  expect(s, ACLNN_ERR_PARAM_INVALID, "the shape of input should equal");
}

TEST_F(ValidationSpatial, ThreeDimBatchMismatchFailsLikeTheKernel) {
  Spec s = base_3d();
  s.grad_output->shape = {2, 16, 2, 8, 8};
  expect(s, ACLNN_ERR_INNER_NULLPTR, "batch size of gradOutput");
}

// ---- Q3 (1-D / 2-D) ----

TEST_F(ValidationSpatial, TwoDimGradOutputMustHaveTheForwardSize) {
  Spec s = base_case();
  s.grad_output->shape = {1, 16, 7, 7};
  expect(s, ACLNN_ERR_PARAM_INVALID, "the shape of gradOutput should equal [1, 16, 8, 8]");
}

TEST_F(ValidationSpatial, OneDimGradOutputMustHaveTheForwardSize) {
  Spec s = base_1d();
  s.grad_output->shape = {2, 8, 15};
  expect(s, ACLNN_ERR_PARAM_INVALID, "should equal [2, 8, 14]");
  s.grad_output->shape = {2, 8, 14};
  s.stride = Shape{4};  // floor(13 / 4) + 1 = 4
  expect(s, ACLNN_ERR_PARAM_INVALID, "should equal [2, 8, 4]");
  s.grad_output->shape = {2, 8, 4};
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationSpatial, BatchMustMatchFor1dAnd2d) {
  Spec s = base_case();
  s.grad_output->shape = {2, 16, 8, 8};
  expect(s, ACLNN_ERR_PARAM_INVALID, "batch size of gradOutput");
  Spec t = base_1d();
  t.grad_output->shape = {1, 8, 14};
  expect(t, ACLNN_ERR_PARAM_INVALID, "batch size of gradOutput");
}

TEST_F(ValidationSpatial, AsymmetricFourElementPadding) {
  // [top, bottom, left, right] = [1, 0, 2, 1]: H 10+1+0-3+1 = 9, W 10+2+1-3+1 = 11.
  Spec s = base_case();
  s.padding = Shape{1, 0, 2, 1};
  s.grad_output->shape = {1, 16, 9, 11};
  expect(s, ACLNN_SUCCESS);
  s.grad_output->shape = {1, 16, 11, 9};
  expect(s, ACLNN_ERR_PARAM_INVALID, "should equal [1, 16, 9, 11]");
}

TEST_F(ValidationSpatial, TwoDimKernelLargerThanPaddedInput) {
  Spec s = base_case();
  s.dilation = Shape{5, 1};  // 5*2+1 = 11 > 10
  expect(s, ACLNN_ERR_PARAM_INVALID, "dilated kernel is larger");
}

TEST_F(ValidationSpatial, TransposedGradOutputMustMatchTheGivenOutputPadding) {
  Spec s = base_transposed();
  s.stride = Shape{2, 2};  // (5-1)*2 + 2 + 1 = 11 with outputPadding 0
  s.grad_output->shape = {1, 8, 11, 11};
  expect(s, ACLNN_SUCCESS);
  s.grad_output->shape = {1, 8, 12, 12};
  expect(s, ACLNN_ERR_PARAM_INVALID, "should equal [1, 8, 11, 11]");
  s.output_padding = Shape{1, 1};
  expect(s, ACLNN_SUCCESS);
  // A 4-element outputPadding uses its entries [0] (H) and [2] (W).
  s.output_padding = Shape{1, 0, 0, 1};
  s.grad_output->shape = {1, 8, 12, 11};
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationSpatial, AttributeArithmeticOverflowIsRejected) {
  Spec s = base_case();
  s.dilation = Shape{int64_t{1} << 62, 1};
  expect(s, ACLNN_ERR_PARAM_INVALID, "overflows int64");
  Spec t = base_transposed();
  t.stride = Shape{INT64_MAX, 1};
  expect(t, ACLNN_ERR_PARAM_INVALID, "overflows int64");
}

// Messages name spatial dims as users do: D, H, W for 3-D; H, W for 2-D; L for 1-D.
TEST_F(ValidationSpatial, MessagesNameSpatialDimsAsUsersDo) {
  Spec one = base_1d();
  one.dilation = Shape{8};  // 8*2+1 = 17 > 16
  expect(one, ACLNN_ERR_PARAM_INVALID, "along L the dilated kernel is larger than the padded input");
  Spec two = base_case();
  two.dilation = Shape{5, 1};
  expect(two, ACLNN_ERR_PARAM_INVALID, "along H the dilated kernel is larger than the padded input");
  two.dilation = Shape{1, 5};
  expect(two, ACLNN_ERR_PARAM_INVALID, "along W the dilated kernel is larger than the padded input");
  two.dilation = Shape{1, int64_t{1} << 62};
  expect(two, ACLNN_ERR_PARAM_INVALID, "the output size along W overflows int64");
  Spec three = base_3d();
  three.weight->shape = {16, 16, 3, 3, 3};
  three.grad_weight->shape = three.weight->shape;
  expect(three, ACLNN_ERR_PARAM_INVALID, "along D the dilated kernel is larger than the padded input");
  three = base_3d();
  three.dilation = Shape{1, 1, 5};
  expect(three, ACLNN_ERR_PARAM_INVALID, "along W the dilated kernel is larger than the padded input");
  EXPECT_EQ(last_error().find("spatial dim"), std::string::npos) << last_error();
}

// ---- several faults: the message names the root cause, the status stays the first failing rule's ----

// 161002 (as CANN's first failing rule gives) with `root_cause` first, then the earlier rule's own text.
void expect_root_cause(const Spec &spec, const std::string &root_cause, const std::string &symptom) {
  Built built(spec);
  EXPECT_EQ(built.validate(), ACLNN_ERR_PARAM_INVALID) << last_error();
  const std::string message = last_error();
  const size_t root = message.find(root_cause);
  const size_t link = message.find(" Because of that, an earlier check fails too: ");
  const size_t earlier = message.find(symptom);
  EXPECT_NE(root, std::string::npos) << message;
  EXPECT_NE(earlier, std::string::npos) << message;
  EXPECT_TRUE(root < link && link < earlier) << message;
}

// The case of the report: gradBias agrees with weight; gradOutput is the tensor that is wrong.
Spec grad_output_with_five_channels() {
  Spec s = base_case();
  s.grad_output->shape = {2, 5, 4, 4};
  s.input->shape = {2, 3, 6, 6};
  s.weight->shape = {4, 3, 3, 3};
  s.bias_sizes = Shape{4};
  fill_outputs(s);
  s.grad_bias->shape = {4};
  return s;
}

TEST_F(ValidationRootCause, GradOutputChannelsAgainstWeightAreNamedWhenGradBiasIsPassed) {
  expect_root_cause(grad_output_with_five_channels(),
                    "gradOutput.shape[1] = 5 (shape [2, 5, 4, 4]) must equal weight.shape[0] = 4",
                    "gradBias must be 1-D with gradOutput.shape[1] = 5 elements, but got shape [4].");
  // Without gradBias the same rule fails on its own, with the same text.
  Spec s = grad_output_with_five_channels();
  s.grad_bias.reset();
  s.mask = std::vector<uint8_t>{1, 1, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput.shape[1] = 5 (shape [2, 5, 4, 4]) must equal weight.shape[0] = 4");
  EXPECT_EQ(last_error().find("Because of that"), std::string::npos) << last_error();
}

TEST_F(ValidationRootCause, AGradBiasWrongToo) {
  Spec s = grad_output_with_five_channels();
  s.grad_bias->shape = {7};
  expect_root_cause(s, "gradOutput.shape[1] = 5 (shape [2, 5, 4, 4]) must equal weight.shape[0] = 4",
                    "gradBias must be 1-D with gradOutput.shape[1] = 5 elements, but got shape [7].");
}

TEST_F(ValidationRootCause, TransposedGradOutputChannelsAgainstWeightAndGroups) {
  Spec s = base_transposed();  // gradBias [8] = weight.shape[1] 8 * groups 1
  s.grad_output->shape = {1, 6, 7, 7};
  expect_root_cause(s, "gradOutput.shape[1] = 6 (shape [1, 6, 7, 7]) must be a multiple of weight.shape[1] = 8",
                    "gradBias must be 1-D with gradOutput.shape[1] = 6 elements, but got shape [8].");
  s.grad_output->shape = {1, 16, 7, 7};
  expect_root_cause(s,
                    "gradOutput.shape[1] = 16 (shape [1, 16, 7, 7]) divided by weight.shape[1] = 8 must equal groups",
                    "gradBias must be 1-D with gradOutput.shape[1] = 16 elements");
}

TEST_F(ValidationRootCause, InputRankAgainstGradOutputAndWeightIsNamedForAttributeLengths) {
  Spec s = base_case();
  s.input = TensorSpec({1, 16, 10}, ACL_FLOAT16);
  s.grad_input = s.input;
  expect_root_cause(s,
                    "the dim of input [1, 16, 10] must equal the dim of gradOutput [1, 16, 8, 8] and weight "
                    "[16, 16, 3, 3], but got 3 and 4.",
                    "expected stride to have 1 elements for a 3-dim input, but got 2: [1, 1].");
}

// A single fault, or an earlier fault the later one does not explain, keeps its own message.
TEST_F(ValidationRootCause, FaultsNotExplainedByALaterRuleKeepTheirMessage) {
  Spec s = base_case();
  s.grad_bias->shape = {7};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradBias must be 1-D with gradOutput.shape[1] = 16 elements");
  EXPECT_EQ(last_error().find("Because of that"), std::string::npos) << last_error();
  s = base_case();
  s.stride = Shape{1, 1, 1};  // wrong for every tensor's rank
  expect(s, ACLNN_ERR_PARAM_INVALID, "expected stride to have 2 elements");
  EXPECT_EQ(last_error().find("Because of that"), std::string::npos) << last_error();
  s = grad_output_with_five_channels();
  s.grad_weight->shape = {4, 3, 1, 1};  // V8.5, before gradBias, unrelated to gradOutput's channels
  expect(s, ACLNN_ERR_PARAM_INVALID, "Expected tensor for gradWeight to have same size as tensor for weight");
  EXPECT_EQ(last_error().find("Because of that"), std::string::npos) << last_error();
  s = base_transposed();
  s.input->shape = {1, 12, 5, 5};  // V9.1 about input: says nothing about gradBias against gradOutput
  s.grad_input->shape = s.input->shape;
  s.grad_bias->shape = {7};
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradBias must be 1-D with gradOutput.shape[1] = 8 elements");
  EXPECT_EQ(last_error().find("Because of that"), std::string::npos) << last_error();
}

}  // namespace
}  // namespace validation_test
