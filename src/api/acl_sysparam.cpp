// aclrt{Ctx,}{Get,Set}SysParamOpt: one value store read by both levels (docs/contract.md §1.6).
#include "acl/acl_rt.h"
#include "runtime/state.hpp"
#include "runtime/status.hpp"
#include "runtime/sys_params.hpp"

namespace rt = aclnn_cpu::runtime;

namespace {

aclError set_option(const char *api, bool context_level, const aclSysParamOpt &opt, int64_t value) {
  return rt::guarded(api, [&]() -> aclError {
    const aclError status = rt::require_initialized(api);
    return status != ACL_SUCCESS ? status : rt::set_sys_param(api, context_level, rt::enum_value(opt), value);
  });
}

aclError get_option(const char *api, bool context_level, const aclSysParamOpt &opt, int64_t *value) {
  return rt::guarded(api, [&]() -> aclError {
    const aclError status = rt::require_initialized(api);
    return status != ACL_SUCCESS ? status : rt::get_sys_param(api, context_level, rt::enum_value(opt), value);
  });
}

}  // namespace

extern "C" {

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
  return get_option("aclrtCtxGetSysParamOpt", true, opt, value);
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  return set_option("aclrtCtxSetSysParamOpt", true, opt, value);
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
  return get_option("aclrtGetSysParamOpt", false, opt, value);
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  return set_option("aclrtSetSysParamOpt", false, opt, value);
}

}  // extern "C"
