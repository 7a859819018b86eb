// After CheckParams: V11 (deterministic + groups), the compute-path rejections V12–V14, and the empty-tensor
// path E1–E3 (docs/contract.md §2.5).
#include "validation_support.hpp"

namespace validation_test {
namespace {

using ValidationComputePath = ValidationTest;
using ValidationEmptyPath = ValidationTest;

// A valid grouped 3-D call (groups 2).
Spec grouped_3d() {
  Spec s = base_3d();
  s.groups = 2;
  s.weight->shape = {16, 8, 1, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  return s;
}

// ---- V11, V12 ----

TEST_F(ValidationComputePath, DeterministicGroupsOnLegacy3d) {
  {
    RuntimeSession session;
    ASSERT_TRUE(session.ok());
    DeterministicOption on(1);
    ASSERT_TRUE(on.ok());
    use(Product::kAscend910);
    expect(grouped_3d(), ACLNN_ERR_PARAM_INVALID, "groups must be 1 in deterministic calculations");
    // Without the gradWeight the rule does not apply; V12 rejects the 3-D call instead.
    Spec s = grouped_3d();
    s.mask = std::vector<uint8_t>{1, 0, 1};
    expect(s, ACLNN_ERR_PARAM_INVALID, "3-D convolution backward is not supported on Ascend910");
  }
  {
    RuntimeSession session;
    ASSERT_TRUE(session.ok());
    DeterministicOption off(0);
    ASSERT_TRUE(off.ok());
    use(Product::kAscend910);
    expect(grouped_3d(), ACLNN_ERR_PARAM_INVALID, "3-D convolution backward is not supported on Ascend910");
  }
  // Outside the session the option may be unreadable (runtime not initialised): that counts as 0.
  use(Product::kAscend910);
  expect(grouped_3d(), ACLNN_ERR_PARAM_INVALID, "3-D convolution backward is not supported on Ascend910");
}

TEST_F(ValidationComputePath, DeterministicDoesNotMatterOnA2A3) {
  RuntimeSession session;
  ASSERT_TRUE(session.ok());
  DeterministicOption on(1);
  ASSERT_TRUE(on.ok());
  use(Product::kAscend910B);
  expect(grouped_3d(), ACLNN_SUCCESS);
}

TEST_F(ValidationComputePath, ThreeDimOnLegacyProducts) {
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    expect(base_3d(), ACLNN_ERR_PARAM_INVALID, std::string("not supported on ") + aclnn_cpu::product_name(p));
  }
  for (Product p : {Product::kAscend910B, Product::kAscend910_93, Product::kAscend950}) {
    use(p);
    expect(base_3d(), ACLNN_SUCCESS);
  }
}

// ---- V13 ----

TEST_F(ValidationComputePath, A2A3Grouped3dFloatWeightGradFromHalfInputs) {
  Spec s = grouped_3d();
  s.set_dtype(ACL_BF16);
  s.grad_weight->dtype = ACL_FLOAT;
  expect(s, ACLNN_ERR_PARAM_INVALID, "from BFLOAT16 inputs with groups 2");
  s.set_dtype(ACL_FLOAT16);
  s.grad_weight->dtype = ACL_FLOAT;
  expect(s, ACLNN_ERR_PARAM_INVALID, "from FLOAT16 inputs");
  // Not rejected: gradWeight in the input dtype, groups 1, no gradWeight requested, or another product.
  Spec keep = s;
  keep.grad_weight->dtype = ACL_FLOAT16;
  expect(keep, ACLNN_SUCCESS);
  Spec ungrouped = base_3d();
  ungrouped.grad_weight->dtype = ACL_FLOAT;
  expect(ungrouped, ACLNN_SUCCESS);
  Spec no_dw = s;
  no_dw.mask = std::vector<uint8_t>{1, 0, 1};
  expect(no_dw, ACLNN_SUCCESS);
  use(Product::kAscend950);
  Spec on950 = s;
  on950.grad_weight->dtype = ACL_FLOAT16;  // the 950 wants gradWeight in the weight dtype (V2)
  expect(on950, ACLNN_SUCCESS);
}

TEST_F(ValidationComputePath, A2A3Grouped3dFloatWeightGradWithUseFp16) {
  Spec s = grouped_3d();
  s.set_dtype(ACL_FLOAT);
  s.cube_math_type = 2;
  expect(s, ACLNN_ERR_PARAM_INVALID, "cubeMathType must be 0, 1 or 3");
  for (int cmt : {0, 1, 3}) {
    s.cube_math_type = static_cast<int8_t>(cmt);
    expect(s, ACLNN_SUCCESS);
  }
}

TEST_F(ValidationComputePath, TwoDimIsNotReRoutedThrough3dRules) {
  Spec s = base_case();
  s.groups = 2;
  s.weight->shape = {16, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  s.set_dtype(ACL_FLOAT);
  s.cube_math_type = 2;
  expect(s, ACLNN_SUCCESS);
}

// ---- V14 ----

TEST_F(ValidationComputePath, GradBiasOutsideTheReductionDtypesOn950Is561103) {
  use(Product::kAscend950);
  Spec s = base_transposed();
  s.set_dtype(ACL_HIFLOAT8);
  s.grad_weight->dtype = ACL_FLOAT;
  expect(s, ACLNN_ERR_INNER_NULLPTR, "gradBias dtype HIFLOAT8");
  s.mask = std::vector<uint8_t>{1, 1, 0};  // passed but not requested: not reduced, so fine
  expect(s, ACLNN_SUCCESS);
}

// ---- E1 ----

// A valid empty call: input batch 0 (docs/contract.md §5.6 N24/N25 base).
Spec empty_batch() {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  return s;
}

TEST_F(ValidationEmptyPath, BiasSizesMustBePresentWhenGradBiasIsRequested) {
  Spec s = empty_batch();
  expect(s, ACLNN_SUCCESS);
  s.bias_sizes.reset();
  expect(s, ACLNN_ERR_PARAM_INVALID, "biasSizes is nullptr");
  s.mask = std::vector<uint8_t>{1, 1, 0};
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationEmptyPath, BiasSizesMustBeTheOutputChannels) {
  for (Shape sizes : {Shape{15}, Shape{16, 1}, Shape{}}) {
    Spec s = empty_batch();
    s.bias_sizes = sizes;
    expect(s, ACLNN_ERR_PARAM_INVALID, "biasSizes must be [16] (gradOutput.shape[1])");
  }
  Spec t = base_transposed();
  t.input->shape = {0, 16, 5, 5};
  t.grad_input->shape = t.input->shape;
  t.grad_output->shape = {0, 8, 7, 7};
  t.bias_sizes = Shape{16};
  expect(t, ACLNN_ERR_PARAM_INVALID, "biasSizes must be [8] (weight.shape[1] * groups)");
  t.bias_sizes = Shape{8};
  expect(t, ACLNN_SUCCESS);
}

TEST_F(ValidationEmptyPath, BiasSizesRuleAppliesOnLegacyToo) {
  use(Product::kAscend910);
  // Legacy reaches the empty path only with an empty input and non-empty gradOutput/weight.
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.bias_sizes.reset();
  expect(s, ACLNN_ERR_PARAM_INVALID, "biasSizes is nullptr");
}

// ---- E2 ----

TEST_F(ValidationEmptyPath, RequestedGradInputNeedsAnEmptyBatchOrChannel) {
  Spec s = base_case();
  s.input->shape = {1, 16, 0, 10};
  s.grad_input->shape = s.input->shape;
  s.padding = Shape{2, 2};  // so that E3's kernel-fits rule passes for H = 0
  expect(s, ACLNN_ERR_PARAM_INVALID, "input must have N or C equal to 0");
  s.mask = std::vector<uint8_t>{0, 1, 1};
  expect(s, ACLNN_SUCCESS);
}

// ---- E3 (A2/A3 and 950) ----

TEST_F(ValidationEmptyPath, WeightOutMustBeAMultipleOfGroups) {
  Spec s = empty_batch();
  s.groups = 2;
  s.weight->shape = {15, 8, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  s.grad_output->shape = {0, 15, 8, 8};
  s.grad_bias->shape = {15};
  s.bias_sizes = Shape{15};
  expect(s, ACLNN_ERR_PARAM_INVALID, "weight.shape[0] must be a multiple of groups 2");
}

TEST_F(ValidationEmptyPath, ChannelsMustMatchGroups) {
  Spec s = empty_batch();
  s.weight->shape = {16, 4, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "input.shape[1] = 16 must equal weight.shape[1] * groups = 4 * 1");
  // Both channel counts 0: nothing to compare.
  s.input->shape = {0, 0, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.weight->shape = {16, 0, 3, 3};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationEmptyPath, TransposedWeightMustMatchInputChannels) {
  Spec t = base_transposed();
  t.input->shape = {0, 12, 5, 5};
  t.grad_input->shape = t.input->shape;
  t.grad_output->shape = {0, 8, 7, 7};
  expect(t, ACLNN_ERR_PARAM_INVALID, "weight.shape[0] must be positive and equal input.shape[1] = 12");
}

TEST_F(ValidationEmptyPath, KernelMustFitThePaddedInput) {
  Spec s = empty_batch();
  s.input->shape = {0, 16, 2, 2};
  s.grad_input->shape = s.input->shape;
  s.weight->shape = {16, 16, 5, 5};
  s.grad_weight->shape = s.weight->shape;
  expect(s, ACLNN_ERR_PARAM_INVALID, "along H the padded input size 2 is smaller than the dilated kernel size 5");
  s.padding = Shape{2, 2};
  expect(s, ACLNN_SUCCESS);
  // Asymmetric 2-D padding counts begin + end per dim (not CANN's padding[i-2] quirk, docs/contract.md §6 Q24).
  s.padding = Shape{3, 0, 0, 3};
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationEmptyPath, LegacyHasNoE3) {
  // Same kernel-too-large call with a non-empty gradOutput (legacy rejects empty gradOutput in V8).
  Spec s = base_case();
  s.input->shape = {0, 16, 2, 2};
  s.grad_input->shape = s.input->shape;
  s.weight->shape = {16, 16, 5, 5};
  s.grad_weight->shape = s.weight->shape;
  use(Product::kAscend910);
  expect(s, ACLNN_SUCCESS);
  use(Product::kAscend910B);
  expect(s, ACLNN_ERR_PARAM_INVALID, "smaller than the dilated kernel size");
}

TEST_F(ValidationEmptyPath, WeightRankMustMatchInputToBeIndexed) {
  Spec s = empty_batch();
  s.weight = TensorSpec({16, 16, 3}, ACL_FLOAT16);
  s.grad_weight = TensorSpec({16, 16, 3}, ACL_FLOAT16);
  expect(s, ACLNN_ERR_PARAM_INVALID, "the dim of weight");
}

}  // namespace
}  // namespace validation_test
