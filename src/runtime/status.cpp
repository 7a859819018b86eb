#include "runtime/status.hpp"

#include <cstdio>

#include "core/error.hpp"

namespace aclnn_cpu {
namespace runtime {

aclError fail(aclError status, const char *api, const char *detail) noexcept {
  try {
    set_recent_error(std::string(api) + ": " + detail);
  } catch (...) {
    // Out of memory while formatting: the status alone still tells the caller what happened.
  }
  return status;
}

aclError fail(aclError status, const char *api, const std::string &detail) noexcept {
  return fail(status, api, detail.c_str());
}

aclError null_argument(const char *api, const char *param) noexcept {
  try {
    return fail(ACL_ERROR_INVALID_PARAM, api,
                std::string("parameter ") + param + " is NULL; a valid pointer is required");
  } catch (...) {
    return ACL_ERROR_INVALID_PARAM;
  }
}

aclError invalid_argument(aclError status, const char *api, const char *param, const std::string &value,
                          const std::string &rule) noexcept {
  try {
    return fail(status, api, std::string("parameter ") + param + " = " + value + " is invalid: " + rule);
  } catch (...) {
    return status;
  }
}

std::string pointer_text(const void *p) {
  if (p == nullptr) return "NULL";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%p", p);
  return buf;
}

}  // namespace runtime
}  // namespace aclnn_cpu
