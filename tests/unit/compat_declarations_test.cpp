// The public declarations have exactly CANN's types and values (docs/contract.md §1.2-§1.4, §1.7), so CANN programs
// that store function pointers, spell enums as types or compare against literal codes compile and behave the same.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/ext.h"
#include "aclnnop/aclnn_convolution_backward.h"

namespace {

// §1.7: the deleters CANN samples hand to std::unique_ptr.
static_assert(std::is_same<decltype(&aclDestroyTensor), aclnnStatus (*)(const aclTensor *)>::value, "");
static_assert(std::is_same<decltype(&aclDestroyIntArray), aclnnStatus (*)(const aclIntArray *)>::value, "");
static_assert(std::is_same<decltype(&aclDestroyBoolArray), aclnnStatus (*)(const aclBoolArray *)>::value, "");
static_assert(std::is_same<decltype(&aclDestroyFloatArray), aclnnStatus (*)(const aclFloatArray *)>::value, "");
static_assert(std::is_same<decltype(&aclDestroyScalar), aclnnStatus (*)(const aclScalar *)>::value, "");
static_assert(std::is_same<decltype(&aclrtFree), aclError (*)(void *)>::value, "");
static_assert(std::is_same<aclnnStatus, int32_t>::value, "");
static_assert(std::is_same<aclError, int>::value, "");
static_assert(std::is_same<aclrtStream, void *>::value, "");
static_assert(std::is_same<aclFloat16, uint16_t>::value, "");
static_assert(std::is_enum<aclFormat>::value && std::is_enum<aclDataType>::value, "spelled aclFormat::X in samples");
static_assert(OK == 0, "acl_meta.h's global OK");

// §1.5: the op's two phases.
static_assert(std::is_same<decltype(&aclnnConvolutionBackwardGetWorkspaceSize),
                           aclnnStatus (*)(const aclTensor *, const aclTensor *, const aclTensor *, const aclIntArray *,
                                           const aclIntArray *, const aclIntArray *, const aclIntArray *, bool,
                                           const aclIntArray *, int, const aclBoolArray *, int8_t, aclTensor *,
                                           aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **)>::value,
              "");
static_assert(std::is_same<decltype(&aclnnConvolutionBackward),
                           aclnnStatus (*)(void *, uint64_t, aclOpExecutor *, const aclrtStream)>::value,
              "");
static_assert(
    std::is_same<decltype(&aclrtMemcpy), aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind)>::value,
    "");
static_assert(std::is_same<decltype(&aclrtMalloc), aclError (*)(void **, size_t, aclrtMemMallocPolicy)>::value, "");
static_assert(std::is_same<decltype(&aclCreateTensor),
                           aclTensor *(*)(const int64_t *, uint64_t, aclDataType, const int64_t *, int64_t, aclFormat,
                                          const int64_t *, uint64_t, void *)>::value,
              "");

TEST(CompatDeclarations, DataTypeValues) {
  const std::pair<aclDataType, int> expected[] = {
      {ACL_DT_UNDEFINED, -1}, {ACL_FLOAT, 0},        {ACL_FLOAT16, 1},        {ACL_INT8, 2},
      {ACL_INT32, 3},         {ACL_UINT8, 4},        {ACL_INT16, 6},          {ACL_UINT16, 7},
      {ACL_UINT32, 8},        {ACL_INT64, 9},        {ACL_UINT64, 10},        {ACL_DOUBLE, 11},
      {ACL_BOOL, 12},         {ACL_STRING, 13},      {ACL_COMPLEX64, 16},     {ACL_COMPLEX128, 17},
      {ACL_BF16, 27},         {ACL_INT4, 29},        {ACL_UINT1, 30},         {ACL_COMPLEX32, 33},
      {ACL_HIFLOAT8, 34},     {ACL_FLOAT8_E5M2, 35}, {ACL_FLOAT8_E4M3FN, 36}, {ACL_FLOAT8_E8M0, 37},
      {ACL_FLOAT6_E3M2, 38},  {ACL_FLOAT6_E2M3, 39}, {ACL_FLOAT4_E2M1, 40},   {ACL_FLOAT4_E1M2, 41},
  };
  for (const auto &e : expected) EXPECT_EQ(static_cast<int>(e.first), e.second);
}

TEST(CompatDeclarations, FormatValues) {
  const std::pair<aclFormat, int> expected[] = {
      {ACL_FORMAT_UNDEFINED, -1},
      {ACL_FORMAT_NCHW, 0},
      {ACL_FORMAT_NHWC, 1},
      {ACL_FORMAT_ND, 2},
      {ACL_FORMAT_NC1HWC0, 3},
      {ACL_FORMAT_FRACTAL_Z, 4},
      {ACL_FORMAT_NC1HWC0_C04, 12},
      {ACL_FORMAT_HWCN, 16},
      {ACL_FORMAT_NDHWC, 27},
      {ACL_FORMAT_FRACTAL_NZ, 29},
      {ACL_FORMAT_NCDHW, 30},
      {ACL_FORMAT_NDC1HWC0, 32},
      {ACL_FRACTAL_Z_3D, 33},
      {ACL_FORMAT_NC, 35},
      {ACL_FORMAT_NCL, 47},
      {ACL_FORMAT_FRACTAL_NZ_C0_16, 50},
      {ACL_FORMAT_FRACTAL_NZ_C0_32, 51},
      {ACL_FORMAT_FRACTAL_NZ_C0_2, 52},
      {ACL_FORMAT_FRACTAL_NZ_C0_4, 53},
      {ACL_FORMAT_FRACTAL_NZ_C0_8, 54},
  };
  for (const auto &e : expected) EXPECT_EQ(static_cast<int>(e.first), e.second);
}

TEST(CompatDeclarations, RuntimeEnumValues) {
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_HOST, 0);
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_DEVICE, 1);
  EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_HOST, 2);
  EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
  EXPECT_EQ(ACL_MEMCPY_DEFAULT, 4);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_FIRST, 0);
  EXPECT_EQ(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 7);
  EXPECT_EQ(ACL_MEM_ACCESS_USER_SPACE_READONLY, 0x100000);
  EXPECT_EQ(ACL_OPT_DETERMINISTIC, 0);
  EXPECT_EQ(ACL_OPT_ENABLE_DEBUG_KERNEL, 1);
  EXPECT_EQ(ACL_OPT_STRONG_CONSISTENCY, 2);
  EXPECT_EQ(ACL_OPT_ENABLE_KERNEL_EARLY_START, 3);
}

TEST(CompatDeclarations, StatusCodes) {
  EXPECT_EQ(ACL_SUCCESS, 0);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, 100000);
  EXPECT_EQ(ACL_ERROR_UNINITIALIZE, 100001);
  EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE, 100002);
  EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, 100037);
  EXPECT_EQ(ACL_ERROR_BAD_ALLOC, 200000);
  EXPECT_EQ(ACL_ERROR_API_NOT_SUPPORT, 200001);
  EXPECT_EQ(ACL_ERROR_INVALID_RESOURCE_HANDLE, 200005);
  EXPECT_EQ(ACL_ERROR_INTERNAL_ERROR, 500000);
  EXPECT_EQ(ACL_ERROR_FAILURE, 500001);
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
  EXPECT_EQ(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, 107021);
  EXPECT_EQ(ACLNN_SUCCESS, 0);
  EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR, 161001);
  EXPECT_EQ(ACLNN_ERR_PARAM_INVALID, 161002);
  EXPECT_EQ(ACLNN_ERR_RUNTIME_ERROR, 361001);
  EXPECT_EQ(ACLNN_ERR_INNER, 561000);
  EXPECT_EQ(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, 561003);
  EXPECT_EQ(ACLNN_ERR_INNER_CREATE_EXECUTOR, 561101);
  EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, 561103);
  EXPECT_EQ(ACLNN_ERR_INNER_KEY_CONFLICT, ACLNN_ERR_INNER_KEY_CONFILICT);
}

}  // namespace
