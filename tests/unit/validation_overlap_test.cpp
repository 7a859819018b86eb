// Ours, beyond CANN: an output view in which two elements share an address would make threads race on it, so
// results would depend on timing. Such views are rejected (161002); permuted and gapped views are fine.
#include "validation_support.hpp"

namespace validation_test {
namespace {

class ValidationOverlap : public ValidationTest {};

TEST_F(ValidationOverlap, ZeroStrideOutputIsRejected) {
  Built b(base_case());
  b.tensor(3).strides = {0, 0, 0, 0};  // gradInput [1, 16, 10, 10]
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("gradInput"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("overlap"), std::string::npos) << last_error();
}

TEST_F(ValidationOverlap, InterleavedOverlappingStridesAreRejected) {
  Built b(base_case());
  b.tensor(4).strides = {144, 9, 3, 2};  // gradWeight [16, 16, 3, 3]: W step 2 overlaps the H step 3
  EXPECT_EQ(b.validate(), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("gradWeight"), std::string::npos) << last_error();
}

TEST_F(ValidationOverlap, PermutedAndGappedOutputsAreAccepted) {
  Built b(base_case());
  b.tensor(3).strides = {1600, 1, 160, 16};  // gradInput as NHWC
  b.tensor(4).strides = {300, 18, 6, 2};     // gradWeight with gaps
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationOverlap, MaskedOffOutputIsNotChecked) {
  Spec spec = base_case();
  spec.mask = std::vector<uint8_t>{0, 1, 1};
  Built b(spec);
  b.tensor(3).strides = {0, 0, 0, 0};
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

TEST_F(ValidationOverlap, InputsMayBroadcast) {
  Built b(base_case());
  b.tensor(2).strides = {0, 9, 3, 1};  // weight: every output channel shares one filter
  EXPECT_EQ(b.validate(), ACLNN_SUCCESS) << last_error();
}

}  // namespace
}  // namespace validation_test
