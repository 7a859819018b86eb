/*
 * aclnn-cpu: CANN's umbrella runtime header.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl/acl_rt.h"
#include "acl/acl_op.h"
#include "acl/acl_mdl.h"

#endif  // INC_EXTERNAL_ACL_ACL_H_
