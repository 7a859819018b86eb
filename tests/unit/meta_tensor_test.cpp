// aclTensor descriptors: creation, NULL rules, getters, re-initialisation, destruction of stale handles.
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

std::string last_error() {
  const char *e = aclnn_cpu::recent_error();
  return e != nullptr ? e : "";
}

std::vector<int64_t> view_shape(const aclTensor *t) {
  int64_t *dims = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(t, &dims, &n), ACLNN_SUCCESS);
  std::vector<int64_t> out(dims, dims + n);
  delete[] dims;
  return out;
}

std::vector<int64_t> strides(const aclTensor *t) {
  int64_t *values = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewStrides(t, &values, &n), ACLNN_SUCCESS);
  std::vector<int64_t> out(values, values + n);
  delete[] values;
  return out;
}

std::vector<int64_t> storage_shape(const aclTensor *t) {
  int64_t *dims = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetStorageShape(t, &dims, &n), ACLNN_SUCCESS);
  std::vector<int64_t> out(dims, dims + n);
  delete[] dims;
  return out;
}

TEST(MetaTensor, CreateCopiesEveryAttribute) {
  std::vector<int64_t> dims = {2, 3};
  std::vector<int64_t> st = {1, 2};
  std::vector<int64_t> storage = {7};
  float data[8] = {};
  aclTensor *t = aclCreateTensor(dims.data(), dims.size(), ACL_FLOAT16, st.data(), 1, ACL_FORMAT_NCHW, storage.data(),
                                 storage.size(), data);
  ASSERT_NE(t, nullptr);
  dims[0] = st[0] = storage[0] = 99;  // the tensor must not alias the caller's arrays

  EXPECT_EQ(view_shape(t), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(strides(t), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(storage_shape(t), (std::vector<int64_t>{7}));
  int64_t offset = -1;
  EXPECT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 1);
  aclDataType dtype = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_FLOAT16);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  EXPECT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_NCHW);
  void *addr = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
  EXPECT_EQ(addr, data);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, NullStridesAreRowMajorOfTheViewShape) {
  const int64_t dims[] = {2, 3, 4};
  const int64_t storage[] = {100};
  aclTensor *t = aclCreateTensor(dims, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(strides(t), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);

  const int64_t with_zero[] = {2, 0, 5};
  t = aclCreateTensor(with_zero, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, with_zero, 3, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(strides(t), (std::vector<int64_t>{0, 5, 1}));  // CANN's plain product, zeros included
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, ScalarTensorAndNullDataAreAccepted) {
  aclTensor *t = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(view_shape(t).empty());
  EXPECT_TRUE(strides(t).empty());
  EXPECT_TRUE(storage_shape(t).empty());
  void *addr = &t;
  EXPECT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
  EXPECT_EQ(addr, nullptr);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, NullDimsWithNonZeroCountGiveNull) {
  const int64_t dims[] = {2, 2};
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr), nullptr);
  EXPECT_NE(last_error().find("viewDims is nullptr"), std::string::npos) << last_error();
  EXPECT_EQ(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 1, nullptr), nullptr);
  EXPECT_NE(last_error().find("storageDims is nullptr"), std::string::npos) << last_error();
}

TEST(MetaTensor, DimCountsAboveCannsLimitGiveNullWithoutAllocating) {
  std::vector<int64_t> dims(26, 1);
  EXPECT_EQ(aclCreateTensor(dims.data(), 26, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims.data(), 1, nullptr), nullptr);
  EXPECT_NE(last_error().find("at most 25"), std::string::npos) << last_error();
  EXPECT_EQ(aclCreateTensor(dims.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims.data(), 26, nullptr), nullptr);
  // A garbage count must be refused before anything reads viewDims or sizes an allocation from it.
  EXPECT_EQ(
      aclCreateTensor(dims.data(), uint64_t(1) << 60, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims.data(), 1, nullptr),
      nullptr);
  EXPECT_EQ(aclCreateTensor(dims.data(), UINT64_MAX, ACL_FLOAT, dims.data(), 0, ACL_FORMAT_ND, dims.data(), UINT64_MAX,
                            nullptr),
            nullptr);

  aclTensor *t = aclCreateTensor(dims.data(), 25, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims.data(), 25, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(view_shape(t).size(), 25u);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, EnumValuesOutsideTheEnumRangeBecomeUndefined) {
  // A C caller may pass any int; the tensor must keep something that is safe to read back as the enum.
  const int64_t dims[] = {2};
  aclTensor *t = aclCreateTensor(dims, 1, static_cast<aclDataType>(999), nullptr, 0, static_cast<aclFormat>(-5000),
                                 dims, 1, nullptr);
  ASSERT_NE(t, nullptr);
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_NCHW;
  EXPECT_EQ(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_DT_UNDEFINED);
  EXPECT_EQ(format, ACL_FORMAT_UNDEFINED);
  // Unused values inside the range are kept: validation judges them.
  ASSERT_EQ(
      aclInitTensor(t, dims, 1, static_cast<aclDataType>(5), nullptr, 0, static_cast<aclFormat>(60), dims, 1, nullptr),
      ACLNN_SUCCESS);
  EXPECT_EQ(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(static_cast<int>(dtype), 5);
  EXPECT_EQ(static_cast<int>(format), 60);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, GettersRejectNullArguments) {
  const int64_t dims[] = {4};
  aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
  ASSERT_NE(t, nullptr);
  int64_t *values = nullptr;
  uint64_t n = 0;
  int64_t offset = 0;
  aclFormat format;
  aclDataType dtype;
  void *addr = nullptr;
  EXPECT_EQ(aclGetViewShape(nullptr, &values, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewShape(t, &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(nullptr, &values, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(t, &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(nullptr, &values, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(t, &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewOffset(nullptr, &offset), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewOffset(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFormat(nullptr, &format), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFormat(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetDataType(nullptr, &dtype), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetDataType(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetRawTensorAddr(nullptr, &addr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetRawTensorAddr(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclSetRawTensorAddr(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(values, nullptr);  // nothing was allocated on a failed call
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, DestroyAcceptsNullAndRejectsStaleOrForeignPointers) {
  EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);
  const int64_t dims[] = {4};
  aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(is_live_handle(HandleKind::kTensor, t));
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
  EXPECT_FALSE(is_live_handle(HandleKind::kTensor, t));
  // Destroyed: a second destroy and every getter refuse it without touching the freed memory (ASan checks).
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("not a live aclTensor"), std::string::npos) << last_error();
  int64_t offset = 0;
  EXPECT_EQ(aclGetViewOffset(t, &offset), ACLNN_ERR_PARAM_INVALID);
  int64_t *values = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(t, &values, &n), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetRawTensorAddr(t, nullptr), ACLNN_ERR_PARAM_INVALID);

  // Memory that never was a tensor, and a live object of another kind.
  // (nothing is mapped at the lowest 64 KiB of a Linux process: a dereference would crash the test).
  const auto *garbage = reinterpret_cast<const aclTensor *>(static_cast<uintptr_t>(0x100));
  EXPECT_EQ(aclDestroyTensor(garbage), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetViewOffset(garbage, &offset), ACLNN_ERR_PARAM_INVALID);
  aclIntArray *array = aclCreateIntArray(dims, 1);
  ASSERT_NE(array, nullptr);
  EXPECT_EQ(aclDestroyTensor(reinterpret_cast<const aclTensor *>(array)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(is_live_handle(HandleKind::kIntArray, array));
  EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

TEST(MetaTensor, InitTensorReinitialisesInPlace) {
  const int64_t dims[] = {2, 3};
  float a[6] = {};
  float b[6] = {};
  aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_NCHW, dims, 2, a);
  ASSERT_NE(t, nullptr);
  const int64_t new_dims[] = {3, 2, 1};
  const int64_t new_strides[] = {1, 3, 6};
  const int64_t new_storage[] = {6};
  ASSERT_EQ(aclInitTensor(t, new_dims, 3, ACL_BF16, new_strides, 2, ACL_FORMAT_ND, new_storage, 1, b), ACLNN_SUCCESS);
  EXPECT_EQ(view_shape(t), (std::vector<int64_t>{3, 2, 1}));
  EXPECT_EQ(strides(t), (std::vector<int64_t>{1, 3, 6}));
  EXPECT_EQ(storage_shape(t), (std::vector<int64_t>{6}));
  aclDataType dtype;
  aclFormat format;
  int64_t offset;
  void *addr;
  aclGetDataType(t, &dtype);
  aclGetFormat(t, &format);
  aclGetViewOffset(t, &offset);
  aclGetRawTensorAddr(t, &addr);
  EXPECT_EQ(dtype, ACL_BF16);
  EXPECT_EQ(format, ACL_FORMAT_ND);
  EXPECT_EQ(offset, 2);
  EXPECT_EQ(addr, b);

  // NULL strides: contiguous again.
  ASSERT_EQ(aclInitTensor(t, new_dims, 3, ACL_BF16, nullptr, 0, ACL_FORMAT_ND, new_storage, 1, b), ACLNN_SUCCESS);
  EXPECT_EQ(strides(t), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST(MetaTensor, FailedInitTensorChangesNothing) {
  const int64_t dims[] = {2, 3};
  aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_NCHW, dims, 2, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(aclInitTensor(nullptr, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclInitTensor(t, nullptr, 2, ACL_INT8, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclInitTensor(t, dims, 2, ACL_INT8, nullptr, 0, ACL_FORMAT_ND, nullptr, 2, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclInitTensor(t, dims, 1000, ACL_INT8, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(view_shape(t), (std::vector<int64_t>{2, 3}));
  aclDataType dtype;
  aclGetDataType(t, &dtype);
  EXPECT_EQ(dtype, ACL_FLOAT);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
  EXPECT_EQ(aclInitTensor(t, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr), ACLNN_ERR_PARAM_INVALID);
}

TEST(MetaTensor, RawTensorAddrIsTheStorageAddress) {
  const int64_t dims[] = {4};
  float a[4];
  float b[4];
  aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, a);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(aclSetRawTensorAddr(t, b), ACLNN_SUCCESS);
  void *addr = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
  EXPECT_EQ(addr, b);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

}  // namespace
