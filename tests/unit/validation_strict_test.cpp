// Strict mode: the emulated product's documented hardware limits (docs/contract.md §2.4c) are enforced
// with 561103 only when strict mode is on; by default every math-valid call is accepted.
#include "validation_support.hpp"

namespace validation_test {
namespace {

class ValidationStrict : public ValidationTest {
 protected:
  // Accepted without strict mode; with it, 561103 and a message naming the product and `limit`.
  void expect_limit(const Spec &spec, const std::string &limit) {
    aclnn_cpu::set_strict(false);
    expect(spec, ACLNN_SUCCESS);
    aclnn_cpu::set_strict(true);
    expect(spec, ACLNN_ERR_INNER_NULLPTR, limit);
    EXPECT_NE(last_error().find(aclnn_cpu::product_name(aclnn_cpu::settings().product)), std::string::npos)
        << last_error();
    EXPECT_NE(last_error().find("strict mode"), std::string::npos) << last_error();
    aclnn_cpu::set_strict(false);
  }
  // Accepted with and without strict mode.
  void expect_within(const Spec &spec) {
    aclnn_cpu::set_strict(true);
    expect(spec, ACLNN_SUCCESS);
    aclnn_cpu::set_strict(false);
  }
};

// A 2-D (or 1-D with rank 3) call with one input channel, kernel `k` × `k`, stride/padding/dilation 1/0/1.
Spec single_channel(Shape input, Shape weight, Shape grad_output) {
  Spec s;
  const size_t spatial = input.size() - 2;
  s.grad_output = TensorSpec(grad_output, ACL_FLOAT16);
  s.input = TensorSpec(input, ACL_FLOAT16);
  s.weight = TensorSpec(weight, ACL_FLOAT16);
  s.bias_sizes = Shape{grad_output[1]};
  s.stride = Shape(spatial, 1);
  s.padding = Shape(spatial, 0);
  s.dilation = Shape(spatial, 1);
  s.output_padding = Shape(spatial, 0);
  return fill_outputs(s);
}

TEST_F(ValidationStrict, OffByDefault) {
  aclnn_cpu::Settings defaults;
  EXPECT_FALSE(defaults.strict);
}

TEST_F(ValidationStrict, A2A3KernelUpTo255) {
  expect_within(single_channel({1, 1, 255, 255}, {1, 1, 255, 255}, {1, 1, 1, 1}));
  expect_limit(single_channel({1, 1, 256, 256}, {1, 1, 256, 256}, {1, 1, 1, 1}), "kernel H <= 255");
  expect_limit(single_channel({1, 1, 256}, {1, 1, 256}, {1, 1, 1}), "kernel L <= 255");  // 1-D: L, not W
}

TEST_F(ValidationStrict, A2A3ThreeDimStrideHWUpTo63) {
  Spec s = base_3d();
  s.stride = Shape{1, 64, 1};
  s.grad_output->shape = {1, 16, 2, 1, 8};
  expect_limit(s, "stride H <= 63");
  s = base_3d();
  s.stride = Shape{64, 1, 1};  // stride D has no limit
  s.grad_output->shape = {1, 16, 1, 8, 8};
  expect_within(s);
  Spec two = base_case();  // nor has a 2-D stride
  two.stride = Shape{64, 1};
  two.grad_output->shape = {1, 16, 1, 8};
  expect_within(two);
}

TEST_F(ValidationStrict, A2A3PaddingUpTo255) {
  Spec s = base_case();
  s.padding = Shape{256, 0};
  s.grad_output->shape = {1, 16, 520, 8};
  expect_limit(s, "padding (begin) H <= 255");
  s.padding = Shape{0, 256, 0, 0};  // [top, bottom, left, right]
  s.grad_output->shape = {1, 16, 264, 8};
  expect_limit(s, "padding (end) H <= 255");
  Spec d = base_3d();  // pad D has no limit
  d.padding = Shape{256, 0, 0};
  d.grad_output->shape = {1, 16, 514, 8, 8};
  expect_within(d);
}

TEST_F(ValidationStrict, A2A3DilationUpTo255) {
  expect_limit(
      [] {
        Spec s = single_channel({1, 1, 520, 8}, {1, 1, 3, 1}, {1, 1, 8, 8});
        s.dilation = Shape{256, 1};
        return s;
      }(),
      "dilation H <= 255");
}

TEST_F(ValidationStrict, A2A3HasNoTransposedLimits) {
  Spec s = single_channel({1, 1, 1, 1}, {1, 1, 256, 256}, {1, 1, 256, 256});
  s.transposed = true;
  expect_within(s);
}

TEST_F(ValidationStrict, Ascend950TransposedLimits) {
  use(Product::kAscend950);
  Spec s = single_channel({1, 1, 1, 1}, {1, 1, 256, 256}, {1, 1, 256, 256});
  s.transposed = true;
  expect_limit(s, "kernel H <= 255");
  Spec wide = single_channel({1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1});
  wide.transposed = true;
  wide.stride = Shape{2147483647, 1};
  expect_limit(wide, "stride H <= 2147483646");
  Spec deep = single_channel({1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1});
  deep.transposed = true;
  deep.stride = Shape{1000001, 1, 1};
  expect_limit(deep, "stride D <= 1000000");
  // Non-transposed calls have no upper limits on the 950.
  expect_within(single_channel({1, 1, 256, 256}, {1, 1, 256, 256}, {1, 1, 1, 1}));
}

TEST_F(ValidationStrict, Ascend950EightBitOnlyForTransposedGradInput) {
  use(Product::kAscend950);
  Spec dw = base_case();  // the non-transposed HIFLOAT8 weight-gradient path CANN's checker lets through
  dw.set_dtype(ACL_HIFLOAT8);
  dw.grad_input.reset();
  dw.grad_bias.reset();
  dw.grad_weight->dtype = ACL_FLOAT;
  dw.mask = std::vector<uint8_t>{0, 1, 0};
  expect_limit(dw, "HIFLOAT8/FLOAT8_E4M3FN only for transposed=true");
  Spec dx = base_transposed();
  dx.set_dtype(ACL_HIFLOAT8);
  dx.grad_weight->dtype = ACL_FLOAT;
  dx.grad_bias.reset();
  dx.mask = std::vector<uint8_t>{1, 1, 0};
  expect_within(dx);
}

TEST_F(ValidationStrict, GroupsUpTo65535OnEveryProduct) {
  // Q13: the documented bound is enforced only in strict mode.
  Spec s = single_channel({1, 65536, 1, 1}, {65536, 1, 1, 1}, {1, 65536, 1, 1});
  s.groups = 65536;
  for (Product p : {Product::kAscend910B, Product::kAscend950, Product::kAscend910}) {
    use(p);
    expect_limit(s, "groups <= 65535");
  }
  s = single_channel({1, 65535, 1, 1}, {65535, 1, 1, 1}, {1, 65535, 1, 1});
  s.groups = 65535;
  expect_within(s);
}

TEST_F(ValidationStrict, OutputPaddingBelowStrideForEveryRank) {
  Spec s = base_transposed();
  s.output_padding = Shape{1, 0};
  s.grad_output->shape = {1, 8, 8, 7};
  expect_limit(s, "outputPadding H < stride H");
  Spec one = single_channel({1, 1, 4}, {1, 1, 3}, {1, 1, 8});  // (4-1)*1 + 2 + 1 + op
  one.transposed = true;
  one.output_padding = Shape{2};
  one.grad_output->shape = {1, 1, 8};
  expect_limit(one, "outputPadding L < stride L");
}

TEST_F(ValidationStrict, LegacyHasNoEmptyTensors) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  use(Product::kAscend910);
  expect_limit(s, "does not support empty tensors");
  use(Product::kAscend910B);
  s.grad_output->shape = {0, 16, 8, 8};
  expect_within(s);  // A2/A3 documents empty batches as supported
}

TEST_F(ValidationStrict, CannRulesKeepTheirStatus) {
  aclnn_cpu::set_strict(true);
  Spec s = base_case();
  s.stride = Shape{0, 1};
  expect(s, ACLNN_ERR_PARAM_INVALID, "stride");
  Spec t = base_case();
  t.grad_input.reset();
  expect(t, ACLNN_ERR_PARAM_NULLPTR, "gradInput");
}

}  // namespace
}  // namespace validation_test
