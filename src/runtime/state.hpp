// Process-wide state of the emulated runtime: the aclInit reference count, device 0 and its contexts, and the
// registries of live streams and events. Every function checks the state it needs (initialised, device set,
// live handle) and reports failures for `api`.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/event.hpp"
#include "runtime/stream.hpp"

namespace aclnn_cpu {
namespace runtime {

// aclInit: reads the ACLNN_CPU_* settings; a second call counts a reference and returns
// ACL_ERROR_REPEAT_INITIALIZE.
aclError initialize(const char *api, const char *config_path);
// aclFinalize: drops every reference and releases everything. ACL_ERROR_REPEAT_FINALIZE when not initialised.
aclError finalize(const char *api);
// aclFinalizeReference: drops one reference, finalizing at zero; writes the remaining count when asked.
aclError finalize_reference(const char *api, uint64_t *ref_count);

// The aclInit reference count (0: not initialised). For tests and diagnostics.
uint64_t init_reference_count();

// ACL_ERROR_UNINITIALIZE unless aclInit succeeded (and no aclFinalize since).
aclError require_initialized(const char *api);
// Also ACL_ERROR_RT_CONTEXT_NULL unless device 0 is set (aclrtSetDevice or aclrtCreateContext).
aclError require_device(const char *api);

// Device 0: reference-counted; releasing the last reference drains the streams and releases every stream,
// event, context and allocation.
aclError check_device_id(const char *api, int64_t device_id);
aclError set_device(const char *api, int32_t device_id);
aclError reset_device(const char *api, int32_t device_id, bool force);
aclError get_device(const char *api, int32_t *device_id);

// Contexts: device 0 has a primary context (current after aclrtSetDevice); aclrtCreateContext adds others,
// each holding a device reference until destroyed.
aclError create_context(const char *api, int32_t device_id, aclrtContext *context);
aclError destroy_context(const char *api, aclrtContext context);
aclError set_current_context(const char *api, aclrtContext context);
aclError get_current_context(const char *api, aclrtContext *context);

// Streams. find_stream maps NULL to the default stream (created on first use).
aclError create_stream(const char *api, aclrtStream *stream);
aclError destroy_stream(const char *api, aclrtStream stream, bool force);
aclError find_stream(const char *api, aclrtStream stream, std::shared_ptr<Stream> *out);
// Appends `work` to the stream found as by find_stream; `on_caller_when_idle`: see runtime::enqueue.
aclError push_work(const char *api, aclrtStream stream, Work work, bool on_caller_when_idle = false);
// Every live stream, the default one included.
std::vector<std::shared_ptr<Stream>> live_streams();

// Waits for `stream` (timeout_ms < 0: no limit) and reports the first failure of its queued work.
aclError synchronize(const char *api, Stream &stream, int64_t timeout_ms);

// Events.
aclError create_event(const char *api, uint32_t flags, aclrtEvent *event);
aclError destroy_event(const char *api, aclrtEvent event);
aclError find_event(const char *api, const char *param, aclrtEvent event, std::shared_ptr<Event> *out);

}  // namespace runtime
}  // namespace aclnn_cpu
