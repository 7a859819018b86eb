// Device 0 and its contexts: aclrtSetDevice ... aclrtGetCurrentContext, aclrtGetRunMode, aclrtGetDeviceCount.
#include <string>

#include "acl/acl_rt.h"
#include "runtime/state.hpp"
#include "runtime/status.hpp"

namespace rt = aclnn_cpu::runtime;

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  return rt::guarded("aclrtSetDevice", [&] { return rt::set_device("aclrtSetDevice", deviceId); });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return rt::guarded("aclrtResetDevice", [&] { return rt::reset_device("aclrtResetDevice", deviceId, false); });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return rt::guarded("aclrtResetDeviceForce",
                     [&] { return rt::reset_device("aclrtResetDeviceForce", deviceId, true); });
}

aclError aclrtGetDevice(int32_t *deviceId) {
  return rt::guarded("aclrtGetDevice", [&] { return rt::get_device("aclrtGetDevice", deviceId); });
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  if (count == nullptr) return rt::null_argument("aclrtGetDeviceCount", "count");
  *count = 1;
  return ACL_SUCCESS;
}

// ACL_HOST: programs then stage data with aclrtMemcpy, which this host runtime supports for every kind.
aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  if (runMode == nullptr) return rt::null_argument("aclrtGetRunMode", "runMode");
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  return rt::guarded("aclrtCreateContext",
                     [&] { return rt::create_context("aclrtCreateContext", deviceId, context); });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return rt::guarded("aclrtDestroyContext", [&] { return rt::destroy_context("aclrtDestroyContext", context); });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  return rt::guarded("aclrtSetCurrentContext",
                     [&] { return rt::set_current_context("aclrtSetCurrentContext", context); });
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  return rt::guarded("aclrtGetCurrentContext",
                     [&] { return rt::get_current_context("aclrtGetCurrentContext", context); });
}

aclError aclrtSynchronizeDevice(void) {
  static const char kApi[] = "aclrtSynchronizeDevice";
  return rt::guarded(kApi, [&]() -> aclError {
    const aclError status = rt::require_device(kApi);
    if (status != ACL_SUCCESS) return status;
    if (rt::on_stream_worker()) {
      return rt::fail(ACL_ERROR_FAILURE, kApi, "must not be called from work running on a stream");
    }
    // Every stream counts as synchronized: each failure is reported once, the first one found here.
    aclError first = ACL_SUCCESS;
    std::string first_message;
    for (const auto &stream : rt::live_streams()) {
      stream->wait(-1);
      std::string message;
      const aclError failure = stream->take_failure(&message);
      if (first == ACL_SUCCESS && failure != ACL_SUCCESS) {
        first = failure;
        first_message.swap(message);
      }
    }
    if (first == ACL_SUCCESS) return ACL_SUCCESS;
    if (first_message.empty()) first_message = "queued work failed with status " + std::to_string(first);
    return rt::fail(first, kApi, first_message);
  });
}

}  // extern "C"
