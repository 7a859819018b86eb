// Built by tests/compat/find_package/CMakeLists.txt through find_package(aclnn_cpu): headers and libraries must
// come from the package alone.
#include "acl/acl.h"
#include "aclnn_cpu/ext.h"
#include "aclnnop/aclnn_convolution_backward.h"

int main() {
  const char *version = aclnnCpuGetVersion();
  if (version == nullptr || aclInit(nullptr) != ACL_SUCCESS) {
    printf("aclnn-cpu package: aclnnCpuGetVersion or aclInit failed\n");
    return 1;
  }
  const char *soc = aclrtGetSocName();
  printf("aclnn-cpu %s, emulating %s\n", version, soc != nullptr ? soc : "(null)");
  return aclFinalize() == ACL_SUCCESS && soc != nullptr ? 0 : 1;
}
