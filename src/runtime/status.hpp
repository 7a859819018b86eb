// How the runtime entry points report a failure: a status code plus a message for aclGetRecentErrMsg that
// names the API, the parameter, the value and the rule; and the barrier that keeps exceptions out of C callers.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "acl/acl_base.h"

namespace aclnn_cpu {
namespace runtime {

// Records "<api>: <detail>" as this thread's recent error and returns `status`. Never throws.
aclError fail(aclError status, const char *api, const char *detail) noexcept;
aclError fail(aclError status, const char *api, const std::string &detail) noexcept;

// ACL_ERROR_INVALID_PARAM: "parameter <param> is NULL".
aclError null_argument(const char *api, const char *param) noexcept;

// `status` with "parameter <param> = <value> is invalid: <rule>".
aclError invalid_argument(aclError status, const char *api, const char *param, const std::string &value,
                          const std::string &rule) noexcept;

// The value a C caller passed for an enum parameter. Read through memcpy: a value that is none of the
// enumerators must not be loaded as the enum type (undefined behaviour, reported by UBSan).
template <class Enum>
int32_t enum_value(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "CANN's enums are int-sized");
  int32_t raw = 0;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

// "0x7f..." for messages that name a handle without touching it.
std::string pointer_text(const void *p);

// Runs `body` (returning an aclError) so that no exception crosses the C boundary.
template <class Body>
aclError guarded(const char *api, Body &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(ACL_ERROR_BAD_ALLOC, api, "out of host memory");
  } catch (const std::exception &e) {
    return fail(ACL_ERROR_INTERNAL_ERROR, api, e.what());
  } catch (...) {
    return fail(ACL_ERROR_INTERNAL_ERROR, api, "unknown internal exception");
  }
}

}  // namespace runtime
}  // namespace aclnn_cpu
