// What the demo expects of the precision model, read from docs/contract.md §3.5/§3.6 on its own (not taken
// from the library): which format the operands are rounded to, how an exact sum becomes the stored output
// value, and how far a correct result may land from it.
#pragma once

#include <cstdint>

#include "conformance_reference.hpp"
#include "conv_bwd/descriptor.hpp"
#include "core/config.hpp"

namespace aclnn_cpu {
namespace demo {

enum Output { kGradInput, kGradWeight, kGradBias };

// docs/contract.md §3.5 table: the compute dtype gradOutput, input and weight are rounded to.
conformance::OperandFormat operand_format(const conv_bwd::ConvDesc &desc);
const char *operand_format_name(conformance::OperandFormat format);

// HF32 keeps 11 mantissa bits on Ascend910B/910_93 and 10 on Ascend950 (docs/contract.md §4.2, §6 Q8).
int hf32_mantissa_bits(Product product);

// The value a correct implementation stores for output `out` whose exact sum is `sum`: the fp32 accumulator,
// then fp16/bf16 for gradInput computed in that type, then the output dtype; gradBias goes through
// gradOutput's dtype first (the sum is done in it).
double stored_value(const conv_bwd::ConvDesc &desc, Output out, double sum, Fp8Overflow overflow);

// Unit roundoff of the coarsest rounding step on the way from the sum to the stored value.
double chain_roundoff(const conv_bwd::ConvDesc &desc, Output out);

// Pass bound on the relative l2 error: a few roundings at the output's own precision plus fp32 accumulation
// in another order over `terms` terms (a random walk: grows like sqrt(terms)).
double tolerance(const conv_bwd::ConvDesc &desc, Output out, int64_t terms);

}  // namespace demo
}  // namespace aclnn_cpu
