// Enum parameters hold whatever a C caller passes, including values that are none of the enumerators. Loading
// such a value as the C++ enum type is undefined, so this file calls the entry points the way a C program
// does: through declarations whose enum parameters are plain ints (the ABI is the same). It includes no acl
// header, which would declare the same functions with the enum types.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

extern "C" {
int aclInit(const char *configPath);
int aclFinalizeReference(uint64_t *refCount);
int aclrtSetDevice(int32_t deviceId);
int aclrtResetDevice(int32_t deviceId);
int aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, int kind);
int aclrtSetSysParamOpt(int opt, int64_t value);
int aclrtGetSysParamOpt(int opt, int64_t *value);
int aclrtCtxSetSysParamOpt(int opt, int64_t value);
int aclrtCtxGetSysParamOpt(int opt, int64_t *value);
int aclrtGetMemInfo(int attr, size_t *free, size_t *total);
size_t aclDataTypeSize(int dataType);
int aclGetCannAttribute(int cannAttr, int32_t *value);
int aclGetDeviceCapability(uint32_t deviceId, int deviceInfo, int64_t *value);
const char *aclGetRecentErrMsg();
}

namespace {

constexpr int kSuccess = 0;
constexpr int kRepeatInitialize = 100002;
constexpr int kInvalidParam = 100000;

TEST(RuntimeCCallers, OutOfRangeEnumValuesAreInvalidParamNotUndefinedBehaviour) {
  const int init = aclInit(nullptr);
  ASSERT_TRUE(init == kSuccess || init == kRepeatInitialize) << init;
  ASSERT_EQ(aclrtSetDevice(0), kSuccess);

  char src[8] = "abcdefg";
  char dst[8] = {};
  for (int kind : {-1, 8, 1000}) {
    EXPECT_EQ(aclrtMemcpy(dst, sizeof(dst), src, sizeof(src), kind), kInvalidParam) << kind;
  }
  EXPECT_EQ(dst[0], 0);
  int64_t value = 0;
  for (int opt : {-1, 4, 100}) {
    EXPECT_EQ(aclrtSetSysParamOpt(opt, 1), kInvalidParam) << opt;
    EXPECT_EQ(aclrtGetSysParamOpt(opt, &value), kInvalidParam) << opt;
    EXPECT_EQ(aclrtCtxSetSysParamOpt(opt, 1), kInvalidParam) << opt;
    EXPECT_EQ(aclrtCtxGetSysParamOpt(opt, &value), kInvalidParam) << opt;
  }
  size_t free = 0;
  size_t total = 0;
  EXPECT_EQ(aclrtGetMemInfo(99, &free, &total), kInvalidParam);
  EXPECT_EQ(aclrtGetMemInfo(-5, &free, &total), kInvalidParam);
  EXPECT_EQ(aclDataTypeSize(12345), 8u);  // CANN's default for values it does not list
  int32_t flag = 0;
  EXPECT_EQ(aclGetCannAttribute(77, &flag), kInvalidParam);
  EXPECT_EQ(aclGetDeviceCapability(0, 77, &value), kInvalidParam);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);

  EXPECT_EQ(aclrtResetDevice(0), kSuccess);
  EXPECT_EQ(aclFinalizeReference(nullptr), kSuccess);
}

}  // namespace
