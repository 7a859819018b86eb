// aclScalar and the int/float/bool arrays: copies, NULL rules, sizes, stale and foreign handles.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "api/objects.hpp"
#include "core/error.hpp"

namespace {

using aclnn_cpu::HandleKind;
using aclnn_cpu::is_live_handle;

TEST(MetaScalar, CopiesDtypeSizeBytes) {
  double d = 2.5;
  aclScalar *s = aclCreateScalar(&d, ACL_DOUBLE);
  ASSERT_NE(s, nullptr);
  d = 7.0;  // the scalar holds a copy
  double back = 0;
  std::memcpy(&back, s->bytes, sizeof(back));
  EXPECT_EQ(back, 2.5);
  EXPECT_EQ(s->dtype, ACL_DOUBLE);
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_SUCCESS);

  // Only dtype-size bytes are read: a 2-byte value for FLOAT16 (ASan would flag a longer read of `half`).
  uint16_t half = 0x3c00;
  s = aclCreateScalar(&half, ACL_FLOAT16);
  ASSERT_NE(s, nullptr);
  uint16_t half_back = 0;
  std::memcpy(&half_back, s->bytes, 2);
  EXPECT_EQ(half_back, 0x3c00);
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_SUCCESS);
}

TEST(MetaScalar, NullValueOrUnreadableDtypeGiveNull) {
  int64_t v = 1;
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_INT64), nullptr);
  EXPECT_EQ(aclCreateScalar(&v, ACL_INT4), nullptr);
  EXPECT_EQ(aclCreateScalar(&v, ACL_STRING), nullptr);
  EXPECT_EQ(aclCreateScalar(&v, static_cast<aclDataType>(999)), nullptr);
  const char *e = aclnn_cpu::recent_error();
  ASSERT_NE(e, nullptr);
  EXPECT_NE(std::string(e).find("aclCreateScalar"), std::string::npos) << e;
}

TEST(MetaArray, IntArrayCopiesValues) {
  std::vector<int64_t> v = {3, -1, 7};
  aclIntArray *a = aclCreateIntArray(v.data(), v.size());
  ASSERT_NE(a, nullptr);
  v[0] = 42;
  uint64_t n = 0;
  EXPECT_EQ(aclGetIntArraySize(a, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(a->values, (std::vector<int64_t>{3, -1, 7}));
  EXPECT_EQ(aclDestroyIntArray(a), ACLNN_SUCCESS);
}

TEST(MetaArray, FloatArrayCopiesValues) {
  const float v[] = {1.5f, -2.0f};
  aclFloatArray *a = aclCreateFloatArray(v, 2);
  ASSERT_NE(a, nullptr);
  uint64_t n = 0;
  EXPECT_EQ(aclGetFloatArraySize(a, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(a->values, (std::vector<float>{1.5f, -2.0f}));
  EXPECT_EQ(aclDestroyFloatArray(a), ACLNN_SUCCESS);
}

TEST(MetaArray, BoolArrayReadsBytesAndNormalises) {
  // Bytes other than 0/1 are not valid bools; the array must read them as bytes and store 0/1.
  const unsigned char raw[] = {1, 0, 2, 255};
  aclBoolArray *a = aclCreateBoolArray(reinterpret_cast<const bool *>(raw), 4);
  ASSERT_NE(a, nullptr);
  uint64_t n = 0;
  EXPECT_EQ(aclGetBoolArraySize(a, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 4u);
  EXPECT_EQ(a->values, (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(aclDestroyBoolArray(a), ACLNN_SUCCESS);
}

TEST(MetaArray, NullValueOrZeroSizeGiveAnEmptyArray) {
  const int64_t iv[] = {1};
  const float fv[] = {1};
  const bool bv[] = {true};
  aclIntArray *i1 = aclCreateIntArray(nullptr, 5);
  aclIntArray *i2 = aclCreateIntArray(iv, 0);
  aclFloatArray *f1 = aclCreateFloatArray(nullptr, 5);
  aclFloatArray *f2 = aclCreateFloatArray(fv, 0);
  aclBoolArray *b1 = aclCreateBoolArray(nullptr, 5);
  aclBoolArray *b2 = aclCreateBoolArray(bv, 0);
  for (const void *p : {static_cast<const void *>(i1), static_cast<const void *>(i2), static_cast<const void *>(f1),
                        static_cast<const void *>(f2), static_cast<const void *>(b1), static_cast<const void *>(b2)}) {
    EXPECT_NE(p, nullptr);
  }
  uint64_t n = 99;
  EXPECT_EQ(aclGetIntArraySize(i1, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclGetIntArraySize(i2, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclGetFloatArraySize(f1, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclGetBoolArraySize(b2, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclDestroyIntArray(i1), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(i2), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(f1), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(f2), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(b1), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(b2), ACLNN_SUCCESS);
}

TEST(MetaArray, SizeNoVectorCanHoldGivesNullWithoutReading) {
  const int64_t iv[] = {1};
  const float fv[] = {1};
  EXPECT_EQ(aclCreateIntArray(iv, UINT64_MAX), nullptr);
  EXPECT_EQ(aclCreateIntArray(iv, uint64_t(1) << 62), nullptr);
  EXPECT_EQ(aclCreateFloatArray(fv, UINT64_MAX), nullptr);
  const char *e = aclnn_cpu::recent_error();
  ASSERT_NE(e, nullptr);
  EXPECT_NE(std::string(e).find("aclCreateFloatArray"), std::string::npos) << e;
}

TEST(MetaArray, SizeGettersRejectNull) {
  const int64_t iv[] = {1};
  aclIntArray *a = aclCreateIntArray(iv, 1);
  ASSERT_NE(a, nullptr);
  uint64_t n = 0;
  EXPECT_EQ(aclGetIntArraySize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetIntArraySize(a, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFloatArraySize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetBoolArraySize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyIntArray(a), ACLNN_SUCCESS);
}

TEST(MetaArray, DestroyAcceptsNullAndRejectsStaleOrForeignPointers) {
  EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(nullptr), ACLNN_SUCCESS);

  const int64_t iv[] = {1, 2};
  aclIntArray *a = aclCreateIntArray(iv, 2);
  ASSERT_NE(a, nullptr);
  // A live handle of another kind is refused and stays alive.
  EXPECT_EQ(aclDestroyBoolArray(reinterpret_cast<const aclBoolArray *>(a)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyFloatArray(reinterpret_cast<const aclFloatArray *>(a)), ACLNN_ERR_PARAM_INVALID);
  uint64_t n = 0;
  EXPECT_EQ(aclGetBoolArraySize(reinterpret_cast<const aclBoolArray *>(a), &n), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(is_live_handle(HandleKind::kIntArray, a));
  EXPECT_EQ(aclDestroyIntArray(a), ACLNN_SUCCESS);
  // Destroyed: refused without being touched (ASan checks).
  EXPECT_EQ(aclDestroyIntArray(a), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetIntArraySize(a, &n), ACLNN_ERR_PARAM_INVALID);
  const char *e = aclnn_cpu::recent_error();
  ASSERT_NE(e, nullptr);
  EXPECT_NE(std::string(e).find("not a live aclIntArray"), std::string::npos) << e;

  float f = 1;
  aclScalar *s = aclCreateScalar(&f, ACL_FLOAT);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
