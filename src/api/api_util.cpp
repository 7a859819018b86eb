#include "api/api_util.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/config.hpp"

namespace aclnn_cpu {
namespace {

// Both enums have enumerators from -1 to below 64, so the values of the enum type are those of a 7-bit signed
// bit-field (C++ [dcl.enum]): [-64, 63].
constexpr int32_t kEnumMin = -64;
constexpr int32_t kEnumMax = 63;

template <class Enum>
Enum normalise(const Enum &arg, Enum undefined) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "aclDataType and aclFormat are int-sized C enums");
  int32_t raw = 0;
  std::memcpy(&raw, &arg, sizeof(raw));
  return raw >= kEnumMin && raw <= kEnumMax ? static_cast<Enum>(raw) : undefined;
}

}  // namespace

aclDataType normalise_dtype(const aclDataType &arg) { return normalise(arg, ACL_DT_UNDEFINED); }

aclFormat normalise_format(const aclFormat &arg) { return normalise(arg, ACL_FORMAT_UNDEFINED); }

const char *handle_kind_name(HandleKind kind) {
  switch (kind) {
    case HandleKind::kTensor: return "aclTensor";
    case HandleKind::kScalar: return "aclScalar";
    case HandleKind::kIntArray: return "aclIntArray";
    case HandleKind::kFloatArray: return "aclFloatArray";
    case HandleKind::kBoolArray: return "aclBoolArray";
    case HandleKind::kTensorList: return "aclTensorList";
    case HandleKind::kScalarList: return "aclScalarList";
    case HandleKind::kExecutor: return "aclOpExecutor";
  }
  return "handle";
}

int check_optional_handle(const char *api, const char *param, HandleKind kind, const void *handle) {
  if (handle == nullptr || is_live_handle(kind, handle)) return ACLNN_SUCCESS;
  return param_error(ACLNN_ERR_PARAM_INVALID, api,
                     std::string(param) + " (" + pointer_text(handle) + ") is not a live " + handle_kind_name(kind) +
                         ": it was already destroyed, or was not created by this library");
}

int check_handle(const char *api, const char *param, HandleKind kind, const void *handle) {
  if (handle == nullptr) {
    return param_error(ACLNN_ERR_PARAM_NULLPTR, api, std::string(param) + " is nullptr");
  }
  return check_optional_handle(api, param, kind, handle);
}

int log_refusal(const char *phase, int status) noexcept {
  if (status == ACLNN_SUCCESS) return status;
  try {
    if (settings().verbose <= 0) return status;
    const char *recent = recent_error();
    std::string message = recent != nullptr ? recent : "(no message)";
    std::replace(message.begin(), message.end(), '\n', ' ');  // one line per call, for grep
    std::fprintf(stderr, "aclnn_cpu_verbose,error,%s,status=%d,%s\n", phase, status, message.c_str());
  } catch (...) {
    // Out of memory while formatting: the call's own status still reaches the caller.
  }
  return status;
}

}  // namespace aclnn_cpu
