// Test support for the conv_bwd validator: build an aclnnConvolutionBackward call from a readable spec,
// run conv_bwd::validate on it, and restore the global settings the tests change.
//
// Tensors and arrays are filled directly (api/objects.hpp) rather than through aclCreateTensor, so tests can
// also build views the public constructor would not (negative dims, mismatched stride counts): the validator
// must cope with whatever a struct holds. Non-empty tensors point at a small static buffer: validation never
// reads data, and the bounds rule only applies inside aclrtMalloc allocations.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "aclnn/opdev/op_errno.h"
#include "api/conv_backward_args.hpp"
#include "api/objects.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/validate/validate.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "harness/conv_call.hpp"

namespace validation_test {

using aclnn_cpu::ConvBackwardHandles;
using aclnn_cpu::Product;
using aclnn_cpu::conv_bwd::Problem;
using Shape = std::vector<int64_t>;

inline aclFormat default_format(size_t rank) {
  return aclnn_cpu::harness::tensor_format(aclnn_cpu::harness::kInput, rank);
}

struct TensorSpec {
  TensorSpec() = default;
  TensorSpec(Shape s, aclDataType d) : shape(std::move(s)), dtype(d), format(default_format(shape.size())) {}
  TensorSpec(Shape s, aclDataType d, aclFormat f) : shape(std::move(s)), dtype(d), format(f) {}
  Shape shape;
  aclDataType dtype = ACL_FLOAT16;
  aclFormat format = ACL_FORMAT_ND;
};

// One call; std::nullopt means "pass NULL".
struct Spec {
  std::optional<TensorSpec> grad_output, input, weight, grad_input, grad_weight, grad_bias;
  std::optional<Shape> bias_sizes, stride, padding, dilation, output_padding;
  bool transposed = false;
  int groups = 1;
  std::optional<std::vector<uint8_t>> mask = std::vector<uint8_t>{1, 1, 1};
  int8_t cube_math_type = 0;

  // All six tensors get `dtype`.
  void set_dtype(aclDataType dtype) {
    for (auto *t : {&grad_output, &input, &weight, &grad_input, &grad_weight, &grad_bias}) {
      if (*t) (*t)->dtype = dtype;
    }
  }
};

// docs/contract.md §5.6 base case B: a valid 2-D FLOAT16 call on A2/A3.
inline Spec base_case() {
  Spec s;
  s.grad_output = TensorSpec({1, 16, 8, 8}, ACL_FLOAT16);
  s.input = TensorSpec({1, 16, 10, 10}, ACL_FLOAT16);
  s.weight = TensorSpec({16, 16, 3, 3}, ACL_FLOAT16);
  s.grad_input = TensorSpec({1, 16, 10, 10}, ACL_FLOAT16);
  s.grad_weight = TensorSpec({16, 16, 3, 3}, ACL_FLOAT16);
  s.grad_bias = TensorSpec({16}, ACL_FLOAT16, ACL_FORMAT_ND);
  s.bias_sizes = Shape{16};
  s.stride = Shape{1, 1};
  s.padding = Shape{0, 0};
  s.dilation = Shape{1, 1};
  s.output_padding = Shape{0, 0};
  return s;
}

// gradInput/gradWeight/gradBias shaped like input/weight/[gradOutput C], dtype of input/weight/gradOutput.
inline Spec &fill_outputs(Spec &s) {
  s.grad_input = TensorSpec(s.input->shape, s.input->dtype);
  s.grad_weight = TensorSpec(s.weight->shape, s.weight->dtype);
  s.grad_bias = TensorSpec({s.grad_output->shape[1]}, s.grad_output->dtype, ACL_FORMAT_ND);
  return s;
}

// A valid 1-D call: L 16, kernel 3, no padding.
inline Spec base_1d() {
  Spec s;
  s.grad_output = TensorSpec({2, 8, 14}, ACL_FLOAT16);
  s.input = TensorSpec({2, 16, 16}, ACL_FLOAT16);
  s.weight = TensorSpec({8, 16, 3}, ACL_FLOAT16);
  s.bias_sizes = Shape{8};
  s.stride = Shape{1};
  s.padding = Shape{0};
  s.dilation = Shape{1};
  s.output_padding = Shape{0};
  return fill_outputs(s);
}

// A valid 3-D call.
inline Spec base_3d() {
  Spec s;
  s.grad_output = TensorSpec({1, 16, 2, 8, 8}, ACL_FLOAT16);
  s.input = TensorSpec({1, 16, 2, 10, 10}, ACL_FLOAT16);
  s.weight = TensorSpec({16, 16, 1, 3, 3}, ACL_FLOAT16);
  s.bias_sizes = Shape{16};
  s.stride = Shape{1, 1, 1};
  s.padding = Shape{0, 0, 0};
  s.dilation = Shape{1, 1, 1};
  s.output_padding = Shape{0, 0, 0};
  return fill_outputs(s);
}

// A valid transposed 2-D call: input [1,16,5,5] → gradOutput [1,8,7,7] with weight [16,8,3,3].
inline Spec base_transposed() {
  Spec s;
  s.transposed = true;
  s.grad_output = TensorSpec({1, 8, 7, 7}, ACL_FLOAT16);
  s.input = TensorSpec({1, 16, 5, 5}, ACL_FLOAT16);
  s.weight = TensorSpec({16, 8, 3, 3}, ACL_FLOAT16);
  s.bias_sizes = Shape{8};
  s.stride = Shape{1, 1};
  s.padding = Shape{0, 0};
  s.dilation = Shape{1, 1};
  s.output_padding = Shape{0, 0};
  return fill_outputs(s);
}

// Row-major strides, wrapping like aclCreateTensor does for absurd shapes.
inline Shape contiguous_strides(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    strides[i - 1] = static_cast<int64_t>(static_cast<uint64_t>(strides[i]) * static_cast<uint64_t>(shape[i]));
  }
  return strides;
}

inline void *dummy_data() {
  alignas(64) static unsigned char buffer[64];
  return buffer;
}

// Owns the objects of one call; tensors may be tweaked through tensor() before validate().
class Built {
 public:
  explicit Built(const Spec &spec) {
    const std::optional<TensorSpec> *tensors[6] = {&spec.grad_output, &spec.input,       &spec.weight,
                                                   &spec.grad_input,  &spec.grad_weight, &spec.grad_bias};
    for (int i = 0; i < 6; ++i) {
      present_[i] = tensors[i]->has_value();
      if (!present_[i]) continue;
      const TensorSpec &t = **tensors[i];
      aclTensor &out = tensors_[i];
      out.view_shape = t.shape;
      out.storage_shape = t.shape;
      out.strides = contiguous_strides(t.shape);
      out.dtype = t.dtype;
      out.format = t.format;
      bool empty = false;
      for (int64_t d : t.shape) empty = empty || d == 0;
      out.data = empty ? nullptr : dummy_data();
    }
    const std::optional<Shape> *arrays[5] = {&spec.bias_sizes, &spec.stride, &spec.padding, &spec.dilation,
                                             &spec.output_padding};
    for (int i = 0; i < 5; ++i) {
      array_present_[i] = arrays[i]->has_value();
      if (array_present_[i]) arrays_[i].values = **arrays[i];
    }
    if (spec.mask) mask_.values = *spec.mask;
    args_.gradOutput = present_[0] ? &tensors_[0] : nullptr;
    args_.input = present_[1] ? &tensors_[1] : nullptr;
    args_.weight = present_[2] ? &tensors_[2] : nullptr;
    args_.gradInput = present_[3] ? &tensors_[3] : nullptr;
    args_.gradWeight = present_[4] ? &tensors_[4] : nullptr;
    args_.gradBias = present_[5] ? &tensors_[5] : nullptr;
    args_.biasSizes = array_present_[0] ? &arrays_[0] : nullptr;
    args_.stride = array_present_[1] ? &arrays_[1] : nullptr;
    args_.padding = array_present_[2] ? &arrays_[2] : nullptr;
    args_.dilation = array_present_[3] ? &arrays_[3] : nullptr;
    args_.outputPadding = array_present_[4] ? &arrays_[4] : nullptr;
    args_.outputMask = spec.mask ? &mask_ : nullptr;
    args_.transposed = spec.transposed;
    args_.groups = spec.groups;
    args_.cubeMathType = spec.cube_math_type;
  }
  Built(const Built &) = delete;
  Built &operator=(const Built &) = delete;

  // 0 gradOutput, 1 input, 2 weight, 3 gradInput, 4 gradWeight, 5 gradBias.
  aclTensor &tensor(int slot) { return tensors_[slot]; }

  int validate(Problem *problem = nullptr) {
    Problem local;
    aclnn_cpu::clear_recent_error();
    return aclnn_cpu::conv_bwd::validate(aclnn_cpu::describe(args_), problem != nullptr ? problem : &local);
  }

 private:
  aclTensor tensors_[6];
  bool present_[6] = {};
  aclIntArray arrays_[5];
  bool array_present_[5] = {};
  aclBoolArray mask_;
  ConvBackwardHandles args_;
};

inline int run(const Spec &spec, Problem *problem = nullptr) {
  Built built(spec);
  return built.validate(problem);
}

inline std::string last_error() {
  const char *e = aclnn_cpu::recent_error();
  return e != nullptr ? e : "";
}

// Restores the emulated product, strict mode and the deterministic option after each test.
class ValidationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = aclnn_cpu::settings();
    aclnn_cpu::set_product(Product::kAscend910B);
    aclnn_cpu::set_strict(false);
  }
  void TearDown() override {
    aclnn_cpu::set_product(saved_.product);
    aclnn_cpu::set_strict(saved_.strict);
  }

  static void use(Product p) { aclnn_cpu::set_product(p); }

  // Runs `spec` and checks the status; for failures also that the message names the API and `parameter`.
  static void expect(const Spec &spec, int status, const std::string &parameter = "") {
    Built built(spec);
    const int got = built.validate();
    EXPECT_EQ(got, status) << last_error();
    if (status == ACLNN_SUCCESS || got != status) return;
    const std::string message = last_error();
    EXPECT_NE(message.find("aclnnConvolutionBackwardGetWorkspaceSize"), std::string::npos) << message;
    if (!parameter.empty()) {
      EXPECT_NE(message.find(parameter), std::string::npos) << message;
    }
  }

 private:
  aclnn_cpu::Settings saved_;
};

// Holds the runtime for one scope: aclInit (or one more reference when it is already initialised) and
// device 0, released with aclrtResetDevice / aclFinalizeReference. aclInit re-reads the ACLNN_CPU_*
// environment, so create the session before choosing a product (the fixture restores settings afterwards).
class RuntimeSession {
 public:
  RuntimeSession() {
    const aclError init = aclInit(nullptr);
    initialised_ = init == ACL_SUCCESS || init == ACL_ERROR_REPEAT_INITIALIZE;
    device_ = initialised_ && aclrtSetDevice(0) == ACL_SUCCESS;
  }
  ~RuntimeSession() {
    if (device_) aclrtResetDevice(0);
    if (initialised_) aclFinalizeReference(nullptr);
  }
  RuntimeSession(const RuntimeSession &) = delete;
  RuntimeSession &operator=(const RuntimeSession &) = delete;
  bool ok() const { return initialised_ && device_; }

 private:
  bool initialised_ = false;
  bool device_ = false;
};

// Sets the process-level ACL_OPT_DETERMINISTIC for one scope (within a RuntimeSession) and puts back the
// previous value afterwards (0 when it was never set, which is what "never set" means to the op).
class DeterministicOption {
 public:
  explicit DeterministicOption(int64_t value) {
    had_value_ = aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &previous_) == ACL_SUCCESS;
    ok_ = aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, value) == ACL_SUCCESS;
  }
  ~DeterministicOption() { aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, had_value_ ? previous_ : 0); }
  DeterministicOption(const DeterministicOption &) = delete;
  DeterministicOption &operator=(const DeterministicOption &) = delete;
  bool ok() const { return ok_; }

 private:
  bool had_value_ = false;
  bool ok_ = false;
  int64_t previous_ = 0;
};

}  // namespace validation_test
