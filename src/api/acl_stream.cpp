// Streams: aclrtCreateStream ... aclrtStreamWaitEvent.
#include <memory>
#include <string>
#include <utility>

#include "acl/acl_rt.h"
#include "runtime/state.hpp"
#include "runtime/status.hpp"

namespace rt = aclnn_cpu::runtime;

extern "C" {

aclError aclrtCreateStream(aclrtStream *stream) {
  return rt::guarded("aclrtCreateStream", [&] { return rt::create_stream("aclrtCreateStream", stream); });
}

// Priority and flags change nothing on the host: every stream has its own worker thread.
aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag) {
  (void)priority;
  (void)flag;
  return rt::guarded("aclrtCreateStreamWithConfig",
                     [&] { return rt::create_stream("aclrtCreateStreamWithConfig", stream); });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return rt::guarded("aclrtDestroyStream", [&] { return rt::destroy_stream("aclrtDestroyStream", stream, false); });
}

// Drops the work that has not started (the running task, if any, still completes).
aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return rt::guarded("aclrtDestroyStreamForce",
                     [&] { return rt::destroy_stream("aclrtDestroyStreamForce", stream, true); });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  static const char kApi[] = "aclrtSynchronizeStream";
  return rt::guarded(kApi, [&]() -> aclError {
    std::shared_ptr<rt::Stream> target;
    const aclError status = rt::find_stream(kApi, stream, &target);
    return status != ACL_SUCCESS ? status : rt::synchronize(kApi, *target, -1);
  });
}

// timeout in milliseconds; -1 waits without limit.
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  static const char kApi[] = "aclrtSynchronizeStreamWithTimeout";
  return rt::guarded(kApi, [&]() -> aclError {
    if (timeout < -1) {
      return rt::invalid_argument(ACL_ERROR_RT_PARAM_INVALID, kApi, "timeout", std::to_string(timeout),
                                  "expected -1 (no limit) or a number of milliseconds >= 0");
    }
    std::shared_ptr<rt::Stream> target;
    const aclError status = rt::find_stream(kApi, stream, &target);
    return status != ACL_SUCCESS ? status : rt::synchronize(kApi, *target, timeout);
  });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
  static const char kApi[] = "aclrtStreamQuery";
  return rt::guarded(kApi, [&]() -> aclError {
    if (status == nullptr) return rt::null_argument(kApi, "status");
    std::shared_ptr<rt::Stream> target;
    const aclError found = rt::find_stream(kApi, stream, &target);
    if (found != ACL_SUCCESS) return found;
    *status = target->idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
  });
}

// The stream waits for the event's latest record at the time of this call; an event never recorded is no wait.
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  static const char kApi[] = "aclrtStreamWaitEvent";
  return rt::guarded(kApi, [&]() -> aclError {
    std::shared_ptr<rt::Event> target_event;
    aclError status = rt::find_event(kApi, "event", event, &target_event);
    if (status != ACL_SUCCESS) return status;
    std::shared_ptr<rt::Stream> target;
    status = rt::find_stream(kApi, stream, &target);
    if (status != ACL_SUCCESS) return status;
    const uint64_t seq = target_event->latest_record();
    if (seq == 0) return ACL_SUCCESS;
    if (!target->push(rt::make_wait_work(std::move(target_event), seq))) {
      return rt::fail(ACL_ERROR_INVALID_PARAM, kApi, "stream " + rt::pointer_text(stream) + " is being destroyed");
    }
    return ACL_SUCCESS;
  });
}

}  // extern "C"
