#include "conv_bwd/validate/text.hpp"

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/call.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Enough for any legal rank or attribute list; longer (invalid) lists are elided.
constexpr size_t kMaxPrinted = 16;

template <typename T, typename Print>
std::string list_text(Span<T> values, Print print) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i == kMaxPrinted) {
      text += ", ... (" + std::to_string(values.size()) + " values)";
      break;
    }
    if (i > 0) text += ", ";
    text += print(values[i]);
  }
  return text + "]";
}

}  // namespace

std::string ints_text(Span<int64_t> values) {
  return list_text(values, [](int64_t v) { return std::to_string(v); });
}

std::string bools_text(Span<uint8_t> values) {
  return list_text(values, [](uint8_t v) { return std::string(v != 0 ? "true" : "false"); });
}

std::string dtypes_text(const std::vector<aclDataType> &dtypes) {
  return list_text(Span<aclDataType>(dtypes), [](aclDataType d) { return std::string(dtype_name(d)); });
}

std::string dtypes_text(std::initializer_list<aclDataType> dtypes) {
  return dtypes_text(std::vector<aclDataType>(dtypes));
}

const char *spatial_name(int dims, int d) {
  static const char *const kNames[3][3] = {{"L", "?", "?"}, {"H", "W", "?"}, {"D", "H", "W"}};
  if (dims < 3 || dims > 5 || d < 0 || d > dims - 3) return "?";
  return kNames[dims - 3][d];
}

std::string with_root_cause(const std::string &root_cause, const std::string &symptom) {
  return root_cause + " Because of that, an earlier check fails too: " + symptom;
}

int fail_null(const std::string &detail) { return param_error(ACLNN_ERR_PARAM_NULLPTR, kApi, detail); }
int fail_invalid(const std::string &detail) { return param_error(ACLNN_ERR_PARAM_INVALID, kApi, detail); }
int fail_internal(const std::string &detail) { return inner_error(ACLNN_ERR_INNER_NULLPTR, kApi, detail); }

}  // namespace conv_bwd
}  // namespace aclnn_cpu
