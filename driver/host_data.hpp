// The host side of one case: shapes of the six tensors, seeded input data (kept both as the bytes uploaded and
// as the exact values those bytes hold, which the reference reads), and poisoned output buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "conv_bwd/descriptor.hpp"
#include "options.hpp"

namespace aclnn_cpu {
namespace demo {

constexpr int kTensors = 6;  // conv_bwd::DescTensor order: gradOutput, input, weight, gradInput, gradWeight, gradBias

struct HostData {
  std::vector<int64_t> shape[kTensors];
  std::vector<double> values[3];               // gradOutput, input, weight as stored in their dtypes
  std::vector<unsigned char> bytes[kTensors];  // inputs encoded; outputs filled with a NaN poison pattern
};

HostData make_host_data(const conv_bwd::ConvDesc &desc, DataKind data, uint64_t seed);

int64_t element_count(const std::vector<int64_t> &shape);

// Decodes every element of a downloaded output.
std::vector<double> decode_all(aclDataType dtype, const std::vector<unsigned char> &bytes);

// True when every element still holds the poison pattern written before the call.
bool all_poison(aclDataType dtype, const std::vector<unsigned char> &bytes);

}  // namespace demo
}  // namespace aclnn_cpu
