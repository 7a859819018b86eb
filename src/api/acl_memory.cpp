// Memory: aclrtMalloc ... aclrtGetMemInfo. Device memory is host memory; every copy kind is a host copy.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "acl/acl_rt.h"
#include "core/config.hpp"
#include "runtime/memory.hpp"
#include "runtime/state.hpp"
#include "runtime/status.hpp"
#include "runtime/stream.hpp"

namespace rt = aclnn_cpu::runtime;

namespace {

aclError check_kind(const char *api, const aclrtMemcpyKind &kind) {
  const int32_t k = rt::enum_value(kind);
  if (k >= ACL_MEMCPY_HOST_TO_HOST && k <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) return ACL_SUCCESS;
  return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, api, "kind", std::to_string(k),
                              "expected ACL_MEMCPY_HOST_TO_HOST (0) .. ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (5)");
}

// The checks shared by aclrtMemcpy and aclrtMemcpyAsync, in CANN's order: pointers, kind, sizes.
aclError check_copy(const char *api, void *dst, size_t destMax, const void *src, size_t count,
                    const aclrtMemcpyKind &kind) {
  aclError status = rt::require_device(api);
  if (status != ACL_SUCCESS) return status;
  if (dst == nullptr) return rt::null_argument(api, "dst");
  if (src == nullptr) return rt::null_argument(api, "src");
  status = check_kind(api, kind);
  if (status != ACL_SUCCESS) return status;
  if (count > destMax) {
    return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, api, "count", std::to_string(count),
                                "must not exceed destMax = " + std::to_string(destMax));
  }
  status = rt::check_span(api, "dst", dst, count);
  if (status == ACL_SUCCESS) status = rt::check_span(api, "src", src, count);
  return status;
}

aclError check_set(const char *api, void *devPtr, size_t maxCount, size_t count) {
  aclError status = rt::require_device(api);
  if (status != ACL_SUCCESS) return status;
  if (devPtr == nullptr) return rt::null_argument(api, "devPtr");
  if (count > maxCount) {
    return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, api, "count", std::to_string(count),
                                "must not exceed maxCount = " + std::to_string(maxCount));
  }
  return rt::check_span(api, "devPtr", devPtr, count);
}

aclError allocate(const char *api, rt::MemoryKind kind, void **ptr, size_t size, bool padded) {
  return rt::guarded(api, [&]() -> aclError {
    const aclError status = rt::require_device(api);
    return status != ACL_SUCCESS ? status : rt::allocate_block(api, kind, size, padded, ptr);
  });
}

// Frees after the queued work that might still use the block has run (as a device free does).
aclError release(const char *api, rt::MemoryKind kind, void *ptr) {
  return rt::guarded(api, [&]() -> aclError {
    const aclError status = rt::require_initialized(api);
    if (status != ACL_SUCCESS) return status;
    if (!rt::on_stream_worker()) {
      for (const auto &stream : rt::live_streams()) stream->wait(-1);
    }
    return rt::free_block(api, kind, ptr);
  });
}

// Reads the line "<key>: <n> kB" of /proc/meminfo; false when absent.
bool meminfo_bytes(const char *key, size_t *bytes) {
  std::ifstream in("/proc/meminfo");
  const std::string prefix = std::string(key) + ":";
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    const unsigned long long kib = std::strtoull(line.c_str() + prefix.size(), nullptr, 10);
    *bytes = static_cast<size_t>(kib) * 1024;
    return true;
  }
  return false;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;  // page policies mean nothing on the host
  return allocate("aclrtMalloc", rt::MemoryKind::kDevice, devPtr, size, true);
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;
  return allocate("aclrtMallocCached", rt::MemoryKind::kDevice, devPtr, size, true);
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;
  return allocate("aclrtMallocAlign32", rt::MemoryKind::kDevice, devPtr, size, false);
}

aclError aclrtFree(void *devPtr) { return release("aclrtFree", rt::MemoryKind::kDevice, devPtr); }

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  return allocate("aclrtMallocHost", rt::MemoryKind::kHost, hostPtr, size, true);
}

aclError aclrtFreeHost(void *hostPtr) { return release("aclrtFreeHost", rt::MemoryKind::kHost, hostPtr); }

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  static const char kApi[] = "aclrtMemcpy";
  return rt::guarded(kApi, [&]() -> aclError {
    const aclError status = check_copy(kApi, dst, destMax, src, count, kind);
    if (status == ACL_SUCCESS && count > 0) std::memmove(dst, src, count);
    return status;
  });
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  static const char kApi[] = "aclrtMemcpyAsync";
  return rt::guarded(kApi, [&]() -> aclError {
    const aclError status = check_copy(kApi, dst, destMax, src, count, kind);
    if (status != ACL_SUCCESS) return status;
    return rt::push_work(kApi, stream, [dst, src, count]() -> aclError {
      if (count > 0) std::memmove(dst, src, count);
      return ACL_SUCCESS;
    });
  });
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  static const char kApi[] = "aclrtMemset";
  return rt::guarded(kApi, [&]() -> aclError {
    const aclError status = check_set(kApi, devPtr, maxCount, count);
    if (status == ACL_SUCCESS && count > 0) std::memset(devPtr, value, count);
    return status;
  });
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  static const char kApi[] = "aclrtMemsetAsync";
  return rt::guarded(kApi, [&]() -> aclError {
    const aclError status = check_set(kApi, devPtr, maxCount, count);
    if (status != ACL_SUCCESS) return status;
    return rt::push_work(kApi, stream, [devPtr, value, count]() -> aclError {
      if (count > 0) std::memset(devPtr, value, count);
      return ACL_SUCCESS;
    });
  });
}

// The host's memory as the device's: MemAvailable and MemTotal, whatever the attribute, capped by
// ACLNN_CPU_MEM_LIMIT.
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
  static const char kApi[] = "aclrtGetMemInfo";
  return rt::guarded(kApi, [&]() -> aclError {
    const aclError status = rt::require_device(kApi);
    if (status != ACL_SUCCESS) return status;
    const int32_t a = rt::enum_value(attr);
    if (a < ACL_DDR_MEM || a > ACL_MEM_P2P_HUGE1G) {
      return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, kApi, "attr", std::to_string(a),
                                  "expected an aclrtMemAttr from ACL_DDR_MEM (0) to ACL_MEM_P2P_HUGE1G (17)");
    }
    if (free == nullptr) return rt::null_argument(kApi, "free");
    if (total == nullptr) return rt::null_argument(kApi, "total");
    size_t available = 0;
    size_t all = 0;
    if (!meminfo_bytes("MemTotal", &all) || !meminfo_bytes("MemAvailable", &available)) {
      return rt::fail(ACL_ERROR_INTERNAL_ERROR, kApi, "cannot read /proc/meminfo");
    }
    // Under ACLNN_CPU_MEM_LIMIT the device is as large as the limit (or the host, when that is smaller).
    const uint64_t limit = aclnn_cpu::settings().mem_limit;
    if (limit > 0 && limit < all) {
      const size_t used = rt::memory_counts().device_bytes;
      all = static_cast<size_t>(limit);
      available = std::min(available, used < all ? all - used : 0);
    }
    *free = available;
    *total = all;
    return ACL_SUCCESS;
  });
}

}  // extern "C"
