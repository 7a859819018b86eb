#include "runtime/memory.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "core/config.hpp"
#include "core/int_math.hpp"
#include "runtime/status.hpp"

namespace aclnn_cpu {
namespace runtime {
namespace {

struct Block {
  size_t size;       // bytes reserved (what find_blocks reports)
  size_t requested;  // bytes the caller asked for
  MemoryKind kind;
};

struct Registry {
  std::mutex mutex;
  std::map<uintptr_t, Block> blocks;  // by start address
  size_t device_bytes = 0;            // reserved by live device blocks (what ACLNN_CPU_MEM_LIMIT bounds)
};

Registry &registry() {
  static Registry *r = new Registry;  // never destroyed: stream threads may outlive static destruction
  return *r;
}

// Physical memory of this machine: no request above it can succeed, and refusing it up front keeps absurd sizes
// away from the allocator (sanitizer builds abort on them instead of returning NULL).
size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return SIZE_MAX;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size);
}

const char *kind_name(MemoryKind kind) { return kind == MemoryKind::kDevice ? "aclrtMalloc" : "aclrtMallocHost"; }

// The block containing `p`, or blocks.end(). Caller holds the lock.
std::map<uintptr_t, Block>::iterator containing(Registry &r, const void *p) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = r.blocks.upper_bound(a);
  if (it == r.blocks.begin()) return r.blocks.end();
  --it;
  return a - it->first < it->second.size ? it : r.blocks.end();
}

// Counts `bytes` against ACLNN_CPU_MEM_LIMIT before allocating, so that concurrent callers cannot together
// pass the limit. Refused: ACL_ERROR_RT_MEMORY_ALLOCATION, the code CANN returns for device memory it lacks.
aclError reserve_device_bytes(Registry &r, const char *api, size_t size, size_t bytes) {
  const uint64_t limit = settings().mem_limit;
  std::unique_lock<std::mutex> lock(r.mutex);
  if (limit == 0 || (bytes <= limit && r.device_bytes <= limit - bytes)) {
    r.device_bytes += bytes;
    return ACL_SUCCESS;
  }
  const size_t in_use = r.device_bytes;
  lock.unlock();
  return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, api,
              "cannot allocate " + std::to_string(bytes) + " bytes for size = " + std::to_string(size) +
                  ": ACLNN_CPU_MEM_LIMIT = " + std::to_string(limit) + " bytes and " + std::to_string(in_use) +
                  " are in use (out of device memory)");
}

void unreserve_device_bytes(Registry &r, size_t bytes) {
  std::lock_guard<std::mutex> lock(r.mutex);
  r.device_bytes -= bytes;
}

}  // namespace

bool block_size(size_t size, bool padded, size_t *out) {
  const size_t padding = padded ? kMemoryPadding : 0;
  if (size > SIZE_MAX - padding - kMemoryAlignment) return false;
  *out = round_up(size + padding, kMemoryAlignment);
  return true;
}

aclError allocate_block(const char *api, MemoryKind kind, size_t size, bool padded, void **out) {
  if (out == nullptr) return null_argument(api, kind == MemoryKind::kDevice ? "devPtr" : "hostPtr");
  if (size == 0) return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "size", "0", "must be greater than 0");
  size_t bytes = 0;
  if (!block_size(size, padded, &bytes)) {
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, "size", std::to_string(size),
                            "too large (the 32-byte rounding and padding overflow size_t)");
  }
  Registry &r = registry();
  const bool device = kind == MemoryKind::kDevice;
  if (device) {
    const aclError status = reserve_device_bytes(r, api, size, bytes);
    if (status != ACL_SUCCESS) return status;
  }
  void *p = bytes <= physical_memory() ? std::aligned_alloc(kMemoryAlignment, bytes) : nullptr;
  if (p == nullptr) {
    if (device) unreserve_device_bytes(r, bytes);
    return fail(
        ACL_ERROR_RT_MEMORY_ALLOCATION, api,
        "cannot allocate " + std::to_string(bytes) + " bytes for size = " + std::to_string(size) + " (out of memory)");
  }
  try {
    std::lock_guard<std::mutex> lock(r.mutex);
    r.blocks.emplace(reinterpret_cast<uintptr_t>(p), Block{bytes, size, kind});
  } catch (...) {
    if (device) unreserve_device_bytes(r, bytes);
    std::free(p);
    throw;
  }
  *out = p;
  return ACL_SUCCESS;
}

aclError free_block(const char *api, MemoryKind kind, void *p) {
  const char *param = kind == MemoryKind::kDevice ? "devPtr" : "hostPtr";
  if (p == nullptr) return null_argument(api, param);
  Registry &r = registry();
  std::unique_lock<std::mutex> lock(r.mutex);
  auto it = r.blocks.find(reinterpret_cast<uintptr_t>(p));
  if (it == r.blocks.end()) {
    const bool interior = containing(r, p) != r.blocks.end();
    lock.unlock();
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, param, pointer_text(p),
                            interior ? "points inside a block instead of at its start"
                                     : "is not a live allocation (never allocated, already freed, or released "
                                       "by aclrtResetDevice/aclFinalize)");
  }
  if (it->second.kind != kind) {
    const MemoryKind actual = it->second.kind;
    lock.unlock();
    return invalid_argument(ACL_ERROR_INVALID_PARAM, api, param, pointer_text(p),
                            std::string("was allocated by ") + kind_name(actual) + "; free it with " +
                                (actual == MemoryKind::kDevice ? "aclrtFree" : "aclrtFreeHost"));
  }
  if (it->second.kind == MemoryKind::kDevice) r.device_bytes -= it->second.size;
  r.blocks.erase(it);
  lock.unlock();
  std::free(p);
  return ACL_SUCCESS;
}

void free_all_blocks() {
  Registry &r = registry();
  std::map<uintptr_t, Block> blocks;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    blocks.swap(r.blocks);
    // Subtracted, not zeroed: an allocation running concurrently has reserved bytes it has not inserted yet.
    for (const auto &b : blocks) {
      if (b.second.kind == MemoryKind::kDevice) r.device_bytes -= b.second.size;
    }
  }
  for (const auto &b : blocks) std::free(reinterpret_cast<void *>(b.first));
}

MemoryCounts memory_counts() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  MemoryCounts counts;
  counts.blocks = r.blocks.size();
  counts.device_bytes = r.device_bytes;
  return counts;
}

void find_blocks(size_t count, const void *const *ps, bool *found, Allocation *out) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < count; ++i) {
    auto it = containing(r, ps[i]);
    found[i] = it != r.blocks.end();
    if (!found[i]) continue;
    out[i].begin = reinterpret_cast<const unsigned char *>(it->first);
    out[i].end = out[i].begin + it->second.size;
    out[i].requested = it->second.requested;
    out[i].host = it->second.kind == MemoryKind::kHost;
  }
}

aclError check_span(const char *api, const char *param, const void *p, size_t bytes) {
  Allocation block;
  if (!find_allocation(p, &block)) return ACL_SUCCESS;
  const size_t room = static_cast<size_t>(block.end - static_cast<const unsigned char *>(p));
  if (bytes <= room) return ACL_SUCCESS;
  return invalid_argument(ACL_ERROR_INVALID_PARAM, api, param, pointer_text(p),
                          std::to_string(bytes) + " bytes from there pass the end of " + allocation_text(block) + " (" +
                              std::to_string(room) + " bytes left)");
}

}  // namespace runtime
}  // namespace aclnn_cpu
