// The data behind state.hpp, shared by its two implementation files (lifecycle/device/contexts and
// streams/events). One mutex guards it; nothing blocking (draining a stream) runs while it is held.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "runtime/event.hpp"
#include "runtime/registry.hpp"
#include "runtime/stream.hpp"

namespace aclnn_cpu {
namespace runtime {

struct Context {
  int32_t device_id = 0;
  bool primary = false;
};

struct State {
  std::mutex mutex;
  uint64_t init_refs = 0;
  uint64_t device_refs = 0;
  void *primary_context = nullptr;  // handle in `contexts` while the device is set
  std::shared_ptr<Stream> default_stream;
  HandleTable<Stream> streams;
  HandleTable<Event> events;
  HandleTable<Context> contexts;
};

State &state();

// Caller holds the lock. The checks of require_initialized/require_device.
aclError initialized_locked(const State &s, const char *api);
aclError device_locked(const State &s, const char *api);

}  // namespace runtime
}  // namespace aclnn_cpu
