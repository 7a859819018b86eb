// Lifecycle, device 0 and contexts (state.hpp).
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "runtime/memory.hpp"
#include "runtime/state.hpp"
#include "runtime/state_data.hpp"
#include "runtime/status.hpp"
#include "runtime/sys_params.hpp"

namespace aclnn_cpu {
namespace runtime {
namespace {

// The context this thread made current (aclrtSetDevice, aclrtCreateContext, aclrtSetCurrentContext). A thread
// that never did uses the primary context: we do not require every thread to set the device.
thread_local const void *current_context = nullptr;

// Everything owned by device 0, taken out of the registries under the lock and released after it.
struct Released {
  bool device_closed = false;  // false: nothing to release (a device reference is still held)
  std::shared_ptr<Stream> default_stream;
  std::vector<std::shared_ptr<Stream>> streams;
  std::vector<std::shared_ptr<Event>> events;
  std::vector<std::shared_ptr<Context>> contexts;
};

Released take_device_resources_locked(State &s) {
  Released r;
  r.device_closed = true;
  r.default_stream = std::move(s.default_stream);
  r.streams = s.streams.take_all();
  r.events = s.events.take_all();
  r.contexts = s.contexts.take_all();
  s.primary_context = nullptr;
  s.device_refs = 0;
  return r;
}

// Drains every stream (all of them first stop accepting work and drain concurrently, so that a stream waiting
// for another one's event completes), then frees every allocation.
void release(Released r) {
  if (!r.device_closed) return;
  if (r.default_stream) r.streams.push_back(std::move(r.default_stream));
  for (auto &stream : r.streams) stream->request_stop(false);
  for (auto &stream : r.streams) stream->join();
  r.streams.clear();
  r.events.clear();
  free_all_blocks();
}

aclError refuse_on_stream_worker(const char *api) {
  return fail(ACL_ERROR_FAILURE, api,
              "must not be called from work running on a stream (it would wait for that work)");
}

aclError check_config_path(const char *api, const char *config_path) {
  if (config_path == nullptr || config_path[0] == '\0') return ACL_SUCCESS;
  std::ifstream file(config_path);
  if (file.good()) return ACL_SUCCESS;  // its options (dump, profiling, ...) do not apply to this host build
  return invalid_argument(ACL_ERROR_INVALID_FILE, api, "configPath", std::string("\"") + config_path + "\"",
                          "the file cannot be opened for reading");
}

void open_device_locked(State &s) {
  if (s.device_refs == 0) {
    auto primary = std::make_shared<Context>();
    primary->primary = true;
    s.primary_context = s.contexts.add(std::move(primary));
  }
  ++s.device_refs;
}

// Drops one device reference (all of them when `force`); returns what must be released when none is left.
Released close_device_locked(State &s, bool force) {
  if (force) s.device_refs = 1;
  if (--s.device_refs > 0) return Released{};
  return take_device_resources_locked(s);
}

aclError finalize_locked_to_zero(const char *api, std::unique_lock<std::mutex> *lock) {
  if (on_stream_worker()) return refuse_on_stream_worker(api);
  State &s = state();
  s.init_refs = 0;
  clear_sys_params();
  Released r = take_device_resources_locked(s);
  lock->unlock();
  release(std::move(r));
  return ACL_SUCCESS;
}

}  // namespace

State &state() {
  static State *s = new State;  // never destroyed: stream threads may outlive static destruction
  return *s;
}

aclError initialized_locked(const State &s, const char *api) {
  if (s.init_refs > 0) return ACL_SUCCESS;
  return fail(ACL_ERROR_UNINITIALIZE, api, "aclInit has not been called (or aclFinalize has run since)");
}

aclError device_locked(const State &s, const char *api) {
  const aclError status = initialized_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  if (s.device_refs > 0) return ACL_SUCCESS;
  return fail(ACL_ERROR_RT_CONTEXT_NULL, api, "no device is set; call aclrtSetDevice(0) first");
}

uint64_t init_reference_count() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.init_refs;
}

aclError require_initialized(const char *api) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return initialized_locked(s, api);
}

aclError require_device(const char *api) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return device_locked(s, api);
}

aclError initialize(const char *api, const char *config_path) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.init_refs > 0) {
    ++s.init_refs;  // not an error worth a message: CANN only logs it
    return ACL_ERROR_REPEAT_INITIALIZE;
  }
  aclError status = check_config_path(api, config_path);
  if (status != ACL_SUCCESS) return status;
  std::string error;
  if (!load_settings_from_env(&error)) return fail(ACL_ERROR_INVALID_PARAM, api, error);
  s.init_refs = 1;
  return ACL_SUCCESS;
}

aclError finalize(const char *api) {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  if (s.init_refs == 0) {
    return fail(ACL_ERROR_REPEAT_FINALIZE, api, "not initialized (aclInit was not called or aclFinalize already ran)");
  }
  return finalize_locked_to_zero(api, &lock);
}

aclError finalize_reference(const char *api, uint64_t *ref_count) {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  if (ref_count != nullptr) *ref_count = s.init_refs;
  if (s.init_refs == 0) {
    return fail(ACL_ERROR_REPEAT_FINALIZE, api, "not initialized (aclInit was not called or aclFinalize already ran)");
  }
  if (s.init_refs > 1) {
    --s.init_refs;
    if (ref_count != nullptr) *ref_count = s.init_refs;
    return ACL_SUCCESS;
  }
  const aclError status = finalize_locked_to_zero(api, &lock);
  if (ref_count != nullptr && status == ACL_SUCCESS) *ref_count = 0;
  return status;
}

aclError check_device_id(const char *api, int64_t device_id) {
  if (device_id == 0) return ACL_SUCCESS;
  return invalid_argument(ACL_ERROR_RT_INVALID_DEVICEID, api, "deviceId", std::to_string(device_id),
                          "this host has one device, 0");
}

aclError set_device(const char *api, int32_t device_id) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  aclError status = initialized_locked(s, api);
  if (status == ACL_SUCCESS) status = check_device_id(api, device_id);
  if (status != ACL_SUCCESS) return status;
  open_device_locked(s);
  current_context = s.primary_context;
  return ACL_SUCCESS;
}

aclError reset_device(const char *api, int32_t device_id, bool force) {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  aclError status = initialized_locked(s, api);
  if (status == ACL_SUCCESS) status = check_device_id(api, device_id);
  if (status != ACL_SUCCESS) return status;
  if (s.device_refs == 0) return fail(ACL_ERROR_RT_CONTEXT_NULL, api, "device 0 is not set");
  const bool last = force || s.device_refs == 1;
  if (last && on_stream_worker()) return refuse_on_stream_worker(api);
  Released r = close_device_locked(s, force);
  lock.unlock();
  release(std::move(r));
  return ACL_SUCCESS;
}

aclError get_device(const char *api, int32_t *device_id) {
  if (device_id == nullptr) return null_argument(api, "deviceId");
  const aclError status = require_device(api);
  if (status != ACL_SUCCESS) return status;
  *device_id = 0;
  return ACL_SUCCESS;
}

aclError create_context(const char *api, int32_t device_id, aclrtContext *context) {
  if (context == nullptr) return null_argument(api, "context");
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  aclError status = initialized_locked(s, api);
  if (status == ACL_SUCCESS) status = check_device_id(api, device_id);
  if (status != ACL_SUCCESS) return status;
  auto created = std::make_shared<Context>();
  open_device_locked(s);
  void *handle = s.contexts.add(std::move(created));
  current_context = handle;
  *context = handle;
  return ACL_SUCCESS;
}

aclError destroy_context(const char *api, aclrtContext context) {
  if (context == nullptr) return null_argument(api, "context");
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  const aclError status = initialized_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  std::shared_ptr<Context> found = s.contexts.find(context);
  if (!found || found->primary) {
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "context", pointer_text(context),
                            found ? "is the device's primary context; release it with aclrtResetDevice"
                                  : "is not a live context created by aclrtCreateContext");
  }
  if (s.device_refs == 1 && on_stream_worker()) return refuse_on_stream_worker(api);
  s.contexts.remove(context);
  if (current_context == context) current_context = nullptr;
  Released r = close_device_locked(s, false);
  lock.unlock();
  release(std::move(r));
  return ACL_SUCCESS;
}

aclError set_current_context(const char *api, aclrtContext context) {
  if (context == nullptr) return null_argument(api, "context");
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = initialized_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  if (!s.contexts.find(context)) {
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "context", pointer_text(context), "is not a live context");
  }
  current_context = context;
  return ACL_SUCCESS;
}

aclError get_current_context(const char *api, aclrtContext *context) {
  if (context == nullptr) return null_argument(api, "context");
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const aclError status = device_locked(s, api);
  if (status != ACL_SUCCESS) return status;
  const bool own_live = current_context != nullptr && s.contexts.find(current_context);
  *context = own_live ? const_cast<void *>(current_context) : s.primary_context;
  return ACL_SUCCESS;
}

}  // namespace runtime
}  // namespace aclnn_cpu
