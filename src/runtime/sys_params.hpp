// The values behind aclrt{Ctx,}{Get,Set}SysParamOpt. There is one store: a value set at either level is what
// both levels read (this host has a single context per process as far as these options are concerned).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace aclnn_cpu {
namespace runtime {

// `context_level` selects the aclrtCtx* rules: options 0..2 there, 0..3 at process level; any other option is
// ACL_ERROR_INVALID_PARAM. Getting an option never set is ACL_ERROR_RT_SYSPARAMOPT_NOT_SET.
// `opt` is the caller's aclSysParamOpt as read by enum_value.
aclError set_sys_param(const char *api, bool context_level, int32_t opt, int64_t value);
aclError get_sys_param(const char *api, bool context_level, int32_t opt, int64_t *value);

// Forgets every value (aclFinalize).
void clear_sys_params();

}  // namespace runtime
}  // namespace aclnn_cpu
