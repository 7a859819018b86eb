// Checks the outputs of one call against the independent fp64 reference (tests/conformance_reference.hpp,
// which rounds operands as the precision mode does): max abs error, relative l2 error and pass/fail per
// requested output; outputs passed with their mask bit off must be left untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api_run.hpp"
#include "conv_bwd/descriptor.hpp"
#include "core/config.hpp"
#include "host_data.hpp"
#include "precision.hpp"

namespace aclnn_cpu {
namespace demo {

struct OutputCheck {
  Output out = kGradInput;
  bool requested = false;  // outputMask bit
  bool present = false;    // a tensor was passed
  int64_t count = 0;       // elements
  int64_t terms = 0;       // products (or addends) per element, for the tolerance
  double max_abs = 0, rel_l2 = 0, tol = 0;
  int64_t non_finite = 0;  // elements whose NaN/Inf-ness differs from the reference
  bool pass = false;
  std::string note;
  // Set when every element equals one value (used by the sample problem's explicit check).
  bool uniform = false;
  double uniform_value = 0;
};

struct ReferenceSettings {
  Hf32Rounding hf32_rounding = Hf32Rounding::kTiesAway;
  Fp8Overflow fp8_overflow = Fp8Overflow::kSaturate;
};

std::vector<OutputCheck> check_outputs(const conv_bwd::ConvDesc &desc, const HostData &host, const ApiRun &run,
                                       const ReferenceSettings &settings);

const char *output_name(Output out);

// Multiply-adds of one gradient (gradInput or gradWeight: the same count), and the flops of the requested
// outputs: 2 per multiply-add, 1 per addend of gradBias.
double macs(const conv_bwd::ConvDesc &desc);
double flops(const conv_bwd::ConvDesc &desc);

}  // namespace demo
}  // namespace aclnn_cpu
