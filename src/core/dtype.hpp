// Facts about aclDataType values used across layers.
#pragma once

#include <cstddef>

#include "acl/acl_base.h"

namespace aclnn_cpu {

// Bytes per element; 0 for types without a whole-byte element (ACL_INT4, ACL_UINT1, FP4/FP6) or unknown values.
size_t dtype_size(aclDataType dtype);

// "FLOAT", "FLOAT16", "BFLOAT16", ... (CANN's spelling in messages); "UNKNOWN(<n>)" otherwise.
const char *dtype_name(aclDataType dtype);

const char *format_name(aclFormat format);

}  // namespace aclnn_cpu
