/*
 * aclnn-cpu: the convolution-backward operator family, declared as in CANN.
 * aclnnConvolutionBackward is implemented; ConvTbc and DeformableConv2d backward are declared for source
 * compatibility and report ACLNN_ERR_INNER_FIND_KERNEL_ERROR (no host kernel) with a message.
 */
#ifndef OP_API_INC_CONVOLUTION_BACKWARD_H_
#define OP_API_INC_CONVOLUTION_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *input, const aclTensor *weight, const aclIntArray *biasSizes,
    const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool transposed,
    const aclIntArray *outputPadding, int groups, const aclBoolArray *outputMask, int8_t cubeMathType,
    aclTensor *gradInput, aclTensor *gradWeight, aclTensor *gradBias, uint64_t *workspaceSize,
    aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnConvolutionBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               const aclrtStream stream);

ACLNN_API aclnnStatus aclnnConvTbcBackwardGetWorkspaceSize(const aclTensor *self, const aclTensor *input,
                                                           const aclTensor *weight, const aclTensor *bias, int64_t pad,
                                                           int8_t cubeMathType, aclTensor *gradInput,
                                                           aclTensor *gradWeight, aclTensor *gradBias,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnConvTbcBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           const aclrtStream stream);

ACLNN_API aclnnStatus aclnnDeformableConv2dBackwardGetWorkspaceSize(
    const aclTensor *input, const aclTensor *gradOutput, const aclTensor *offsetOut, const aclTensor *weight,
    const aclTensor *offset, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, int64_t groups, int64_t deformableGroups, bool modulated, aclTensor *gradInput,
    aclTensor *gradWeight, aclTensor *gradOffset, aclTensor *gradBias, uint64_t *workspaceSize,
    aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnDeformableConv2dBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // OP_API_INC_CONVOLUTION_BACKWARD_H_
