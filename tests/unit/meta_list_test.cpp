// aclTensorList / aclScalarList: the list owns the objects it was created from (CANN's rule), NULL rules,
// and no double free when a caller also destroys an element.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "api/objects.hpp"

namespace {

using aclnn_cpu::HandleKind;
using aclnn_cpu::is_live_handle;

aclTensor *make_tensor() {
  const int64_t dims[] = {2};
  return aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
}

TEST(MetaList, DestroyingATensorListDestroysItsTensors) {
  aclTensor *a = make_tensor();
  aclTensor *b = make_tensor();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const aclTensor *items[] = {a, b};
  aclTensorList *list = aclCreateTensorList(items, 2);
  ASSERT_NE(list, nullptr);
  uint64_t n = 0;
  EXPECT_EQ(aclGetTensorListSize(list, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  EXPECT_FALSE(is_live_handle(HandleKind::kTensorList, list));
  EXPECT_FALSE(is_live_handle(HandleKind::kTensor, a));
  EXPECT_FALSE(is_live_handle(HandleKind::kTensor, b));
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_ERR_PARAM_INVALID);
}

TEST(MetaList, ElementsDestroyedByTheCallerAreNotFreedTwice) {
  aclTensor *a = make_tensor();
  aclTensor *b = make_tensor();
  const aclTensor *items[] = {a, b, a, nullptr};  // a duplicate and a NULL element, both kept as given
  aclTensorList *list = aclCreateTensorList(items, 4);
  ASSERT_NE(list, nullptr);
  uint64_t n = 0;
  EXPECT_EQ(aclGetTensorListSize(list, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 4u);
  EXPECT_EQ(aclDestroyTensor(b), ACLNN_SUCCESS);  // a caller mistake CANN would turn into a double free
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  EXPECT_FALSE(is_live_handle(HandleKind::kTensor, a));
}

TEST(MetaList, NullValueOrZeroSizeGiveAnEmptyList) {
  aclTensorList *t = aclCreateTensorList(nullptr, 3);
  aclScalarList *s = aclCreateScalarList(nullptr, 3);
  ASSERT_NE(t, nullptr);
  ASSERT_NE(s, nullptr);
  uint64_t n = 9;
  EXPECT_EQ(aclGetTensorListSize(t, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclGetScalarListSize(s, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(aclDestroyTensorList(t), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalarList(s), ACLNN_SUCCESS);
}

TEST(MetaList, AStaleElementFailsCreationAndTheCallerKeepsOwnership) {
  aclTensor *live = make_tensor();
  aclTensor *stale = make_tensor();
  ASSERT_EQ(aclDestroyTensor(stale), ACLNN_SUCCESS);
  const aclTensor *items[] = {live, stale};
  EXPECT_EQ(aclCreateTensorList(items, 2), nullptr);
  EXPECT_TRUE(is_live_handle(HandleKind::kTensor, live));
  EXPECT_EQ(aclDestroyTensor(live), ACLNN_SUCCESS);
}

TEST(MetaList, DestroyingAScalarListDestroysItsScalars) {
  float f = 1;
  int32_t i = 2;
  aclScalar *a = aclCreateScalar(&f, ACL_FLOAT);
  aclScalar *b = aclCreateScalar(&i, ACL_INT32);
  const aclScalar *items[] = {a, b};
  aclScalarList *list = aclCreateScalarList(items, 2);
  ASSERT_NE(list, nullptr);
  uint64_t n = 0;
  EXPECT_EQ(aclGetScalarListSize(list, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(aclDestroyScalarList(list), ACLNN_SUCCESS);
  EXPECT_FALSE(is_live_handle(HandleKind::kScalar, a));
  EXPECT_FALSE(is_live_handle(HandleKind::kScalar, b));
}

TEST(MetaList, NullAndForeignHandles) {
  uint64_t n = 0;
  EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalarList(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetTensorListSize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetScalarListSize(nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  aclTensorList *list = aclCreateTensorList(nullptr, 0);
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(aclGetTensorListSize(list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  // A tensor list is not a scalar list.
  EXPECT_EQ(aclDestroyScalarList(reinterpret_cast<const aclScalarList *>(list)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
}

}  // namespace
