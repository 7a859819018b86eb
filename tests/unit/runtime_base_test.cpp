// The acl_base_rt.h helpers: aclGetRecentErrMsg (per thread, cleared by reading), FP16 conversion, data type
// sizes, data buffers, SoC name, CANN attributes, and the allocator-descriptor APIs.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>

#include "runtime_fixture.hpp"

namespace {

using runtime_test::take_error;

TEST(RecentErrorMessage, IsPerThreadAndReadingItClearsIt) {
  take_error();
  void *p = nullptr;
  EXPECT_NE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // fails whatever the runtime state
  std::string other;
  bool other_had_message = true;
  std::thread([&] {
    other_had_message = aclGetRecentErrMsg() != nullptr;
    aclrtSetDevice(7);  // fails on this thread only
    other = take_error();
  }).join();
  EXPECT_FALSE(other_had_message);
  EXPECT_NE(other.find("aclrtSetDevice"), std::string::npos) << other;
  const char *mine = aclGetRecentErrMsg();
  ASSERT_NE(mine, nullptr);
  EXPECT_NE(std::string(mine).find("aclrtMalloc"), std::string::npos) << mine;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // read once, then gone
}

TEST(Fp16Helpers, ConvertAndSaturateAsCannDoes) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloatToFloat16(0.0f), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7BFF);  // IEEE would round to +Inf
  EXPECT_EQ(aclFloatToFloat16(1e9f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::infinity()), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(-std::numeric_limits<float>::infinity()), 0xFBFF);
  EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN()), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -24)), 0x0001);         // smallest subnormal
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -25)), 0x0000);         // tie to even
  EXPECT_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie to even
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);

  EXPECT_EQ(aclFloat16ToFloat(0x3C00), 1.0f);
  EXPECT_EQ(aclFloat16ToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(aclFloat16ToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(aclFloat16ToFloat(0x7C00), 65536.0f);   // +Inf reads as a number
  EXPECT_EQ(aclFloat16ToFloat(0xFC00), -65536.0f);  // -Inf
  EXPECT_EQ(aclFloat16ToFloat(0x7E00), 98304.0f);   // NaN
}

TEST(DataTypeSize, FollowsCannsTable) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_HIFLOAT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT4), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
}

TEST(DataBuffer, LiveBuffersWorkAndStaleOnesAreRefused) {
  char storage[16];
  aclDataBuffer *buffer = aclCreateDataBuffer(storage, sizeof(storage));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof(storage));
  EXPECT_EQ(aclUpdateDataBuffer(buffer, storage + 8, 8), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage + 8);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 8u);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclUpdateDataBuffer(buffer, storage, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  aclDataBuffer *empty = aclCreateDataBuffer(nullptr, 0);  // allowed, as in CANN
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclDestroyDataBuffer(empty), ACL_SUCCESS);
}

TEST(SocName, IsTheEmulatedProduct) {
  runtime_test::SettingsKeeper keep;
  aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910_93);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910_93");
  aclnn_cpu::set_product(aclnn_cpu::Product::kAscend310P);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P");
  int32_t bf16 = -1;
  EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &bf16), ACL_SUCCESS);
  EXPECT_EQ(bf16, 0);
  aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
  EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &bf16), ACL_SUCCESS);
  EXPECT_EQ(bf16, 1);
  const aclCannAttr *list = nullptr;
  size_t num = 0;
  EXPECT_EQ(aclGetCannAttributeList(&list, &num), ACL_SUCCESS);
  EXPECT_EQ(num, 2u);
  EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &bf16), ACL_ERROR_INVALID_PARAM);
}

TEST(DeviceCapability, DescribesTheHost) {
  int64_t cores = 0;
  EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &cores), ACL_SUCCESS);
  EXPECT_GE(cores, 1);
  EXPECT_EQ(aclGetDeviceCapability(1, ACL_DEVICE_INFO_AI_CORE_NUM, &cores), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &cores), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(AllocatorDescriptors, ArePlainObjectsAndRegistrationIsNotSupported) {
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(take_error().find("aclrtAllocatorRegister"), std::string::npos);
  EXPECT_EQ(aclrtAllocatorUnregister(nullptr), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(Version, IsCanns1_17_0) {
  int32_t major = 0, minor = 0, patch = 0;
  ASSERT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 17);
  EXPECT_EQ(patch, 0);
  EXPECT_EQ(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
