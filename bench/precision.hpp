// Precision modes of the benchmark: the tensors' dtype and the cubeMathType our call uses, and the bit-level
// conversions the host side needs to build BF16/FP16 data and read it back.
#ifndef ACLNN_CPU_BENCH_PRECISION_HPP_
#define ACLNN_CPU_BENCH_PRECISION_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace aclnn_cpu {
namespace bench {

enum class Precision { kF32, kHF32, kBF16, kF16 };

struct PrecisionInfo {
  const char *name;   // as printed and as given to --prec
  aclDataType dtype;  // every tensor of the call (outputs match inputs)
  int8_t cube_math_type;
  size_t element_bytes;
};

const PrecisionInfo &info(Precision p);
bool parse_precision(const std::string &name, Precision *out);

uint16_t float_to_bf16(float f);  // round to nearest even
float bf16_to_float(uint16_t h);
uint16_t float_to_fp16(float f);  // round to nearest even, overflow to infinity
float fp16_to_float(uint16_t h);

// Rounds values to what the precision's dtype can hold (FP32 and HF32 keep them: HF32 is a compute format).
void round_to_dtype(Precision p, std::vector<float> *values);
// The values as the dtype's bytes, and back.
std::vector<unsigned char> to_bytes(Precision p, const std::vector<float> &values);
std::vector<float> from_bytes(Precision p, const std::vector<unsigned char> &bytes);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_PRECISION_HPP_
