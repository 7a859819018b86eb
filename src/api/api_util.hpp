// Helpers shared by the C entry points of the aclnn layer: exception barriers and messages about handles.
#pragma once

#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "api/objects.hpp"
#include "core/error.hpp"

namespace aclnn_cpu {

// "0x7f..." (or "nullptr"), for messages that name a handle without touching it.
inline std::string pointer_text(const void *p) {
  if (p == nullptr) return "nullptr";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%p", p);
  return buf;
}

// Runs `body` (returning an aclnnStatus) so that no exception crosses the C boundary: running out of memory
// becomes 561103 and any other exception 561000, each with a message naming `api`.
template <class Body>
int status_guard(const char *api, Body &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return inner_error(ACLNN_ERR_INNER_NULLPTR, api, "out of host memory");
  } catch (const std::exception &e) {
    return inner_error(ACLNN_ERR_INNER, api, std::string("internal failure: ") + e.what());
  } catch (...) {
    return inner_error(ACLNN_ERR_INNER, api, "internal failure (unknown exception)");
  }
}

// ACLNN_CPU_VERBOSE > 0: a refused call prints "aclnn_cpu_verbose,error,<phase>,status=<status>,<message>" on
// stderr, the message being this thread's recent error (what aclGetRecentErrMsg returns). `phase` is
// "GetWorkspaceSize", "launch", or "stream" (the work refused when its stream ran it). Returns `status`.
int log_refusal(const char *phase, int status) noexcept;

// Same barrier for entry points that return a pointer: any exception yields nullptr and a message.
template <class T, class Body>
T *pointer_guard(const char *api, Body &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    inner_error(ACLNN_ERR_INNER_NULLPTR, api, "out of host memory");
  } catch (const std::exception &e) {
    inner_error(ACLNN_ERR_INNER, api, std::string("internal failure: ") + e.what());
  } catch (...) {
    inner_error(ACLNN_ERR_INNER, api, "internal failure (unknown exception)");
  }
  return nullptr;
}

// An aclDataType / aclFormat argument as CANN would keep it. A C caller (or a fuzzer) may pass any int; loading a
// value outside the enum's range as the enum type is undefined, so the argument is read as raw bytes and a value
// no enumerator range covers becomes ACL_DT_UNDEFINED / ACL_FORMAT_UNDEFINED (CANN's own conversion maps
// unknown values to "undefined" too). Values inside the range are kept for validation to judge.
aclDataType normalise_dtype(const aclDataType &arg);
aclFormat normalise_format(const aclFormat &arg);

// The name users know for each kind of handle ("aclTensor", ...).
const char *handle_kind_name(HandleKind kind);

// 161001 when `handle` is NULL, 161002 when it is not a live handle of `kind`, else 0. `param` is the
// parameter's name as CANN spells it.
int check_handle(const char *api, const char *param, HandleKind kind, const void *handle);

// 161002 with a message when a non-NULL `handle` is not a live handle of `kind`, else 0 (NULL passes).
int check_optional_handle(const char *api, const char *param, HandleKind kind, const void *handle);

// Registers `object` under `kind`, deleting it if registration fails (then rethrows std::bad_alloc).
template <class T>
T *register_new(HandleKind kind, T *object) {
  try {
    register_handle(kind, object);
  } catch (...) {
    delete object;
    throw;
  }
  return object;
}

// Destroys a handle of `kind` created by `new T`: NULL is fine (0), a stale or foreign pointer is 161002 and
// is never dereferenced.
template <class T>
int destroy_handle(const char *api, const char *param, HandleKind kind, const T *handle) {
  if (handle == nullptr) return ACLNN_SUCCESS;
  if (!unregister_handle(kind, handle)) return check_optional_handle(api, param, kind, handle);
  delete handle;
  return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu
