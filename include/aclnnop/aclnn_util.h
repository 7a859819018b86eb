/*
 * aclnn-cpu: CANN's aclnn_util.h.
 */
#ifndef OP_API_INC_ACLNN_UTIL_H_
#define OP_API_INC_ACLNN_UTIL_H_

#define ACLNN_API __attribute__((visibility("default")))

#endif  // OP_API_INC_ACLNN_UTIL_H_
