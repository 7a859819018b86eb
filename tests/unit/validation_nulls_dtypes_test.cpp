// V1 (nulls, outputMask), V2 (dtype lists) and V3 (8-bit rules of the 950), each rule isolated.
#include "validation_support.hpp"

namespace validation_test {
namespace {

using ValidationNulls = ValidationTest;
using ValidationDtypes = ValidationTest;
using Validation8bit = ValidationTest;

// ---- V1 ----

TEST_F(ValidationNulls, BaseCaseIsValid) { expect(base_case(), ACLNN_SUCCESS); }

TEST_F(ValidationNulls, EachRequiredArgumentNullIs161001AndNamed) {
  struct Case {
    const char *name;
    void (*clear)(Spec &);
  };
  const Case cases[] = {
      {"gradOutput", [](Spec &s) { s.grad_output.reset(); }},
      {"input", [](Spec &s) { s.input.reset(); }},
      {"weight", [](Spec &s) { s.weight.reset(); }},
      {"stride", [](Spec &s) { s.stride.reset(); }},
      {"padding", [](Spec &s) { s.padding.reset(); }},
      {"dilation", [](Spec &s) { s.dilation.reset(); }},
      {"outputPadding", [](Spec &s) { s.output_padding.reset(); }},
      {"outputMask", [](Spec &s) { s.mask.reset(); }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    Spec s = base_case();
    c.clear(s);
    expect(s, ACLNN_ERR_PARAM_NULLPTR, std::string("argument ") + c.name);
  }
}

TEST_F(ValidationNulls, NullsAreReportedInCannOrder) {
  Spec s = base_case();
  s.stride.reset();
  s.weight.reset();
  expect(s, ACLNN_ERR_PARAM_NULLPTR, "argument weight");
}

TEST_F(ValidationNulls, NullBiasSizesIsAcceptedOnTheNormalPath) {
  Spec s = base_case();
  s.bias_sizes.reset();
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationNulls, OutputMaskMustHaveThreeElements) {
  for (size_t n : {0u, 2u, 4u}) {
    Spec s = base_case();
    s.mask = std::vector<uint8_t>(n, 1);
    expect(s, ACLNN_ERR_PARAM_NULLPTR, "outputMask");
  }
}

TEST_F(ValidationNulls, RequestedOutputMustBePresent) {
  const char *names[3] = {"gradInput", "gradWeight", "gradBias"};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(names[i]);
    Spec s = base_case();
    if (i == 0) s.grad_input.reset();
    if (i == 1) s.grad_weight.reset();
    if (i == 2) s.grad_bias.reset();
    expect(s, ACLNN_ERR_PARAM_NULLPTR, names[i]);
    std::vector<uint8_t> mask = {1, 1, 1};
    mask[i] = 0;
    s.mask = mask;
    expect(s, ACLNN_SUCCESS);
  }
}

TEST_F(ValidationNulls, NoOutputRequestedAndNonePassed) {
  Spec s = base_case();
  s.grad_input.reset();
  s.grad_weight.reset();
  s.grad_bias.reset();
  s.mask = std::vector<uint8_t>{0, 0, 0};
  expect(s, ACLNN_SUCCESS);
}

// ---- V2 ----

TEST_F(ValidationDtypes, UnsupportedDtypeIsNamedPerTensor) {
  const char *names[6] = {"gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"};
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE(names[i]);
    Spec s = base_case();
    std::optional<TensorSpec> *t[6] = {&s.grad_output, &s.input,       &s.weight,
                                       &s.grad_input,  &s.grad_weight, &s.grad_bias};
    (*t[i])->dtype = ACL_INT32;
    expect(s, ACLNN_ERR_PARAM_INVALID, std::string("Tensor ") + names[i] + " not implemented for INT32");
  }
}

TEST_F(ValidationDtypes, MaskedOffOutputsAreStillChecked) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{0, 1, 1};
  s.grad_input->dtype = ACL_DOUBLE;
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradInput");
}

TEST_F(ValidationDtypes, Bf16IsAcceptedOnA2A3And950ButNotOnLegacy) {
  Spec s = base_case();
  s.set_dtype(ACL_BF16);
  for (Product p : {Product::kAscend910B, Product::kAscend910_93, Product::kAscend950}) {
    use(p);
    expect(s, ACLNN_SUCCESS);
  }
  for (Product p : {Product::kAscend910, Product::kAscend310P}) {
    use(p);
    expect(s, ACLNN_ERR_PARAM_INVALID, "BFLOAT16");
  }
}

TEST_F(ValidationDtypes, EightBitIsRejectedOutside950) {
  Spec s = base_case();
  s.set_dtype(ACL_HIFLOAT8);
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput");
  use(Product::kAscend910);
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradOutput");
}

TEST_F(ValidationDtypes, MixedOutputDtypesAreAcceptedOnA2A3AndLegacy) {
  Spec s = base_case();
  s.grad_input->dtype = ACL_FLOAT;
  s.grad_weight->dtype = ACL_FLOAT;
  s.grad_bias->dtype = ACL_FLOAT;
  expect(s, ACLNN_SUCCESS);
  use(Product::kAscend910);
  expect(s, ACLNN_SUCCESS);
}

TEST_F(ValidationDtypes, OutputsMustMatchTheirSourceOn950) {
  use(Product::kAscend950);
  Spec s = base_case();
  s.grad_input->dtype = ACL_FLOAT;
  expect(s, ACLNN_ERR_PARAM_INVALID, "[gradInput, input]");
  s = base_case();
  s.grad_weight->dtype = ACL_FLOAT;
  expect(s, ACLNN_ERR_PARAM_INVALID, "[gradWeight, weight]");
  s = base_case();
  s.grad_bias->dtype = ACL_FLOAT;
  expect(s, ACLNN_ERR_PARAM_INVALID, "[gradBias, gradOutput]");
}

TEST_F(ValidationDtypes, Fp8IsOnlyListedForNonTransposedOn950) {
  use(Product::kAscend950);
  Spec s = base_transposed();
  s.set_dtype(ACL_FLOAT8_E4M3FN);
  expect(s, ACLNN_ERR_PARAM_INVALID, "not implemented for FLOAT8_E4M3FN");
  s.set_dtype(ACL_HIFLOAT8);
  s.grad_weight->dtype = ACL_FLOAT;
  s.mask = std::vector<uint8_t>{1, 1, 0};
  s.grad_bias.reset();
  expect(s, ACLNN_SUCCESS);
}

// ---- V3 (950 only) ----

// A transposed HIFLOAT8 call with gradWeight in FLOAT: the one 8-bit shape the 950 accepts with both outputs.
Spec hif8_transposed() {
  Spec s = base_transposed();
  s.set_dtype(ACL_HIFLOAT8);
  s.grad_weight->dtype = ACL_FLOAT;
  s.grad_bias.reset();
  s.mask = std::vector<uint8_t>{1, 1, 0};
  return s;
}

// A non-transposed HIFLOAT8 weight-gradient-only call (gradInput not passed).
Spec hif8_weight_only() {
  Spec s = base_case();
  s.set_dtype(ACL_HIFLOAT8);
  s.grad_input.reset();
  s.grad_bias.reset();
  s.grad_weight->dtype = ACL_FLOAT;
  s.mask = std::vector<uint8_t>{0, 1, 0};
  return s;
}

TEST_F(Validation8bit, AcceptedCombinations) {
  use(Product::kAscend950);
  expect(hif8_transposed(), ACLNN_SUCCESS);
  expect(hif8_weight_only(), ACLNN_SUCCESS);
}

TEST_F(Validation8bit, InterceptRejectsNonTransposedWithBothOutputs) {
  use(Product::kAscend950);
  Spec s = base_case();
  s.set_dtype(ACL_HIFLOAT8);
  s.grad_weight->dtype = ACL_FLOAT;
  s.grad_bias.reset();
  s.mask = std::vector<uint8_t>{1, 1, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "transposed=true");
  // Masked off but passed: still intercepted (mask[1] branch).
  s.mask = std::vector<uint8_t>{0, 1, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "transposed=true");
}

TEST_F(Validation8bit, GradInputNeedsAllTensorsInTheSame8BitType) {
  use(Product::kAscend950);
  Spec s = base_transposed();
  s.set_dtype(ACL_HIFLOAT8);
  s.input->dtype = ACL_FLOAT16;
  s.grad_input->dtype = ACL_FLOAT16;
  s.grad_weight.reset();
  s.grad_bias.reset();
  s.mask = std::vector<uint8_t>{1, 0, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "input is FLOAT16");
}

TEST_F(Validation8bit, GradWeightWithHif8MustBeFloat) {
  use(Product::kAscend950);
  Spec s = hif8_weight_only();
  s.grad_weight->dtype = ACL_HIFLOAT8;
  expect(s, ACLNN_ERR_PARAM_INVALID, "gradWeight must be FLOAT");
}

TEST_F(Validation8bit, GradWeightRejectsFp8) {
  use(Product::kAscend950);
  Spec s = hif8_weight_only();
  s.set_dtype(ACL_FLOAT8_E4M3FN);
  expect(s, ACLNN_ERR_PARAM_INVALID, "FLOAT8_E4M3FN is not supported");
}

TEST_F(Validation8bit, GradWeightWith8BitInputNeedsGroupsOne) {
  use(Product::kAscend950);
  Spec s = hif8_weight_only();
  s.groups = 2;
  expect(s, ACLNN_ERR_PARAM_INVALID, "groups must be 1");
}

TEST_F(Validation8bit, TransposedGradWeightWith8BitInputNeedsZeroOutputPadding) {
  use(Product::kAscend950);
  Spec s = hif8_transposed();
  s.output_padding = Shape{1, 0};
  expect(s, ACLNN_ERR_PARAM_INVALID, "outputPadding");
}

TEST_F(Validation8bit, NotAppliedOutside950) {
  // The same mixed call on A2/A3 fails on the dtype list instead (V2).
  Spec s = hif8_transposed();
  expect(s, ACLNN_ERR_PARAM_INVALID, "not implemented for HIFLOAT8");
}

}  // namespace
}  // namespace validation_test
