// aclnnInit / aclnnFinalize. On a host there is nothing to load (CANN reads kernel packages and an optional
// JSON config here), so both succeed, any number of times and in any order; configPath is ignored. Settings
// come from aclInit and ext.h.
#include "aclnn/aclnn_base.h"

#include "aclnn/opdev/op_errno.h"

extern "C" {

aclnnStatus aclnnInit(const char *) { return ACLNN_SUCCESS; }

aclnnStatus aclnnFinalize() { return ACLNN_SUCCESS; }

}  // extern "C"
