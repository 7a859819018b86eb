// Streams and events (state.hpp).
#include <string>
#include <utility>

#include "runtime/state.hpp"
#include "runtime/state_data.hpp"
#include "runtime/status.hpp"

namespace aclnn_cpu {
namespace runtime {
namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                                      ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

aclError not_live(const char *api, const char *param, const void *handle, const char *what) {
  return invalid_argument(ACL_ERROR_INVALID_PARAM, api, param, pointer_text(handle),
                          std::string("is not a live ") + what +
                              " (never created, already destroyed, or released by aclrtResetDevice/aclFinalize)");
}

}  // namespace

aclError create_stream(const char *api, aclrtStream *stream) {
  if (stream == nullptr) return null_argument(api, "stream");
  auto created = std::make_shared<Stream>();
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = device_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  *stream = s.streams.add(std::move(created));
  return ACL_SUCCESS;
}

aclError destroy_stream(const char *api, aclrtStream stream, bool force) {
  if (stream == nullptr) {
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "stream", "NULL", "the default stream cannot be destroyed");
  }
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  const aclError status = initialized_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  std::shared_ptr<Stream> found = s.streams.find(stream);
  if (!found) return not_live(api, "stream", stream, "stream");
  if (found->on_worker()) {
    return fail(ACL_ERROR_FAILURE, api, "a stream cannot be destroyed by work running on it");
  }
  s.streams.remove(stream);
  lock.unlock();
  found->request_stop(force);
  found->join();
  return ACL_SUCCESS;
}

aclError find_stream(const char *api, aclrtStream stream, std::shared_ptr<Stream> *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = device_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  if (stream == nullptr) {
    if (!s.default_stream) s.default_stream = std::make_shared<Stream>();
    *out = s.default_stream;
    return ACL_SUCCESS;
  }
  *out = s.streams.find(stream);
  return *out ? ACL_SUCCESS : not_live(api, "stream", stream, "stream");
}

aclError push_work(const char *api, aclrtStream stream, Work work, bool on_caller_when_idle) {
  std::shared_ptr<Stream> target;  // held while the work runs here: a concurrent destroy cannot free the stream
  const aclError status = find_stream(api, stream, &target);
  if (status != ACL_SUCCESS) return status;
  if (on_caller_when_idle && !on_stream_worker() && target->run_here_if_idle(&work)) return ACL_SUCCESS;
  if (target->push(std::move(work))) return ACL_SUCCESS;
  return fail(ACL_ERROR_INVALID_PARAM, api, "stream " + pointer_text(stream) + " is being destroyed");
}

std::vector<std::shared_ptr<Stream>> live_streams() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<std::shared_ptr<Stream>> all = s.streams.snapshot();
  if (s.default_stream) all.push_back(s.default_stream);
  return all;
}

aclError synchronize(const char *api, Stream &stream, int64_t timeout_ms) {
  if (stream.on_worker()) return fail(ACL_ERROR_FAILURE, api, "a stream cannot wait for itself from its own work");
  if (!stream.wait(timeout_ms)) {
    return fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, api,
                "the queued work did not finish within " + std::to_string(timeout_ms) + " ms");
  }
  std::string message;
  const aclError failure = stream.take_failure(&message);
  if (failure == ACL_SUCCESS) return ACL_SUCCESS;
  if (message.empty()) message = "queued work failed with status " + std::to_string(failure);
  return fail(failure, api, message);
}

aclError create_event(const char *api, uint32_t flags, aclrtEvent *event) {
  if (event == nullptr) return null_argument(api, "event");
  if ((flags & ~kKnownEventFlags) != 0) {
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "flag", std::to_string(flags),
                            "expected a combination of the ACL_EVENT_* flags");
  }
  auto created = std::make_shared<Event>(flags);
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = device_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  *event = s.events.add(std::move(created));
  return ACL_SUCCESS;
}

aclError destroy_event(const char *api, aclrtEvent event) {
  if (event == nullptr) return null_argument(api, "event");
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = initialized_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  // Queued records and waits keep the object alive until they ran.
  return s.events.remove(event) ? ACL_SUCCESS : not_live(api, "event", event, "event");
}

aclError find_event(const char *api, const char *param, aclrtEvent event, std::shared_ptr<Event> *out) {
  if (event == nullptr) return null_argument(api, param);
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = initialized_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  *out = s.events.find(event);
  return *out ? ACL_SUCCESS : not_live(api, param, event, "event");
}

}  // namespace runtime
}  // namespace aclnn_cpu
