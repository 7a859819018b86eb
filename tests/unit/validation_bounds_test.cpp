// Bounds safety beyond CANN: a view whose data pointer lies inside an aclrtMalloc allocation
// must fit inside it. The allocation's real extent (aclrtMalloc rounds and pads the size) is read back through
// runtime::find_allocation, so each case can place a view exactly at, or just past, the end.
#include <memory>

#include "runtime/runtime.hpp"
#include "validation_support.hpp"

namespace validation_test {
namespace {

constexpr int64_t kInputBytes = 1 * 16 * 10 * 10 * 2;  // base_case input: FLOAT16 [1, 16, 10, 10]

class ValidationBounds : public ValidationTest {
 protected:
  void SetUp() override {
    ValidationTest::SetUp();
    session_ = std::make_unique<RuntimeSession>();
    ASSERT_TRUE(session_->ok());
    ASSERT_EQ(aclrtMalloc(&block_, kInputBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const unsigned char *begin = nullptr;
    ASSERT_TRUE(aclnn_cpu::runtime::find_allocation(block_, &begin, &end_));
    ASSERT_EQ(begin, block_);
    ASSERT_GE(end_ - begin, kInputBytes);
    use(Product::kAscend910B);  // aclInit re-read the environment
  }
  void TearDown() override {
    if (block_ != nullptr) {
      EXPECT_EQ(aclrtFree(block_), ACL_SUCCESS);
    }
    session_.reset();
    ValidationTest::TearDown();
  }

  // A pointer `bytes_before_end` bytes before the end of the allocation.
  void *before_end(int64_t bytes_before_end) const { return const_cast<unsigned char *>(end_ - bytes_before_end); }

  std::unique_ptr<RuntimeSession> session_;
  void *block_ = nullptr;
  const unsigned char *end_ = nullptr;
};

TEST_F(ValidationBounds, ViewEndingExactlyAtTheAllocationEndIsAccepted) {
  Built b(base_case());
  b.tensor(1).data = before_end(kInputBytes);
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
  b.tensor(1).data = block_;
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationBounds, ViewReachingOneElementPastTheEndIsRejected) {
  Built b(base_case());
  b.tensor(1).data = before_end(kInputBytes - 2);
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  const std::string message = last_error();
  EXPECT_NE(message.find("the view of input"), std::string::npos) << message;
  EXPECT_NE(message.find("aclrtMalloc allocation"), std::string::npos) << message;
  EXPECT_NE(message.find("needs 3200 bytes"), std::string::npos) << message;
}

TEST_F(ValidationBounds, OffsetCountsTowardsTheExtent) {
  Built b(base_case());
  b.tensor(1).data = before_end(kInputBytes + 8);
  b.tensor(1).offset = 4;  // 4 FLOAT16 elements = exactly the 8 spare bytes
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
  b.tensor(1).offset = 5;
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("offset 5"), std::string::npos) << last_error();
}

TEST_F(ValidationBounds, StridesCountTowardsTheExtent) {
  Built b(base_case());
  b.tensor(1).data = block_;
  // Transposed H/W strides cover the same elements: fits.
  b.tensor(1).strides = {1600, 100, 1, 10};
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
  // W stride 2 reaches 9 elements past the contiguous extent: placed at the end, that leaves the allocation.
  b.tensor(1).data = before_end(kInputBytes);
  b.tensor(1).strides = {1600, 100, 10, 2};
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(ValidationBounds, RequestedOutputsAreChecked) {
  // gradInput has the same shape as input; place it past the end.
  Built b(base_case());
  b.tensor(3).data = before_end(kInputBytes - 2);
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("the view of gradInput"), std::string::npos) << last_error();
}

TEST_F(ValidationBounds, MaskedOffOutputsAreNotChecked) {
  Spec s = base_case();
  s.mask = std::vector<uint8_t>{0, 1, 1};
  Built b(s);
  b.tensor(3).data = before_end(kInputBytes - 2);
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationBounds, EmptyViewsHaveNoExtent) {
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  Built b(s);
  b.tensor(1).data = before_end(1);
  b.tensor(1).offset = 1000000;
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationBounds, EmptyPathOutputsAreChecked) {
  // On the empty path gradWeight and gradBias are zero-filled, so they must fit too.
  Spec s = base_case();
  s.input->shape = {0, 16, 10, 10};
  s.grad_input->shape = s.input->shape;
  s.grad_output->shape = {0, 16, 8, 8};
  Built b(s);
  b.tensor(5).data = before_end(16 * 2 - 2);  // gradBias: FLOAT16 [16]
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("the view of gradBias"), std::string::npos) << last_error();
}

// gradOutput with 32 channels where weight has 16 outgrows a buffer sized for 16: its channel count (checked
// later, V9) is named as the root cause; the status stays the bounds rule's.
TEST_F(ValidationBounds, AViewTooLargeBecauseOfAWrongChannelCountNamesTheChannels) {
  Spec s = base_case();
  s.grad_output->shape = {1, 32, 8, 8};  // 4096 bytes
  s.grad_bias->shape = {32};
  Built b(s);
  b.tensor(0).data = block_;
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  const std::string message = last_error();
  const size_t root = message.find("gradOutput.shape[1] = 32 (shape [1, 32, 8, 8]) must equal weight.shape[0] = 16");
  const size_t bounds = message.find("the view of gradOutput");
  EXPECT_NE(root, std::string::npos) << message;
  EXPECT_NE(bounds, std::string::npos) << message;
  EXPECT_LT(root, bounds) << message;
  // The right shape over too small a buffer: the bounds rule alone.
  Built fits(base_case());
  fits.tensor(0).data = before_end(1 * 16 * 8 * 8 * 2 - 2);
  EXPECT_EQ(fits.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(last_error().find("Because of that"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("the view of gradOutput"), std::string::npos) << last_error();
}

// The message quotes the size the caller asked aclrtMalloc for and the usable (rounded and padded) size, not
// only the usable one.
TEST_F(ValidationBounds, MessagesQuoteTheSizeAskedForAndTheUsableSize) {
  void *small = nullptr;
  ASSERT_EQ(aclrtMalloc(&small, 800, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  ASSERT_TRUE(aclnn_cpu::runtime::find_allocation(small, &begin, &end));
  const std::string usable = std::to_string(end - begin);
  Built b(base_case());
  b.tensor(1).data = static_cast<unsigned char *>(small) + 64;  // input: 3200 bytes
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  const std::string message = last_error();
  EXPECT_NE(message.find("needs 3200 bytes from its data pointer, but the aclrtMalloc allocation of 800 bytes (" +
                         usable + " usable) holding it has only " + std::to_string(end - begin - 64) +
                         " bytes from there (its data pointer is 64 bytes into it)."),
            std::string::npos)
      << message;
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
}

}  // namespace
}  // namespace validation_test
