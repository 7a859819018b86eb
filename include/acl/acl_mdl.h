/*
 * aclnn-cpu: placeholder kept for compatibility, as in CANN's newest runtime (the op and model packages
 * that would fill it are not part of a host-only build).
 */
#ifndef INC_EXTERNAL_ACL_ACL_MDL_H_
#define INC_EXTERNAL_ACL_ACL_MDL_H_

#endif  // INC_EXTERNAL_ACL_ACL_MDL_H_
