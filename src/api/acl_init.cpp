// aclInit / aclFinalize / aclFinalizeReference / aclrtGetVersion.
#include "acl/acl_rt.h"
#include "runtime/state.hpp"
#include "runtime/status.hpp"

using aclnn_cpu::runtime::guarded;

extern "C" {

aclError aclInit(const char *configPath) {
  return guarded("aclInit", [&] { return aclnn_cpu::runtime::initialize("aclInit", configPath); });
}

aclError aclFinalize() {
  return guarded("aclFinalize", [&] { return aclnn_cpu::runtime::finalize("aclFinalize"); });
}

aclError aclFinalizeReference(uint64_t *refCount) {
  return guarded("aclFinalizeReference",
                 [&] { return aclnn_cpu::runtime::finalize_reference("aclFinalizeReference", refCount); });
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion) {
  static const char kApi[] = "aclrtGetVersion";
  if (majorVersion == nullptr) return aclnn_cpu::runtime::null_argument(kApi, "majorVersion");
  if (minorVersion == nullptr) return aclnn_cpu::runtime::null_argument(kApi, "minorVersion");
  if (patchVersion == nullptr) return aclnn_cpu::runtime::null_argument(kApi, "patchVersion");
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

}  // extern "C"
