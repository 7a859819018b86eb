// Conformance cases: a descriptor (src/conv_bwd/descriptor.hpp) plus tensor layouts and data, turned into
// test tensors and into a Problem built directly (the direct path, bypassing validation), together with what
// the test side independently expects of the precision model (docs/contract.md §3.5 table).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance_reference.hpp"
#include "conformance_tensor.hpp"
#include "conv_bwd/descriptor.hpp"
#include "conv_bwd/problem.hpp"
#include "core/config.hpp"

namespace conformance {

using aclnn_cpu::conv_bwd::ConvDesc;

enum Slot { kGradOutput, kInput, kWeight, kGradInput, kGradWeight, kGradBias, kSlots };
constexpr const char *kSlotName[kSlots] = {"gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"};

// kOnes: every input element 1 (the CANN samples); integer data is compared exactly.
enum class Data { kIntegers, kRandom, kOnes };

struct ConvCase {
  ConvDesc desc;
  Layout layout[kSlots];
  Data data = Data::kRandom;
  uint64_t seed = 1;
  int64_t int_range = 2;  // integers in [-int_range, int_range]
  aclnn_cpu::Hf32Rounding hf32_rounding = aclnn_cpu::Hf32Rounding::kTiesAway;
  aclnn_cpu::Fp8Overflow fp8_overflow = aclnn_cpu::Fp8Overflow::kSaturate;
  struct Special {
    Slot slot;
    int64_t index;  // logical element
    double value;   // e.g. NaN or ±Inf
  };
  std::vector<Special> specials;  // written over the generated data
};

inline ConvCase parse_case(const std::string &text, Data data = Data::kRandom, uint64_t seed = 1) {
  ConvCase c;
  std::string error;
  if (!aclnn_cpu::conv_bwd::parse_desc(text, &c.desc, &error)) ADD_FAILURE() << text << ": " << error;
  c.data = data;
  c.seed = seed;
  return c;
}

// splitmix64: small, portable, and the same sequence on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1p-53; }
  int64_t integer(int64_t range) {
    return static_cast<int64_t>(next() % static_cast<uint64_t>(2 * range + 1)) - range;
  }

 private:
  uint64_t state_;
};

inline bool is_8bit(aclDataType t) { return t == ACL_HIFLOAT8 || t == ACL_FLOAT8_E4M3FN; }

// op::PromoteType for the dtypes that reach the computation (docs/contract.md §2.1).
inline aclDataType promote(aclDataType a, aclDataType b) {
  if (a == b) return a;
  return ACL_FLOAT;  // F32 with anything, F16 with BF16, 8-bit with anything else
}

inline bool legacy(aclnn_cpu::Product p) {
  return p == aclnn_cpu::Product::kAscend910 || p == aclnn_cpu::Product::kAscend310P;
}

// docs/contract.md §3.5 table: the format operands are rounded to.
inline OperandFormat expected_operand_format(const ConvDesc &d) {
  const aclDataType p = promote(promote(d.dtype[kGradOutput], d.dtype[kInput]), d.dtype[kWeight]);
  if (is_8bit(p)) return OperandFormat::kExact;
  const int cmt = d.cube_math_type;
  if (cmt == 2 || (legacy(d.product) && cmt == 1)) return OperandFormat::kFp16;
  if (p == ACL_FLOAT) return (!legacy(d.product) && (cmt == 1 || cmt == 3)) ? OperandFormat::kHf32 : OperandFormat::kExact;
  return p == ACL_BF16 ? OperandFormat::kBf16 : OperandFormat::kFp16;
}

inline int expected_hf32_bits(aclnn_cpu::Product p) { return p == aclnn_cpu::Product::kAscend950 ? 10 : 11; }

inline RefSetup ref_setup(const ConvCase &c) {
  RefSetup s;
  s.transposed = c.desc.transposed;
  s.groups = c.desc.groups;
  for (int d = 0; d < 3; ++d) {
    s.stride[d] = c.desc.stride[d];
    s.dilation[d] = c.desc.dilation[d];
    s.pad_begin[d] = c.desc.pad_begin[d];
  }
  s.operands = expected_operand_format(c.desc);
  s.hf32_bits = expected_hf32_bits(c.desc.product);
  s.hf32_rounding = c.hf32_rounding;
  return s;
}

// The six tensors of a case: inputs filled with the case's data, outputs poisoned.
struct CaseTensors {
  TestTensor t[kSlots];
  bool present[kSlots] = {true, true, true, true, true, true};

  explicit CaseTensors(const ConvCase &c) {
    std::vector<int64_t> shapes[kSlots];
    aclnn_cpu::conv_bwd::desc_shapes(c.desc, shapes);
    Rng rng(c.seed);
    for (int s = 0; s < kSlots; ++s) {
      present[s] = c.desc.present[s];
      if (!present[s]) continue;
      t[s] = TestTensor(shapes[s], c.desc.dtype[s], c.layout[s]);
      if (s >= kGradInput) {
        t[s].poison();
        continue;
      }
      for (int64_t i = 0; i < t[s].numel(); ++i) {
        const double v = c.data == Data::kOnes       ? 1.0
                         : c.data == Data::kIntegers ? static_cast<double>(rng.integer(c.int_range))
                                                     : rng.uniform(-1.0, 1.0) * (is_8bit(c.desc.dtype[s]) ? 2.0 : 1.0);
        t[s].set(i, v);
      }
    }
    for (const ConvCase::Special &sp : c.specials) {
      if (sp.index < t[sp.slot].numel()) t[sp.slot].set(sp.index, sp.value);
    }
  }

  Dense5 dense(Slot s) const { return dense5(t[s].shape(), t[s].values()); }
  bool empty_inputs() const { return t[kGradOutput].numel() == 0 || t[kInput].numel() == 0 || t[kWeight].numel() == 0; }
};

inline aclnn_cpu::conv_bwd::TensorArg tensor_arg(TestTensor &t, bool present) {
  aclnn_cpu::conv_bwd::TensorArg a;
  if (!present) return a;
  a.present = true;
  a.dtype = t.dtype();
  a.shape = t.shape();
  a.strides = t.strides();
  a.offset = t.offset();
  a.data = t.data();
  a.numel = t.numel();
  return a;
}

// The Problem validation would produce for this case, built from the test side's own reading of docs/contract.md.
inline aclnn_cpu::conv_bwd::Problem build_problem(const ConvCase &c, CaseTensors &tensors) {
  using aclnn_cpu::conv_bwd::ComputeType;
  aclnn_cpu::conv_bwd::Problem p;
  const ConvDesc &d = c.desc;
  p.rank = d.spatial_rank + 2;
  p.transposed = d.transposed;
  p.groups = d.groups;
  p.cube_math_type = static_cast<int8_t>(d.cube_math_type);
  for (int i = 0; i < 3; ++i) p.mask[i] = d.mask[i];
  aclnn_cpu::conv_bwd::TensorArg *args[kSlots] = {&p.grad_output, &p.input,       &p.weight,
                                                  &p.grad_input,  &p.grad_weight, &p.grad_bias};
  for (int s = 0; s < kSlots; ++s) *args[s] = tensor_arg(tensors.t[s], tensors.present[s]);
  for (int i = 0; i < 3; ++i) {
    p.stride[i] = d.stride[i];
    p.dilation[i] = d.dilation[i];
    p.pad_begin[i] = d.pad_begin[i];
    p.pad_end[i] = d.pad_end[i];
    p.output_padding[i] = d.output_padding[i];
  }
  p.empty_path = tensors.empty_inputs();
  p.promoted = promote(promote(d.dtype[kGradOutput], d.dtype[kInput]), d.dtype[kWeight]);
  switch (expected_operand_format(d)) {
    case OperandFormat::kHf32:
      p.compute = ComputeType::kHf32;
      break;
    case OperandFormat::kFp16:
      p.compute = ComputeType::kFp16;
      break;
    case OperandFormat::kBf16:
      p.compute = ComputeType::kBf16;
      break;
    case OperandFormat::kExact:
      p.compute = p.promoted == ACL_HIFLOAT8 ? ComputeType::kHif8 : ComputeType::kFp32;
      break;
  }
  p.hf32_mantissa_bits = expected_hf32_bits(d.product);
  p.hf32_rounding = c.hf32_rounding;
  p.fp8_overflow = c.fp8_overflow;
  p.product = d.product;
  return p;
}

}  // namespace conformance
