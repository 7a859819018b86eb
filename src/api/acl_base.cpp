// The helpers of acl_base_rt.h: FP16 conversion, aclDataTypeSize, data buffers, aclGetRecentErrMsg, aclAppLog,
// aclrtGetSocName, CANN attributes and device capabilities.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "acl/acl_base.h"
#include "core/config.hpp"
#include "core/error.hpp"
#include "numerics/formats.hpp"
#include "api/diagnostics.hpp"
#include "runtime/live_set.hpp"
#include "runtime/status.hpp"

namespace rt = aclnn_cpu::runtime;

struct aclDataBuffer {
  void *data;
  size_t size;
};

namespace {

constexpr uint16_t kFp16ExponentMask = 0x7C00;
constexpr uint16_t kFp16MantissaMask = 0x03FF;
constexpr uint16_t kFp16SignMask = 0x8000;
constexpr uint16_t kFp16MaxFinite = 0x7BFF;  // 65504
constexpr size_t kAppLogLimit = 1024;         // bytes including the terminating NUL, as CANN documents

rt::LiveSet &data_buffers() {
  static rt::LiveSet *live = new rt::LiveSet;
  return *live;
}

const char *level_name(int32_t level) {
  switch (level) {
    case ACL_DEBUG:
      return "DEBUG";
    case ACL_INFO:
      return "INFO";
    case ACL_WARNING:
      return "WARNING";
    case ACL_ERROR:
      return "ERROR";
  }
  return "LOG";
}

// CPU cache level-2 size in bytes from sysfs ("1024K"), 0 when unknown.
int64_t l2_cache_bytes() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index2/size");
  long long value = 0;
  char unit = 0;
  if (!(in >> value)) return 0;
  in >> unit;
  if (unit == 'K') return value * 1024;
  if (unit == 'M') return value * 1024 * 1024;
  return value;
}

}  // namespace

extern "C" {

// CANN reads the all-ones exponent as an ordinary binade instead of Inf/NaN.
float aclFloat16ToFloat(aclFloat16 value) {
  if ((value & kFp16ExponentMask) != kFp16ExponentMask) return aclnn_cpu::numerics::fp16_to_fp32(value);
  const float magnitude = static_cast<float>(1024 + (value & kFp16MantissaMask)) * 64.0f;  // 2^16 * (1 + m/1024)
  return (value & kFp16SignMask) != 0 ? -magnitude : magnitude;
}

// CANN saturates: what IEEE rounding would turn into +-Inf, and +-Inf and NaN themselves, become +-65504.
aclFloat16 aclFloatToFloat16(float value) {
  const uint16_t h = aclnn_cpu::numerics::fp32_to_fp16(value);
  if ((h & kFp16ExponentMask) != kFp16ExponentMask) return h;
  return static_cast<aclFloat16>((h & kFp16SignMask) | kFp16MaxFinite);
}

// CANN's table: 0 for ACL_STRING and ACL_DT_UNDEFINED, 1 for the sub-byte ACL_INT4/ACL_UINT1, and 8 for any
// value it does not list.
size_t aclDataTypeSize(aclDataType dataType) {
  switch (rt::enum_value(dataType)) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    case ACL_UINT1:
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 8;
  }
}

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  try {
    auto *buffer = new aclDataBuffer{data, size};
    try {
      data_buffers().add(buffer);
    } catch (...) {
      delete buffer;
      throw;
    }
    return buffer;
  } catch (...) {
    rt::fail(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer", "out of host memory");
    return nullptr;
  }
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  static const char kApi[] = "aclDestroyDataBuffer";
  return rt::guarded(kApi, [&]() -> aclError {
    if (dataBuffer == nullptr) return rt::null_argument(kApi, "dataBuffer");
    if (!data_buffers().remove(dataBuffer)) {
      return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, kApi, "dataBuffer", rt::pointer_text(dataBuffer),
                                  "is not a live aclDataBuffer");
    }
    delete dataBuffer;
    return ACL_SUCCESS;
  });
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
  static const char kApi[] = "aclUpdateDataBuffer";
  return rt::guarded(kApi, [&]() -> aclError {
    if (dataBuffer == nullptr) return rt::null_argument(kApi, "dataBuffer");
    const bool live = data_buffers().with(dataBuffer, [&] {
      dataBuffer->data = data;
      dataBuffer->size = size;
    });
    if (live) return ACL_SUCCESS;
    return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, kApi, "dataBuffer", rt::pointer_text(dataBuffer),
                                "is not a live aclDataBuffer");
  });
}

// NULL (and a handle that is not live) reads as an empty buffer, as CANN returns for NULL.
void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  void *data = nullptr;
  try {
    data_buffers().with(dataBuffer, [&] { data = dataBuffer->data; });
  } catch (...) {
  }
  return data;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  size_t size = 0;
  try {
    data_buffers().with(dataBuffer, [&] { size = dataBuffer->size; });
  } catch (...) {
  }
  return size;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  return static_cast<uint32_t>(aclGetDataBufferSizeV2(dataBuffer));
}

// CANN documents that reading the message also clears it; the text stays valid until this thread's next call.
const char *aclGetRecentErrMsg() {
  thread_local std::string returned;
  const char *text = aclnn_cpu::recent_error();
  if (text == nullptr) return nullptr;
  try {
    returned = text;
  } catch (...) {
    return nullptr;
  }
  aclnn_cpu::clear_recent_error();
  return returned.c_str();
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...) {
  if (fmt == nullptr) return;
  const int32_t level = rt::enum_value(logLevel);
  if (level < ACL_WARNING && aclnn_cpu::settings().verbose <= 0) return;
  char text[kAppLogLimit];
  va_list args;
  va_start(args, fmt);
  const int n = std::vsnprintf(text, sizeof(text), fmt, args);
  va_end(args);
  if (n < 0) return;
  static const char kMark[] = "...[truncated]";
  if (static_cast<size_t>(n) >= sizeof(text)) std::memcpy(text + sizeof(text) - sizeof(kMark), kMark, sizeof(kMark));
  std::fprintf(stderr, "[%s] %s:%u %s: %s\n", level_name(level), file != nullptr ? file : "?",
               static_cast<unsigned>(line), func != nullptr ? func : "?", text);
}

const char *aclrtGetSocName() {
  try {
    return aclnn_cpu::product_name(aclnn_cpu::settings().product);
  } catch (...) {
    return nullptr;
  }
}

// INF_NAN and BF16 are available on the A2/A3 and 950 products, neither on the legacy ones; never JIT.
aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num) {
  static const char kApi[] = "aclGetCannAttributeList";
  static const aclCannAttr kModern[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};
  if (cannAttrList == nullptr) return rt::null_argument(kApi, "cannAttrList");
  if (num == nullptr) return rt::null_argument(kApi, "num");
  const bool modern = aclnn_cpu::arch_class(aclnn_cpu::settings().product) != aclnn_cpu::ArchClass::kLegacy;
  *cannAttrList = kModern;
  *num = modern ? 2 : 0;
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value) {
  static const char kApi[] = "aclGetCannAttribute";
  if (value == nullptr) return rt::null_argument(kApi, "value");
  const int32_t attr = rt::enum_value(cannAttr);
  if (attr < ACL_CANN_ATTR_INF_NAN || attr > ACL_CANN_ATTR_JIT_COMPILE) {
    return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, kApi, "cannAttr", std::to_string(attr),
                                "expected ACL_CANN_ATTR_INF_NAN (0), ACL_CANN_ATTR_BF16 (1) or "
                                "ACL_CANN_ATTR_JIT_COMPILE (2)");
  }
  const aclCannAttr *list = nullptr;
  size_t num = 0;
  aclGetCannAttributeList(&list, &num);
  *value = 0;
  for (size_t i = 0; i < num; ++i) {
    if (list[i] == attr) *value = 1;
  }
  return ACL_SUCCESS;
}

// The cores of this host stand for the AI and vector cores (the threads one operator call uses); L2 is the
// CPU's level-2 cache.
aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value) {
  static const char kApi[] = "aclGetDeviceCapability";
  return rt::guarded(kApi, [&]() -> aclError {
    if (deviceId != 0) {
      return rt::invalid_argument(ACL_ERROR_RT_INVALID_DEVICEID, kApi, "deviceId", std::to_string(deviceId),
                                  "this host has one device, 0");
    }
    if (value == nullptr) return rt::null_argument(kApi, "value");
    const int32_t info = rt::enum_value(deviceInfo);
    switch (info) {
      case ACL_DEVICE_INFO_AI_CORE_NUM:
      case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        *value = aclnn_cpu::effective_num_threads();
        return ACL_SUCCESS;
      case ACL_DEVICE_INFO_L2_SIZE:
        *value = l2_cache_bytes();
        return ACL_SUCCESS;
      default:
        return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, kApi, "deviceInfo",
                                    std::to_string(info),
                                    "expected ACL_DEVICE_INFO_AI_CORE_NUM (0), ACL_DEVICE_INFO_VECTOR_CORE_NUM (1) "
                                    "or ACL_DEVICE_INFO_L2_SIZE (2)");
    }
  });
}

}  // extern "C"

size_t aclnn_cpu::live_data_buffer_count() { return data_buffers().size(); }
