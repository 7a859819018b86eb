// Runs a conformance case through the library — directly (Problem → execute) or through the public API
// (GetWorkspaceSize → aclnnConvolutionBackward → aclrtSynchronizeStream) — and checks everything observable:
// status, every requested output element against the independent reference (exactly for integer data, within
// a bound derived from the rounding chain for random data), masked-off outputs and every byte outside the
// views (gaps, guards) untouched, inputs unmodified.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "conv_bwd/execute.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "harness/conv_call.hpp"
#include "harness/desc_attrs.hpp"
#include "problem_builder.hpp"

namespace conformance {

enum class Path { kDirect, kApi };

// --- expected values --------------------------------------------------------------------------------------

// Upper bound of one rounding step's error at magnitude x in `dtype` (relative epsilon, or the smallest
// spacing near zero).
inline double ulp_bound(aclDataType dtype, double x) {
  const double a = std::fabs(x);
  switch (dtype) {
    case ACL_FLOAT:
      return std::max(a * 0x1p-23, 0x1p-149);
    case ACL_FLOAT16:
      return std::max(a * 0x1p-10, 0x1p-24);
    case ACL_BF16:
      return std::max(a * 0x1p-7, 0x1p-133);
    case ACL_HIFLOAT8:
      return std::max(a * 0.5, 0x1p-22);
    default:
      return std::max(a * 0x1p-3, 0x1p-9);
  }
}

// The rounding chain of docs/contract.md §3.5 from an exact sum to the stored value, and the error bound of its steps.
inline double chain(const ConvCase &c, Slot slot, double sum, double *bound) {
  const OperandFormat operands = expected_operand_format(c.desc);
  const aclDataType out = c.desc.dtype[slot];
  double v = static_cast<float>(sum);  // the cube's fp32 accumulator / ReduceSum's fp32 sum
  *bound = ulp_bound(ACL_FLOAT, v);
  if (slot == kGradInput && operands == OperandFormat::kFp16) {  // dX kernels output C
    v = round_to(ACL_FLOAT16, v);
    *bound += ulp_bound(ACL_FLOAT16, v);
  } else if (slot == kGradInput && operands == OperandFormat::kBf16) {
    v = round_to(ACL_BF16, v);
    *bound += ulp_bound(ACL_BF16, v);
  } else if (slot == kGradBias) {  // reduced in gradOutput's dtype
    v = round_to(c.desc.dtype[kGradOutput], v, c.fp8_overflow);
    *bound += ulp_bound(c.desc.dtype[kGradOutput], v);
  }
  v = round_to(out, v, c.fp8_overflow);
  *bound += ulp_bound(out, v);
  return v;
}

// The fewest finite elements an output needs for the relative l2 check (check_output).
constexpr int64_t kL2MinElements = 16;

inline double l2_threshold(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return 1e-5;
    case ACL_FLOAT16:
      return 2e-3;
    case ACL_BF16:
      return 1.6e-2;
    default:
      return 0.25;
  }
}

inline std::string case_text(const ConvCase &c) {
  std::ostringstream os;
  os << aclnn_cpu::conv_bwd::format_desc(c.desc) << " ["
     << (c.data == Data::kIntegers ? "integers"
         : c.data == Data::kOnes   ? "ones"
                                   : "random")
     << " seed " << c.seed << "]";
  return os.str();
}

// Compares one requested output with the reference sums.
inline ::testing::AssertionResult check_output(const ConvCase &c, Slot slot, const TestTensor &t, const RefSums &ref,
                                               bool zero_fill) {
  // gradInput passes through the compute type when that is FP16/BF16: fp32 sums that differ in the last bit may
  // round to neighbouring FP16/BF16 values there, so the l2 bound is that of the coarser format.
  aclDataType l2_dtype = t.dtype();
  if (slot == kGradInput && l2_dtype == ACL_FLOAT) {
    const OperandFormat f = expected_operand_format(c.desc);
    if (f == OperandFormat::kFp16) l2_dtype = ACL_FLOAT16;
    if (f == OperandFormat::kBf16) l2_dtype = ACL_BF16;
  }
  const double l2_max = l2_threshold(l2_dtype);
  double err2 = 0, ref2 = 0;
  int64_t l2_elements = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double bound = 0;
    const double exp = zero_fill ? 0.0 : chain(c, slot, ref.sum[i], &bound);
    const double got = t.get(i);
    const bool exact = c.data != Data::kRandom || zero_fill;
    // The library may add its products in fp32, in any order and blocking (as the cube does): each of the
    // `terms` additions (and, without FMA, each product) rounds once, so the sum moves by at most
    // (terms + 1)·2⁻²⁴ of the sum of the magnitudes. Integer-valued data stays exact in fp32.
    const double tol = exact ? 0.0 : bound + static_cast<double>(ref.terms[i] + 1) * 0x1p-24 * ref.abs_sum[i];
    const bool same = (std::isnan(exp) && std::isnan(got)) || got == exp;  // also ±Inf
    const bool unwritten = t.is_poison(i) && !std::isnan(exp);
    if (unwritten || (!same && !(std::fabs(got - exp) <= tol))) {
      return ::testing::AssertionFailure()
             << kSlotName[slot] << " element " << i << ": got " << got << ", expected " << exp << " (tolerance " << tol
             << (unwritten ? ", never written" : "") << ") in " << case_text(c);
    }
    if (std::isfinite(exp)) {
      err2 += (got - exp) * (got - exp);
      ref2 += exp * exp;
      ++l2_elements;
    }
  }
  // The l2 check looks, over many elements, for errors the element bounds allow but that no correct library makes in
  // bulk (a wrong rounding mode, a dropped term). Over a few elements one sum that cancels can carry it alone: a
  // correctly rounded fp32 result may then miss the threshold (found by the differential fuzzer: one output element,
  // 16 terms of mixed sign, 1.7e-5 off against 1e-5, well inside its element bound). Such outputs keep the element
  // checks only.
  if (l2_elements >= kL2MinElements && ref2 > 0 && std::sqrt(err2 / ref2) > l2_max) {
    return ::testing::AssertionFailure() << kSlotName[slot] << " relative l2 error " << std::sqrt(err2 / ref2) << " in "
                                         << case_text(c);
  }
  return ::testing::AssertionSuccess();
}

// --- running ------------------------------------------------------------------------------------------------

inline int run_direct(const ConvCase &c, CaseTensors &tensors, std::string *error) {
  const aclnn_cpu::conv_bwd::Problem p = build_problem(c, tensors);
  const uint64_t bytes = aclnn_cpu::conv_bwd::workspace_size(p);
  // Poisoned with a large finite value (0x4B4B4B4B ≈ 1.3e7): scratch read before it is written shows as a wrong
  // result (a NaN would only send the output to the reference's fallback).
  std::vector<unsigned char> workspace(bytes, 0x4B);
  const int status = aclnn_cpu::conv_bwd::execute(p, bytes ? workspace.data() : nullptr, bytes);
  if (status != ACLNN_SUCCESS) {
    const char *e = aclnn_cpu::recent_error();
    *error = e ? e : "";
  }
  return status;
}

// The public-API tensor of case tensor `t` in slot `slot`, its view over `data` laid out as in t's buffer (guard
// included in the storage).
// The bytes of every output present, gradInput then gradWeight then gradBias (to compare two runs bitwise).
inline std::vector<unsigned char> output_bytes(const CaseTensors &tensors) {
  std::vector<unsigned char> out;
  for (int s = kGradInput; s < kSlots; ++s) {
    if (tensors.present[s]) out.insert(out.end(), tensors.t[s].bytes().begin(), tensors.t[s].bytes().end());
  }
  return out;
}

inline aclnn_cpu::harness::TensorHandle api_tensor(int slot, const TestTensor &t, void *data) {
  return aclnn_cpu::harness::make_tensor(t.shape(), t.strides(), t.offset(), t.dtype(),
                                         aclnn_cpu::harness::tensor_format(slot, t.shape().size()),
                                         {t.storage_elements()}, data);
}

// Owns the aclnn objects of one API call.
class ApiCall {
 public:
  ApiCall(const ConvCase &c, CaseTensors &tensors) : args_(aclnn_cpu::harness::desc_attrs(c.desc)) {
    for (int s = 0; s < kSlots; ++s) {
      if (tensors.present[s]) tensor_[s] = api_tensor(s, tensors.t[s], tensors.t[s].data());
    }
  }

  int get_workspace_size(uint64_t *bytes, aclOpExecutor **executor) {
    aclTensor *tensors[kSlots];
    for (int s = 0; s < kSlots; ++s) tensors[s] = tensor_[s].get();
    return args_.get_workspace_size(tensors, bytes, executor);
  }

 private:
  aclnn_cpu::harness::TensorHandle tensor_[kSlots];
  aclnn_cpu::harness::ConvArgs args_;
};

inline std::string recent_api_error() { return aclnn_cpu::harness::recent_error(); }

// ACLNN_CPU_ALGO as the environment holds it ("" when unset), to restore with set_algo_setting.
inline std::string algo_setting() {
  const char *value = std::getenv("ACLNN_CPU_ALGO");
  return value != nullptr ? value : "";
}

// ACLNN_CPU_ALGO = value ("" unsets it), loaded into the settings as aclInit would.
inline void set_algo_setting(const std::string &value) {
  if (value.empty()) {
    unsetenv("ACLNN_CPU_ALGO");
  } else {
    setenv("ACLNN_CPU_ALGO", value.c_str(), 1);
  }
  std::string error;
  ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
}

// Needs aclInit and a device (the test fixture's). Switches the emulated product to the case's.
inline int run_api(const ConvCase &c, CaseTensors &tensors, aclrtStream stream, std::string *error) {
  aclnn_cpu::set_product(c.desc.product);
  uint64_t bytes = 0;
  aclOpExecutor *executor = nullptr;
  int status;
  {
    // The descriptors are destroyed before the stream runs, as torch_npu does.
    ApiCall call(c, tensors);
    status = call.get_workspace_size(&bytes, &executor);
  }
  if (status != ACLNN_SUCCESS) {
    *error = "GetWorkspaceSize: " + recent_api_error();
    return status;
  }
  aclnn_cpu::harness::Workspace workspace;
  const aclnn_cpu::harness::Outcome outcome = aclnn_cpu::harness::launch(executor, bytes, &workspace, stream);
  switch (outcome.failed) {
    case aclnn_cpu::harness::Step::kWorkspace:
      *error = "aclrtMalloc of the workspace failed";
      return -1;
    case aclnn_cpu::harness::Step::kLaunch:
      *error = "aclnnConvolutionBackward: " + recent_api_error();
      break;
    case aclnn_cpu::harness::Step::kSynchronize:
      *error = "aclrtSynchronizeStream: " + recent_api_error();
      break;
    default:
      break;
  }
  return outcome.status;
}

// --- the check ------------------------------------------------------------------------------------------------

// `tensors` must have been made from `c`; they keep the results for further checks.
inline ::testing::AssertionResult check_case(const ConvCase &c, CaseTensors &tensors, Path path = Path::kDirect,
                                             aclrtStream stream = nullptr) {
  std::vector<unsigned char> before[kSlots];
  for (int s = 0; s < kSlots; ++s) before[s] = tensors.t[s].bytes();
  const RefSetup setup = ref_setup(c);
  const Dense5 go = tensors.dense(kGradOutput), in = tensors.dense(kInput), w = tensors.dense(kWeight);
  const bool empty = tensors.empty_inputs();

  std::string error;
  const int status = path == Path::kDirect ? run_direct(c, tensors, &error) : run_api(c, tensors, stream, &error);
  if (status != ACLNN_SUCCESS) {
    return ::testing::AssertionFailure() << "status " << status << " (" << error << ") for " << case_text(c);
  }
  for (int s = 0; s < kSlots; ++s) {
    if (!tensors.present[s]) continue;
    const bool requested = s >= kGradInput && c.desc.mask[s - kGradInput] && !(empty && s == kGradInput);
    if (!requested) {
      if (tensors.t[s].bytes() != before[s]) {
        return ::testing::AssertionFailure()
               << kSlotName[s] << " was modified although "
               << (s < kGradInput ? "it is an input" : "it was not requested") << " in " << case_text(c);
      }
      continue;
    }
    const std::string outside = tensors.t[s].changed_outside_view(before[s]);
    if (!outside.empty())
      return ::testing::AssertionFailure() << kSlotName[s] << ": " << outside << " in " << case_text(c);
    RefSums ref;
    if (!empty) {
      ref = s == kGradInput    ? ref_grad_input(setup, go, in, w)
            : s == kGradWeight ? ref_grad_weight(setup, go, in, w)
                               : ref_grad_bias(go);
    }
    ::testing::AssertionResult r = check_output(c, static_cast<Slot>(s), tensors.t[s], ref, empty);
    if (!r) return r;
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult check_case(const ConvCase &c, Path path = Path::kDirect,
                                             aclrtStream stream = nullptr) {
  CaseTensors tensors(c);
  return check_case(c, tensors, path, stream);
}

}  // namespace conformance
