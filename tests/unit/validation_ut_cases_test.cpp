// docs/contract.md §5.2: the 73 active ops-nn UT cases of aclnnConvolutionBackward (phase one only: the status of
// GetWorkspaceSize), run under the product their SoC column names. Rows marked 910* ("test in ascend910",
// executed upstream on the Ascend910B stub) run under both Ascend910B and Ascend910; the legacy product gives
// the same status for all of them (rows 1-4 are FLOAT16, or FLOAT with cubeMathType 1/2 that legacy computes
// in FP16; rows 5-6 fail format checks before any product-specific rule).
// The cells are copied from the specification's table of these cases (docs/contract.md §5.2) and parsed here, so they
// can be compared with it by eye.
#include <cstdlib>
#include <sstream>

#include "validation_support.hpp"

namespace validation_test {
namespace {

struct UtRow {
  int number;
  const char *name;
  const char *soc;
  const char *grad_output, *input, *weight;
  const char *bias_sizes, *stride, *padding, *dilation, *transposed, *output_padding, *groups, *mask;
  const char *outputs;  // "gradInput / gradWeight / gradBias"
  const char *cube_math_type;
  const char *expected;
};

// clang-format off
const UtRow kRows[] = {
    {1, "test_Conv2DBackward_Fp16_keep_dtype", "910*", "[512,2048,7,7] FLOAT16 NCHW", "[512,512,7,7] FLOAT16 NCHW", "[2048,512,1,1] FLOAT16 NCHW", "[1]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,7,7] FLOAT16 NCHW / [2048,512,1,1] FLOAT16 NCHW / [2048] FLOAT16 ND", "0", "SUCCESS"},
    {2, "test_Conv2DBackward_Fp32_allow_fp32_down_precision", "910*", "[512,2048,7,7] FLOAT NCHW", "[512,512,7,7] FLOAT NCHW", "[2048,512,1,1] FLOAT NCHW", "[1]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,7,7] FLOAT NCHW / [2048,512,1,1] FLOAT NCHW / [2048] FLOAT ND", "1", "SUCCESS"},
    {3, "test_Conv2DBackward_Fp32_use_fp16", "910*", "[512,2048,7,7] FLOAT NCHW", "[512,512,7,7] FLOAT NCHW", "[2048,512,1,1] FLOAT NCHW", "[1]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,7,7] FLOAT NCHW / [2048,512,1,1] FLOAT NCHW / [2048] FLOAT ND", "2", "SUCCESS"},
    {4, "test_Conv1DBackward_Fp16", "910*", "[16,8,16] FLOAT16 NCL", "[16,16,16] FLOAT16 NCL", "[8,16,3] FLOAT16 NCL", "[1]", "[1]", "[1]", "[1]", "false", "[0]", "1", "[true,true,true]", "[16,16,16] FLOAT16 NCL / [8,16,3] FLOAT16 NCL / [8] FLOAT16 ND", "0", "SUCCESS"},
    {5, "test_Conv1DBackward_invalid_format_error", "910*", "[16,8,16] FLOAT16 NCL", "[16,16,16] FLOAT16 NCHW", "[8,16,3] FLOAT16 NCL", "[1]", "[1]", "[1]", "[1]", "false", "[0]", "1", "[true,true,true]", "[16,16,16] FLOAT16 NCL / [8,16,3] FLOAT16 NCL / [8] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {6, "test_ConvBackward_empty_error", "910*", "[16,16,32,8] FLOAT16 NCHW", "[16,16,0,16] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "[16]", "[1,2]", "[1,2]", "[1,2]", "false", "[0,0]", "1", "[true,true,true]", "[] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {7, "ascend910B2_test_Conv2DBackward_Fp32_keep_dtype", "910B", "[512,2048,7,7] FLOAT NCHW", "[512,512,7,7] FLOAT NCHW", "[2048,512,1,1] FLOAT NCHW", "[2048]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,7,7] FLOAT NCHW / [2048,512,1,1] FLOAT NCHW / [2048] FLOAT ND", "0", "SUCCESS"},
    {8, "ascend910B2_test_Conv2DBackward_Fp32_use_hf32", "910B", "[512,2048,7,7] FLOAT NCHW", "[512,512,7,7] FLOAT NCHW", "[2048,512,1,1] FLOAT NCHW", "[2048]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,7,7] FLOAT NCHW / [2048,512,1,1] FLOAT NCHW / [2048] FLOAT ND", "3", "SUCCESS"},
    {9, "ascend910B2_test_ConvBackward_post_dilation_FP32", "910B", "[512,2048,2,2] FLOAT NCHW", "[512,512,4,4] FLOAT NCHW", "[2048,512,1,1] FLOAT NCHW", "[2048]", "[3,3]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,4,4] FLOAT NCHW / [2048,512,1,1] FLOAT NCHW / [2048] FLOAT ND", "0", "SUCCESS"},
    {10, "ascend910B2_test_Conv2DBackward_Bf16", "910B", "[512,2048,7,7] BF16 NCHW", "[512,512,7,7] BF16 NCHW", "[2048,512,1,1] BF16 NCHW", "[2048]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[512,512,7,7] BF16 NCHW / [2048,512,1,1] BF16 NCHW / [2048] BF16 ND", "0", "SUCCESS"},
    {11, "ascend910B2_test_Conv3DBackward_Bf16", "910B", "[512,512,7,7,7] BF16 NCDHW", "[512,512,7,7,7] BF16 NCDHW", "[512,512,1,1,1] BF16 NCDHW", "[512]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[512,512,7,7,7] BF16 NCDHW / [512,512,1,1,1] BF16 NCDHW / [512] BF16 ND", "0", "SUCCESS"},
    {12, "ascend910B2_test_Conv3DBackward", "910B", "[512,512,7,7,7] FLOAT NCDHW", "[512,512,7,7,7] FLOAT NCDHW", "[512,512,1,1,1] FLOAT NCDHW", "[1]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[512,512,7,7,7] FLOAT NCDHW / [512,512,1,1,1] FLOAT NCDHW / [512] FLOAT ND", "0", "SUCCESS"},
    {13, "ascend910B2_test_Conv3DBackward_attr_error", "910B", "[1,1,1,1,1] FLOAT NCDHW", "[1,1,1,1,1] FLOAT NCDHW", "[1,1,1,1,1] FLOAT NCDHW", "[1]", "[0,1,1]", "[-1,0,0]", "[0,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,1,1,1,1] FLOAT NCDHW / [1,1,1,1,1] FLOAT NCDHW / [1] FLOAT ND", "0", "ERR_PARAM_INVALID"},
    {14, "ascend910B2_test_Conv3DBackward_FP16", "910B", "[512,512,7,7,7] FLOAT16 NCDHW", "[512,512,7,7,7] FLOAT16 NCDHW", "[512,512,1,1,1] FLOAT16 NCDHW", "[512]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[512,512,7,7,7] FLOAT16 NCDHW / [512,512,1,1,1] FLOAT16 NCDHW / [512] FLOAT16 ND", "0", "SUCCESS"},
    {15, "ascend910B2_test_Conv3DBackwardInput_FP16_Conv2Matmul_1x1Kernel", "910B", "[8,512,2,14,14] FLOAT16 NCDHW", "[8,64,2,14,14] FLOAT16 NCDHW", "[512,64,1,1,1] FLOAT16 NCDHW", "[512]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,false]", "[8,64,2,14,14] FLOAT16 NCDHW / [512,64,1,1,1] FLOAT16 NCDHW / [512] FLOAT16 ND", "0", "SUCCESS"},
    {16, "ascend910B2_test_Conv3DBackwardInput_FP16_Conv2Matmul_Stride_Eq_Kernel", "910B", "[1,256,6,75,75] FLOAT16 NCDHW", "[1,128,18,225,225] FLOAT16 NCDHW", "[256,128,3,3,3] FLOAT16 NCDHW", "[256]", "[3,3,3]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,false]", "[1,128,18,225,225] FLOAT16 NCDHW / [256,128,3,3,3] FLOAT16 NCDHW / [256] FLOAT16 ND", "0", "SUCCESS"},
    {17, "ascend910B2_test_Conv3DBackward_depthwise", "910B", "[128,128,7,7,7] BF16 NCDHW", "[128,128,7,7,7] BF16 NCDHW", "[128,1,1,1,1] BF16 NCDHW", "[128]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "128", "[true,true,true]", "[128,128,7,7,7] BF16 NCDHW / [128,1,1,1,1] BF16 NCDHW / [128] BF16 ND", "0", "SUCCESS"},
    {18, "ascend910B2_test_Conv3DBackward_Bf16_NDHWC", "910B", "[512,512,7,7,7] BF16 NDHWC", "[512,512,7,7,7] BF16 NDHWC", "[512,512,1,1,1] BF16 NDHWC", "[512]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[512,512,7,7,7] BF16 NDHWC / [512,512,1,1,1] BF16 NDHWC / [512] BF16 ND", "0", "ERR_PARAM_INVALID"},
    {19, "ascend910B2_test_Conv3DBackward_Bf16_dilation", "910B", "[1,16,1,6,6] BF16 NCDHW", "[1,16,1,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,0,0]", "[1,2,2]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {20, "ascend910B2_test_Conv3DBackward_Bf16_stride", "910B", "[1,16,1,8,3] BF16 NCDHW", "[1,16,1,10,10] BF16 NCDHW", "[16,16,1,3,4] BF16 NCDHW", "[16]", "[1,1,3]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,10,10] BF16 NCDHW / [16,16,1,3,4] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {21, "ascend910B2_test_Conv3DBackward_Bf16_pad", "910B", "[1,16,1,7,13] BF16 NCDHW", "[1,16,1,10,10] BF16 NCDHW", "[16,16,1,4,4] BF16 NCDHW", "[16]", "[1,1,1]", "[0,0,3]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,10,10] BF16 NCDHW / [16,16,1,4,4] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {22, "ascend910B2_test_Conv3DBackward_Bf16_kernel", "910B", "[1,16,1,6,6] BF16 NCDHW", "[1,16,1,10,10] BF16 NCDHW", "[16,16,1,5,5] BF16 NCDHW", "[16]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,10,10] BF16 NCDHW / [16,16,1,5,5] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {23, "ascend910B2_test_Conv3DBackward_Bf16_strideD_GT_kernelD", "910B", "[1,16,6,5,5] BF16 NCDHW", "[1,16,11,10,10] BF16 NCDHW", "[16,16,1,2,2] BF16 NCDHW", "[16]", "[2,2,2]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,11,10,10] BF16 NCDHW / [16,16,1,2,2] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {24, "ascend910B2_test_Conv3DBackward_Bf16_din_limit", "910B", "[1,16,7,10,10] BF16 NCDHW", "[1,16,15,10,10] BF16 NCDHW", "[16,16,2,1,1] BF16 NCDHW", "[16]", "[2,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,15,10,10] BF16 NCDHW / [16,16,2,1,1] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {25, "ascend910B2_test_Conv3DBackward_Bf16_v1", "910B", "[1,16,1,10,10] BF16 NCDHW", "[1,16,1,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {26, "ascend910B2_test_Conv3DBackward_Bf16_v2", "910B", "[1,16,2,10,10] BF16 NCDHW", "[1,16,2,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {27, "ascend910B2_test_Conv3DBackward_dw_bf16_out_fp32", "910B", "[128,128,7,7,7] BF16 NCDHW", "[128,128,7,7,7] BF16 NCDHW", "[128,1,1,1,1] BF16 NCDHW", "[128]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "128", "[false,true,false]", "[128,128,7,7,7] FLOAT NCDHW / [128,1,1,1,1] FLOAT NCDHW / [128] FLOAT ND", "0", "ERR_PARAM_INVALID"},
    {28, "ascend910B2_test_Conv3DBackward_dw_use_fp16_out_fp32", "910B", "[128,128,7,7,7] FLOAT NCDHW", "[128,128,7,7,7] FLOAT NCDHW", "[128,1,1,1,1] FLOAT NCDHW", "[128]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "128", "[false,true,false]", "[128,128,7,7,7] FLOAT NCDHW / [128,1,1,1,1] FLOAT NCDHW / [128] FLOAT ND", "2", "ERR_PARAM_INVALID"},
    {29, "ascend910B2_test_Conv2DBackpropInputV2_WhiteCase", "910B", "[4,320,80,80] FLOAT NCHW", "[4,320,80,80] FLOAT NCHW", "[320,320,3,3] FLOAT NCHW", "[320]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,false,false]", "[4,320,80,80] FLOAT NCHW / [320,320,3,3] FLOAT NCHW / [320] FLOAT ND", "0", "SUCCESS"},
    {30, "ascend910B2_test_Conv2DBackpropFilterV3_WhiteCase", "910B", "[1,640,104,152] FLOAT16 NCHW", "[1,640,104,152] FLOAT16 NCHW", "[640,640,3,3] FLOAT16 NCHW", "[640]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[false,true,false]", "[1,640,104,152] FLOAT16 NCHW / [640,640,3,3] FLOAT16 NCHW / [640] FLOAT16 ND", "0", "SUCCESS"},
    {31, "ascend910B2_test_Conv3DBackward_Bf16_USE_FP16", "910B", "[1,16,2,10,10] BF16 NCDHW", "[1,16,2,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "2", "SUCCESS"},
    {32, "ascend950_test_Conv3DBackward_Bf16_USE_FP16", "950", "[1,16,2,10,10] BF16 NCDHW", "[1,16,2,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "2", "SUCCESS"},
    {33, "ascend950_test_Conv3DBackward_Bf16_USE_HF32", "950", "[1,16,2,10,10] BF16 NCDHW", "[1,16,2,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "3", "SUCCESS"},
    {34, "ascend910B2_test_Conv3DBackward_Bf16_USE_HF32", "910B", "[1,16,2,10,10] BF16 NCDHW", "[1,16,2,10,10] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "3", "SUCCESS"},
    {35, "ascend950_test_Conv3DBackward_Fp16_USE_HF32", "950", "[1,16,2,10,10] FLOAT16 NCDHW", "[1,16,2,10,10] FLOAT16 NCDHW", "[16,16,1,3,3] FLOAT16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] FLOAT16 NCDHW / [16,16,1,3,3] FLOAT16 NCDHW / [16] FLOAT16 ND", "3", "SUCCESS"},
    {36, "ascend910B2_test_Conv3DBackward_Fp16_USE_HF32", "910B", "[1,16,2,10,10] FLOAT16 NCDHW", "[1,16,2,10,10] FLOAT16 NCDHW", "[16,16,1,3,3] FLOAT16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] FLOAT16 NCDHW / [16,16,1,3,3] FLOAT16 NCDHW / [16] FLOAT16 ND", "3", "SUCCESS"},
    {37, "ascend950_test_Conv1DBackward_Fp16_keep_dtype", "950", "[16,8,16] FLOAT16 NCL", "[16,16,16] FLOAT16 NCL", "[8,16,3] FLOAT16 NCL", "[1]", "[1]", "[1]", "[1]", "false", "[0]", "1", "[true,false,true]", "[16,16,16] FLOAT16 NCL / [8,16,3] FLOAT16 NCL / [8] FLOAT16 ND", "0", "SUCCESS"},
    {38, "ascend950_test_Conv1DBackward_Fp32_keep_dtype", "950", "[16,8,16] FLOAT NCL", "[16,16,16] FLOAT NCL", "[8,16,3] FLOAT NCL", "[1]", "[1]", "[1]", "[1]", "false", "[0]", "1", "[true,false,true]", "[16,16,16] FLOAT NCL / [8,16,3] FLOAT NCL / [8] FLOAT ND", "0", "SUCCESS"},
    {39, "ascend950_test_Conv1DBackward_HF32", "950", "[16,8,16] FLOAT NCL", "[16,16,16] FLOAT NCL", "[8,16,3] FLOAT NCL", "[1]", "[1]", "[1]", "[1]", "false", "[0]", "1", "[true,false,true]", "[16,16,16] FLOAT NCL / [8,16,3] FLOAT NCL / [8] FLOAT ND", "3", "SUCCESS"},
    {40, "ascend950_test_Conv1DBackward_Bf16_keep_dtype", "950", "[4,8,20] BF16 NCL", "[4,51,21] BF16 NCL", "[8,51,2] BF16 NCL", "[1]", "[1]", "[1]", "[3]", "false", "[0]", "1", "[true,false,true]", "[4,51,21] BF16 NCL / [8,51,2] BF16 NCL / [8] BF16 ND", "0", "SUCCESS"},
    {41, "ascend950_test_Conv2DBackward_Fp16_keep_dtype_pad4dim_nhwc", "950", "[512,6,6,2048] FLOAT16 NHWC", "[512,7,7,512] FLOAT16 NHWC", "[2048,1,1,512] FLOAT16 NHWC", "[1]", "[1,1]", "[0,1,0,1]", "[1,1]", "false", "[0,0,0,0]", "1", "[true,true,true]", "[512,7,7,512] FLOAT16 NHWC / [2048,1,1,512] FLOAT16 NHWC / [2048] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {42, "ascend950_test_Conv3DBackward_Fp16_USE_HF32_NDHWC", "950", "[1,2,10,10,16] FLOAT16 NDHWC", "[1,2,10,10,16] FLOAT16 NDHWC", "[16,1,3,3,16] FLOAT16 NDHWC", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,2,10,10,16] FLOAT16 NDHWC / [16,1,3,3,16] FLOAT16 NDHWC / [16] FLOAT16 ND", "3", "ERR_PARAM_INVALID"},
    {43, "ascend950_test_ConvBackward_empty", "950", "[0,16,32,8] FLOAT16 NCHW", "[0,16,32,16] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "[16]", "[1,2]", "[1,2]", "[1,2]", "false", "[0,0]", "1", "[true,true,true]", "[0,16,32,16] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "SUCCESS"},
    {44, "ascend950_test_ConvBackward_transposed_empty", "950", "[0,16,32,16] FLOAT16 NCHW", "[0,16,32,8] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "[16]", "[1,2]", "[1,2]", "[1,2]", "true", "[0,0]", "1", "[true,true,true]", "[0,16,32,8] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "SUCCESS"},
    {45, "ascend950_test_Conv3DBackward_DwStrideEqualKernelTransToKernel1x1x1", "950", "[1,768,8,14,14] BF16 NCDHW", "[1,3,16,224,224] BF16 NCDHW", "[768,3,2,16,16] BF16 NCDHW", "[768]", "[2,16,16]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[false,true,false]", "[1,3,16,224,224] BF16 NCDHW / [768,3,2,16,16] BF16 NCDHW / [768] BF16 ND", "0", "SUCCESS"},
    {46, "ascend950_test_Conv3DBackpropInputV2_OpenSoraPlan1_0_bfloat16_ID4520_0003_Trans2Mm", "950", "[1,256,4,64,64] BF16 NCDHW", "[1,128,4,64,64] BF16 NCDHW", "[256,128,1,1,1] BF16 NCDHW", "[256]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,false,false]", "[1,128,4,64,64] BF16 NCDHW / [256,128,1,1,1] BF16 NCDHW / [256] BF16 ND", "0", "SUCCESS"},
    {47, "ascend950_test_ConvBackward_transpose_empty_error", "950", "[100,100,0,1,1] FLOAT16 NCDHW", "[0,1,0,1,1] FLOAT16 NCDHW", "[1,1,0,1,1] FLOAT16 NCDHW", "[1]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "true", "[0,0,0]", "1", "[true,true,true]", "[0,1,0,1,1] FLOAT16 NCDHW / [1,1,0,1,1] FLOAT16 NCDHW / [1] FLOAT16 ND", "0", "SUCCESS"},
    {48, "ascend950_test_Conv1DBackpropFilter_fp32_group", "950", "[1,384,258] FLOAT NCL", "[1,384,256] FLOAT NCL", "[384,1,3] FLOAT NCL", "[384]", "[1]", "[2]", "[1]", "false", "[0]", "384", "[false,true,false]", "[1,384,256] FLOAT NCL / [384,1,3] FLOAT NCL / [384] FLOAT ND", "0", "SUCCESS"},
    {49, "ascend950_test_ConvBack2D_all_valid_type", "950", "[512,512,7,7] {FLOAT,FLOAT16,BF16} NCHW", "[512,512,7,7] {FLOAT,FLOAT16,BF16} NCHW", "[512,512,1,1] {FLOAT,FLOAT16,BF16} NCHW", "[512]", "[1,1]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "same shapes as inputs, dtype = loop dtype", "0", "SUCCESS"},
    {50, "ascend950_test_ConvBack3D_all_valid_type", "950", "[512,512,7,7,7] {FLOAT,FLOAT16,BF16} NCDHW", "[512,512,7,7,7] {FLOAT,FLOAT16,BF16} NCDHW", "[512,512,1,1,1] {FLOAT,FLOAT16,BF16} NCDHW", "[512]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "same shapes as inputs, dtype = loop dtype", "0", "SUCCESS"},
    {51, "ascend910B2_test_Conv3DBackward_DH_Swap", "910B", "[1,512,4096,1,16] FLOAT NCDHW", "[1,512,4099,1,16] FLOAT NCDHW", "[512,1,4,1,1] FLOAT NCDHW", "[512]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "512", "[true,true,true]", "[1,512,4099,1,16] FLOAT NCDHW / [512,1,4,1,1] FLOAT NCDHW / [512] FLOAT ND", "0", "SUCCESS"},
    {52, "ascend910B2_test_groups_zero_error", "910B", "[1,16,10,10] FLOAT16 NCHW", "[1,16,10,10] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "[16]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "0", "[true,true,true]", "[1,16,10,10] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {53, "ascend910B2_test_weightCout_not_divisible_by_groups_error", "910B", "[1,17,10,10] FLOAT16 NCHW", "[1,16,10,10] FLOAT16 NCHW", "[17,16,3,3] FLOAT16 NCHW", "[17]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "2", "[true,true,true]", "[1,16,10,10] FLOAT16 NCHW / [17,16,3,3] FLOAT16 NCHW / [17] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {54, "ascend910B2_test_input_dim_less_than_3_error", "910B", "[1,16,10,10] FLOAT16 NCHW", "[0,0] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "[16]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[0,0] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {55, "ascend910B2_test_gradOutput_input_dim_not_equal_error", "910B", "[1,16,10,10] FLOAT16 NCHW", "[1,16,10] FLOAT16 NCL", "[16,16,3] FLOAT16 NCL", "[16]", "[1]", "[1]", "[1]", "false", "[0]", "1", "[true,true,true]", "[1,16,10] FLOAT16 NCL / [16,16,3] FLOAT16 NCL / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {56, "ascend910B2_test_empty_tensor_biasSizes_nullptr_error", "910B", "[0,16,10,10] FLOAT16 NCHW", "[0,16,10,10] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "nullptr", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[0,16,10,10] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {57, "ascend910B2_test_gradOutput_empty_tensor_error", "910B", "[0,16,8,8] FLOAT16 NCHW", "[1,16,10,10] FLOAT16 NCHW", "[16,16,3,3] FLOAT16 NCHW", "[16]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[1,16,10,10] FLOAT16 NCHW / [16,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {58, "ascend910B2_test_weight_empty_tensor_error", "910B", "[1,16,8,8] FLOAT16 NCHW", "[1,16,10,10] FLOAT16 NCHW", "[0,16,3,3] FLOAT16 NCHW", "[16]", "[1,1]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[1,16,10,10] FLOAT16 NCHW / [0,16,3,3] FLOAT16 NCHW / [16] FLOAT16 ND", "0", "ERR_PARAM_INVALID"},
    {59, "ascend910B2_test_Conv1DTransposeBackward_FP16", "910B", "[4,8,16] FLOAT16 NCL", "[4,16,16] FLOAT16 NCL", "[16,8,3] FLOAT16 NCL", "[8]", "[1]", "[1]", "[1]", "true", "[0]", "1", "[true,true,true]", "[4,16,16] FLOAT16 NCL / [16,8,3] FLOAT16 NCL / [8] FLOAT16 ND", "0", "SUCCESS"},
    {60, "ascend910B2_test_Conv2DTransposeBackward_FP32", "910B", "[1,16,7,7] FLOAT NCHW", "[1,16,7,7] FLOAT NCHW", "[16,16,3,3] FLOAT NCHW", "[16]", "[1,1]", "[1,1]", "[1,1]", "true", "[0,0]", "1", "[false,true,false]", "[1,16,7,7] FLOAT NCHW / [16,16,3,3] FLOAT NCHW / [16] FLOAT ND", "0", "SUCCESS"},
    {61, "ascend910B2_test_Conv3DTransposeBackward_FP16", "910B", "[1,16,1,7,7] FLOAT16 NCDHW", "[1,16,1,7,7] FLOAT16 NCDHW", "[16,16,1,3,3] FLOAT16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "true", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,7,7] FLOAT16 NCDHW / [16,16,1,3,3] FLOAT16 NCDHW / [16] FLOAT16 ND", "0", "SUCCESS"},
    {62, "ascend910B2_test_Conv3DTransposeBackward_FP32", "910B", "[1,16,1,7,7] FLOAT NCDHW", "[1,16,1,7,7] FLOAT NCDHW", "[16,16,1,3,3] FLOAT NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "true", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,7,7] FLOAT NCDHW / [16,16,1,3,3] FLOAT NCDHW / [16] FLOAT ND", "0", "SUCCESS"},
    {63, "ascend910B2_test_Conv3DTransposeBackward_BF16", "910B", "[1,16,1,7,7] BF16 NCDHW", "[1,16,1,7,7] BF16 NCDHW", "[16,16,1,3,3] BF16 NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "true", "[0,0,0]", "1", "[true,true,true]", "[1,16,1,7,7] BF16 NCDHW / [16,16,1,3,3] BF16 NCDHW / [16] BF16 ND", "0", "SUCCESS"},
    {64, "ascend910B2_test_PreDilation_FP16_2dim_padding", "910B", "[1,32,5,5] FLOAT16 NCHW", "[1,16,14,14] FLOAT16 NCHW", "[32,16,3,3] FLOAT16 NCHW", "[32]", "[3,3]", "[1,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[1,16,14,14] FLOAT16 NCHW / [32,16,3,3] FLOAT16 NCHW / [32] FLOAT16 ND", "0", "SUCCESS"},
    {65, "ascend910B2_test_PreDilation_FP32_4dim_padding", "910B", "[1,32,5,5] FLOAT NCHW", "[1,16,14,14] FLOAT NCHW", "[32,16,3,3] FLOAT NCHW", "[32]", "[3,3]", "[1,1,1,1]", "[1,1]", "false", "[0,0,0,0]", "1", "[true,true,true]", "[1,16,14,14] FLOAT NCHW / [32,16,3,3] FLOAT NCHW / [32] FLOAT ND", "0", "SUCCESS"},
    {66, "ascend910B2_test_PreDilation_FP32_gradOutputH1", "910B", "[1,32,1,5] FLOAT NCHW", "[1,16,4,14] FLOAT NCHW", "[32,16,3,3] FLOAT NCHW", "[32]", "[10,3]", "[0,1]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[1,16,4,14] FLOAT NCHW / [32,16,3,3] FLOAT NCHW / [32] FLOAT ND", "0", "SUCCESS"},
    {67, "ascend910B2_test_PreDilation_FP16_gradOutputW1", "910B", "[1,32,5,1] FLOAT16 NCHW", "[1,16,14,4] FLOAT16 NCHW", "[32,16,3,3] FLOAT16 NCHW", "[32]", "[3,10]", "[1,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,true]", "[1,16,14,4] FLOAT16 NCHW / [32,16,3,3] FLOAT16 NCHW / [32] FLOAT16 ND", "0", "SUCCESS"},
    {68, "ascend910B2_test_Conv2DBackpropFilterBy1x1Dw", "910B", "[1024,1024,14,14] FLOAT16 NCHW", "[1024,3,224,224] FLOAT16 NCHW", "[1024,3,16,16] FLOAT16 NCHW", "[1024]", "[16,16]", "[0,0]", "[1,1]", "false", "[0,0]", "1", "[true,true,false]", "[1024,3,224,224] FLOAT16 NCHW / [1024,3,16,16] FLOAT16 NCHW / [1024] FLOAT16 ND", "0", "SUCCESS"},
    {69, "ascend950_test_Conv3DBackpropFilterBy1x1Dw", "Ascend950 (explicit)", "[1,768,8,14,14] BF16 NCDHW", "[1,3,16,224,224] BF16 NCDHW", "[768,3,2,16,16] BF16 NCDHW", "[768]", "[2,16,16]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,false]", "[1,3,16,224,224] BF16 NCDHW / [768,3,2,16,16] BF16 NCDHW / [768] BF16 ND", "0", "SUCCESS"},
    {70, "ascend950_test_Conv1DBackwardByMatmul", "Ascend950 (explicit)", "[2,6,1] FLOAT16 NCL", "[2,4,8] FLOAT16 NCL", "[6,4,8] FLOAT16 NCL", "[6]", "[1]", "[0]", "[1]", "false", "[0]", "1", "[true,true,true]", "[2,4,8] FLOAT16 NCL / [6,4,8] FLOAT16 NCL / [6] FLOAT16 ND", "0", "SUCCESS"},
    {71, "ascend910B2_test_Conv3DBackwardDwByMmMode_FmEqKernel", "910B", "[1,6,1,1,1] FLOAT16 NCDHW", "[1,4,2,2,2] FLOAT16 NCDHW", "[6,4,2,2,2] FLOAT16 NCDHW", "[6]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[false,true,false]", "[1,4,2,2,2] FLOAT16 NCDHW / [6,4,2,2,2] FLOAT16 NCDHW / [6] FLOAT16 ND", "0", "SUCCESS"},
    {72, "ascend950_test_Conv3DBackwardW1B1FmNDxByMm", "Ascend950 (explicit)", "[1,6,2,2,2] FLOAT16 NCDHW", "[1,4,2,2,2] FLOAT16 NCDHW", "[6,4,1,1,1] FLOAT16 NCDHW", "[6]", "[1,1,1]", "[0,0,0]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,false,false]", "[1,4,2,2,2] FLOAT16 NCDHW / [6,4,1,1,1] FLOAT16 NCDHW / [6] FLOAT16 ND", "0", "SUCCESS"},
    {73, "ascend910B2_test_Conv3DBackward_Fp32_USE_HF32", "910B", "[1,16,2,10,10] FLOAT NCDHW", "[1,16,2,10,10] FLOAT NCDHW", "[16,16,1,3,3] FLOAT NCDHW", "[16]", "[1,1,1]", "[0,1,1]", "[1,1,1]", "false", "[0,0,0]", "1", "[true,true,true]", "[1,16,2,10,10] FLOAT NCDHW / [16,16,1,3,3] FLOAT NCDHW / [16] FLOAT ND", "3", "SUCCESS"},
};
// clang-format on

Shape parse_ints(const std::string &text) {
  Shape values;
  std::string inner = text.substr(text.find('[') + 1);
  inner = inner.substr(0, inner.find(']'));
  std::stringstream ss(inner);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) values.push_back(std::strtoll(item.c_str(), nullptr, 10));
  }
  return values;
}

aclDataType parse_dtype(const std::string &name) {
  if (name == "FLOAT") return ACL_FLOAT;
  if (name == "FLOAT16") return ACL_FLOAT16;
  if (name == "BF16") return ACL_BF16;
  ADD_FAILURE() << "unknown dtype " << name;
  return ACL_DT_UNDEFINED;
}

aclFormat parse_format(const std::string &name) {
  if (name == "NCHW") return ACL_FORMAT_NCHW;
  if (name == "NHWC") return ACL_FORMAT_NHWC;
  if (name == "ND") return ACL_FORMAT_ND;
  if (name == "NCL") return ACL_FORMAT_NCL;
  if (name == "NCDHW") return ACL_FORMAT_NCDHW;
  if (name == "NDHWC") return ACL_FORMAT_NDHWC;
  ADD_FAILURE() << "unknown format " << name;
  return ACL_FORMAT_UNDEFINED;
}

// "[512,2048,7,7] FLOAT16 NCHW"; a dtype cell "{FLOAT,FLOAT16,BF16}" takes `loop_dtype`.
TensorSpec parse_tensor(const std::string &cell, aclDataType loop_dtype) {
  std::stringstream ss(cell);
  std::string shape, dtype, format;
  ss >> shape >> dtype >> format;
  const aclDataType d = dtype[0] == '{' ? loop_dtype : parse_dtype(dtype);
  return TensorSpec(parse_ints(shape), d, parse_format(format));
}

Spec parse_row(const UtRow &row, aclDataType loop_dtype) {
  Spec s;
  s.grad_output = parse_tensor(row.grad_output, loop_dtype);
  s.input = parse_tensor(row.input, loop_dtype);
  s.weight = parse_tensor(row.weight, loop_dtype);
  if (std::string(row.bias_sizes) == "nullptr") {
    s.bias_sizes.reset();
  } else {
    s.bias_sizes = parse_ints(row.bias_sizes);
  }
  s.stride = parse_ints(row.stride);
  s.padding = parse_ints(row.padding);
  s.dilation = parse_ints(row.dilation);
  s.transposed = std::string(row.transposed) == "true";
  s.output_padding = parse_ints(row.output_padding);
  s.groups = std::atoi(row.groups);
  std::vector<uint8_t> mask;
  std::string m = row.mask;
  for (size_t pos = 0; (pos = m.find_first_of("tf", pos)) != std::string::npos; pos += 4) {
    mask.push_back(m[pos] == 't' ? 1 : 0);
  }
  s.mask = mask;
  s.cube_math_type = static_cast<int8_t>(std::atoi(row.cube_math_type));
  const std::string outputs = row.outputs;
  if (outputs.rfind("same shapes", 0) == 0) {
    fill_outputs(s);
  } else {
    const size_t a = outputs.find(" / ");
    const size_t b = outputs.find(" / ", a + 3);
    s.grad_input = parse_tensor(outputs.substr(0, a), loop_dtype);
    s.grad_weight = parse_tensor(outputs.substr(a + 3, b - a - 3), loop_dtype);
    s.grad_bias = parse_tensor(outputs.substr(b + 3), loop_dtype);
  }
  return s;
}

std::vector<Product> products_of(const std::string &soc) {
  if (soc == "910*") return {Product::kAscend910B, Product::kAscend910};
  if (soc == "910B") return {Product::kAscend910B};
  if (soc == "950" || soc == "Ascend950 (explicit)") return {Product::kAscend950};
  ADD_FAILURE() << "unknown SoC " << soc;
  return {};
}

int expected_status(const std::string &expected) {
  if (expected == "SUCCESS") return ACLNN_SUCCESS;
  if (expected == "ERR_PARAM_INVALID") return ACLNN_ERR_PARAM_INVALID;
  if (expected == "ERR_PARAM_NULLPTR") return ACLNN_ERR_PARAM_NULLPTR;
  ADD_FAILURE() << "unknown expectation " << expected;
  return -1;
}

// For each error row, a piece of the message naming the rule the table's "reason" column gives.
const char *expected_reason(int number) {
  switch (number) {
    case 5:
      return "format of input";
    case 6:
      return "invalid shape dim of gradInput";
    case 13:
      return "value of stride must be >= 1";
    case 18:
      return "format of gradOutput";
    case 27:
      return "from BFLOAT16 inputs";
    case 28:
      return "cubeMathType must be 0, 1 or 3";
    case 41:
      return "format of gradOutput";
    case 42:
      return "format of gradOutput";
    case 52:
      return "value of groups must be >= 1";
    case 53:
      return "must equal groups";
    case 54:
      return "invalid shape dim of input";
    case 55:
      return "the dim of gradOutput";
    case 56:
      return "biasSizes is nullptr";
    case 57:
      return "do not support empty tensors: gradOutput";
    case 58:
      return "input must have N or C equal to 0";
    default:
      return nullptr;
  }
}

using ValidationUtCases = ValidationTest;

TEST_F(ValidationUtCases, TableHasEverySpecRow) {
  ASSERT_EQ(sizeof(kRows) / sizeof(kRows[0]), 73u);
  for (size_t i = 0; i < 73; ++i) EXPECT_EQ(kRows[i].number, static_cast<int>(i + 1));
}

TEST_F(ValidationUtCases, EachRowGivesItsStatus) {
  int runs = 0;
  for (const UtRow &row : kRows) {
    const bool loops = std::string(row.input).find('{') != std::string::npos;
    const std::vector<aclDataType> dtypes =
        loops ? std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16} : std::vector<aclDataType>{ACL_FLOAT};
    for (Product product : products_of(row.soc)) {
      for (aclDataType dtype : dtypes) {
        SCOPED_TRACE(std::string("#") + std::to_string(row.number) + " " + row.name + " on " +
                     aclnn_cpu::product_name(product) + (loops ? std::string(" dtype ") + std::to_string(dtype) : ""));
        use(product);
        Built built(parse_row(row, dtype));
        const int status = expected_status(row.expected);
        EXPECT_EQ(built.validate(), status) << last_error();
        if (status != ACLNN_SUCCESS) {
          const char *reason = expected_reason(row.number);
          ASSERT_NE(reason, nullptr);
          EXPECT_NE(last_error().find(reason), std::string::npos) << last_error();
        }
        ++runs;
      }
    }
  }
  EXPECT_EQ(runs, 73 + 6 + 2 * 2);  // the 6 rows marked 910* run twice, rows 49/50 once per dtype (3)
}

}  // namespace
}  // namespace validation_test
