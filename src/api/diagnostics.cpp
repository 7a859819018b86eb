#include "api/diagnostics.hpp"

#include "api/api_util.hpp"

namespace aclnn_cpu {
namespace {

void append(std::string *text, const std::string &name, size_t count) {
  if (count == 0) return;
  if (!text->empty()) *text += ", ";
  *text += name + " " + std::to_string(count);
}

}  // namespace

LiveObjects live_objects() {
  LiveObjects live;
  for (int k = 0; k < kHandleKindCount; ++k) live.handles[k] = live_handle_count(static_cast<HandleKind>(k));
  live.data_buffers = live_data_buffer_count();
  live.allocator_descs = live_allocator_desc_count();
  live.runtime = runtime::live_counts();
  return live;
}

bool LiveObjects::empty() const { return describe() == "nothing"; }

std::string LiveObjects::describe() const {
  std::string text;
  for (int k = 0; k < kHandleKindCount; ++k) append(&text, handle_kind_name(static_cast<HandleKind>(k)), handles[k]);
  append(&text, "aclDataBuffer", data_buffers);
  append(&text, "aclrtAllocatorDesc", allocator_descs);
  append(&text, "streams", runtime.streams);
  append(&text, "default stream", runtime.default_stream ? 1 : 0);
  append(&text, "events", runtime.events);
  append(&text, "contexts", runtime.contexts);
  append(&text, "memory blocks", runtime.blocks);
  append(&text, "device bytes", runtime.device_bytes);
  append(&text, "aclInit references", runtime.init_refs);
  append(&text, "device references", runtime.device_refs);
  return text.empty() ? "nothing" : text;
}

}  // namespace aclnn_cpu
