// Text for validation messages: values are printed the way CANN prints them ("[1, 16, 10, 10]").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/span.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// "[1, 16, 10, 10]". Long lists are cut after a few entries, so a hostile length cannot make a huge message.
std::string ints_text(Span<int64_t> values);
// "[true, false, true]".
std::string bools_text(Span<uint8_t> values);
// "[FLOAT, FLOAT16, BFLOAT16]".
std::string dtypes_text(std::initializer_list<aclDataType> dtypes);
std::string dtypes_text(const std::vector<aclDataType> &dtypes);

// The name users give spatial dim `d` (0 .. dims-3) of a call whose tensors have `dims` dims: D, H, W for 3-D;
// H, W for 2-D; L for 1-D.
const char *spatial_name(int dims, int d);

// The message of a rule that failed only because a later rule fails too: the later one (the root cause) first,
// then the earlier one's own text, so the caller fixes the tensor that is really wrong.
std::string with_root_cause(const std::string &root_cause, const std::string &symptom);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
