#include "runtime/sys_params.hpp"

#include <mutex>
#include <string>

#include "runtime/runtime.hpp"
#include "runtime/status.hpp"

namespace aclnn_cpu {
namespace runtime {
namespace {

constexpr int kOptionCount = 4;  // ACL_OPT_DETERMINISTIC .. ACL_OPT_ENABLE_KERNEL_EARLY_START

struct Store {
  std::mutex mutex;
  bool set[kOptionCount] = {};
  int64_t value[kOptionCount] = {};
};

Store &store() {
  static Store *s = new Store;  // never destroyed: read by stream threads
  return *s;
}

aclError check_option(const char *api, bool context_level, int32_t opt) {
  const int32_t last = context_level ? 2 : 3;
  if (opt >= 0 && opt <= last) return ACL_SUCCESS;
  return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "opt", std::to_string(opt),
                          context_level ? "the context level accepts ACL_OPT_DETERMINISTIC (0), "
                                          "ACL_OPT_ENABLE_DEBUG_KERNEL (1) and ACL_OPT_STRONG_CONSISTENCY (2)"
                                        : "expected an aclSysParamOpt from 0 to 3");
}

}  // namespace

aclError set_sys_param(const char *api, bool context_level, int32_t opt, int64_t value) {
  const aclError status = check_option(api, context_level, opt);
  if (status != ACL_SUCCESS) return status;
  Store &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.set[opt] = true;
  s.value[opt] = value;
  return ACL_SUCCESS;
}

aclError get_sys_param(const char *api, bool context_level, int32_t opt, int64_t *value) {
  const aclError status = check_option(api, context_level, opt);
  if (status != ACL_SUCCESS) return status;
  if (value == nullptr) return null_argument(api, "value");
  Store &s = store();
  std::unique_lock<std::mutex> lock(s.mutex);
  if (!s.set[opt]) {
    lock.unlock();
    return fail(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, api,
                "option " + std::to_string(opt) + " has not been set");
  }
  *value = s.value[opt];
  return ACL_SUCCESS;
}

void clear_sys_params() {
  Store &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (int i = 0; i < kOptionCount; ++i) {
    s.set[i] = false;
    s.value[i] = 0;
  }
}

int64_t deterministic_option() {
  Store &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.set[ACL_OPT_DETERMINISTIC] ? s.value[ACL_OPT_DETERMINISTIC] : 0;
}

}  // namespace runtime
}  // namespace aclnn_cpu
