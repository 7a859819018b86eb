// aclnn_cpu/ext.h: run-time access to the settings of core/config.hpp (process-wide and per thread).
#include "aclnn_cpu/ext.h"

#include <algorithm>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "api/diagnostics.hpp"
#include "api/executor.hpp"
#include "core/config.hpp"
#include "core/error.hpp"

#ifndef ACLNN_CPU_VERSION
#define ACLNN_CPU_VERSION "0.0.0"  // CMake defines the real one for library sources
#endif

namespace {

// Same range as ACLNN_CPU_NUM_THREADS (core/config.cpp).
constexpr int32_t kMaxThreads = 4096;

aclError invalid(const std::string &message) {
  aclnn_cpu::set_recent_error(message);
  return ACL_ERROR_INVALID_PARAM;
}

aclError parse_soc(const char *api, const char *socName, aclnn_cpu::Product *product) {
  if (aclnn_cpu::parse_product(socName, product)) return ACL_SUCCESS;
  return invalid(std::string(api) + ": socName \"" + socName +
                 "\" is not an emulated product; expected one of Ascend910B, Ascend910_93, Ascend950, Ascend910, "
                 "Ascend310P (the current product is kept)");
}

aclError check_num_threads(const char *api, int32_t numThreads) {
  if (numThreads >= 0 && numThreads <= kMaxThreads) return ACL_SUCCESS;
  return invalid(std::string(api) + ": numThreads is " + std::to_string(numThreads) +
                 "; expected 0 (all CPUs this process may use) to " + std::to_string(kMaxThreads));
}

}  // namespace

extern "C" {

aclError aclnnCpuSetSoc(const char *socName) {
  try {
    if (socName == nullptr) return invalid("aclnnCpuSetSoc: socName is nullptr");
    aclnn_cpu::Product product;
    if (aclError status = parse_soc("aclnnCpuSetSoc", socName, &product)) return status;
    aclnn_cpu::set_product(product);
    return ACL_SUCCESS;
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

aclError aclnnCpuSetThreadSoc(const char *socName) {
  try {
    if (socName == nullptr) {
      aclnn_cpu::set_thread_product(nullptr);
      return ACL_SUCCESS;
    }
    aclnn_cpu::Product product;
    if (aclError status = parse_soc("aclnnCpuSetThreadSoc", socName, &product)) return status;
    aclnn_cpu::set_thread_product(&product);
    return ACL_SUCCESS;
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

const char *aclnnCpuGetSoc(void) {
  try {
    return aclnn_cpu::product_name(aclnn_cpu::settings().product);
  } catch (...) {
    return aclnn_cpu::product_name(aclnn_cpu::Product::kAscend910B);
  }
}

aclError aclnnCpuSetNumThreads(int32_t numThreads) {
  try {
    if (aclError status = check_num_threads("aclnnCpuSetNumThreads", numThreads)) return status;
    aclnn_cpu::set_num_threads(numThreads);
    return ACL_SUCCESS;
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

aclError aclnnCpuSetThreadNumThreads(int32_t numThreads) {
  try {
    if (numThreads != aclnn_cpu::kNoThreadOverride) {
      if (aclError status = check_num_threads("aclnnCpuSetThreadNumThreads", numThreads)) return status;
    }
    aclnn_cpu::set_thread_num_threads(numThreads);
    return ACL_SUCCESS;
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

int32_t aclnnCpuGetNumThreads(void) {
  try {
    return aclnn_cpu::effective_num_threads();
  } catch (...) {
    return 1;
  }
}

aclError aclnnCpuSetStrict(bool strict) {
  try {
    aclnn_cpu::set_strict(strict);
    return ACL_SUCCESS;
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

bool aclnnCpuGetStrict(void) {
  try {
    return aclnn_cpu::settings().strict;
  } catch (...) {
    return false;
  }
}

const char *aclnnCpuGetLiveObjects(void) {
  thread_local std::string text;
  try {
    text = aclnn_cpu::live_objects().describe();
  } catch (...) {
    text = "unknown (out of memory)";
  }
  return text.c_str();
}

const char *aclnnCpuGetVersion(void) { return ACLNN_CPU_VERSION; }

aclnnStatus aclnnCpuDescribeExecutor(const aclOpExecutor *executor, char *text, size_t capacity, size_t *length) {
  std::string description;
  if (int st = aclnn_cpu::describe_executor("aclnnCpuDescribeExecutor", executor, &description)) return st;
  if (length != nullptr) *length = description.size();
  if (text != nullptr && capacity > 0) {
    const size_t n = std::min(capacity - 1, description.size());
    description.copy(text, n);
    text[n] = '\0';
  }
  return ACLNN_SUCCESS;
}

}  // extern "C"
