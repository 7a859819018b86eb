// Events: aclrtCreateEvent ... aclrtEventElapsedTime.
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "acl/acl_rt.h"
#include "runtime/state.hpp"
#include "runtime/status.hpp"

namespace rt = aclnn_cpu::runtime;

extern "C" {

aclError aclrtCreateEvent(aclrtEvent *event) {
  static const uint32_t kDefaultFlags = ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE;
  return rt::guarded("aclrtCreateEvent", [&] { return rt::create_event("aclrtCreateEvent", kDefaultFlags, event); });
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  return rt::guarded("aclrtCreateEventWithFlag",
                     [&] { return rt::create_event("aclrtCreateEventWithFlag", flag, event); });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  return rt::guarded("aclrtDestroyEvent", [&] { return rt::destroy_event("aclrtDestroyEvent", event); });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  static const char kApi[] = "aclrtRecordEvent";
  return rt::guarded(kApi, [&]() -> aclError {
    std::shared_ptr<rt::Event> target;
    const aclError status = rt::find_event(kApi, "event", event, &target);
    if (status != ACL_SUCCESS) return status;
    std::shared_ptr<rt::Stream> on;
    const aclError found = rt::find_stream(kApi, stream, &on);
    if (found != ACL_SUCCESS) return found;
    // Numbered only once the stream is known, so that a refused record is not waited for.
    const uint64_t seq = target->begin_record();
    if (on->push(rt::make_record_work(std::move(target), seq))) return ACL_SUCCESS;
    return rt::fail(ACL_ERROR_INVALID_PARAM, kApi, "stream " + rt::pointer_text(stream) + " is being destroyed");
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  static const char kApi[] = "aclrtResetEvent";
  return rt::guarded(kApi, [&]() -> aclError {
    std::shared_ptr<rt::Event> target;
    const aclError status = rt::find_event(kApi, "event", event, &target);
    if (status != ACL_SUCCESS) return status;
    return rt::push_work(kApi, stream, rt::make_reset_work(std::move(target)));
  });
}

// Never recorded counts as complete here (nothing to wait for); aclrtQueryEventStatus says NOT_READY for it.
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
  static const char kApi[] = "aclrtQueryEvent";
  return rt::guarded(kApi, [&]() -> aclError {
    if (status == nullptr) return rt::null_argument(kApi, "status");
    std::shared_ptr<rt::Event> target;
    const aclError found = rt::find_event(kApi, "event", event, &target);
    if (found != ACL_SUCCESS) return found;
    *status = target->status();
    return ACL_SUCCESS;
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  static const char kApi[] = "aclrtQueryEventStatus";
  return rt::guarded(kApi, [&]() -> aclError {
    if (status == nullptr) return rt::null_argument(kApi, "status");
    std::shared_ptr<rt::Event> target;
    const aclError found = rt::find_event(kApi, "event", event, &target);
    if (found != ACL_SUCCESS) return found;
    *status = target->recorded_status();
    return ACL_SUCCESS;
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  static const char kApi[] = "aclrtSynchronizeEvent";
  return rt::guarded(kApi, [&]() -> aclError {
    std::shared_ptr<rt::Event> target;
    const aclError found = rt::find_event(kApi, "event", event, &target);
    if (found != ACL_SUCCESS) return found;
    const uint64_t seq = target->latest_record();
    if (seq != 0 && rt::on_stream_worker()) {
      return rt::fail(ACL_ERROR_FAILURE, kApi, "must not be called from work running on a stream");
    }
    target->wait(seq);
    return ACL_SUCCESS;
  });
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  static const char kApi[] = "aclrtEventElapsedTime";
  return rt::guarded(kApi, [&]() -> aclError {
    if (ms == nullptr) return rt::null_argument(kApi, "ms");
    std::shared_ptr<rt::Event> start;
    std::shared_ptr<rt::Event> end;
    aclError status = rt::find_event(kApi, "startEvent", startEvent, &start);
    if (status == ACL_SUCCESS) status = rt::find_event(kApi, "endEvent", endEvent, &end);
    if (status != ACL_SUCCESS) return status;
    rt::Event::Clock::time_point t0;
    rt::Event::Clock::time_point t1;
    if (!start->completion_time(&t0) || !end->completion_time(&t1)) {
      return rt::fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE, kApi,
                      "both events must have been recorded and their latest records must have executed");
    }
    *ms = std::chrono::duration<float, std::milli>(t1 - t0).count();
    return ACL_SUCCESS;
  });
}

}  // extern "C"
