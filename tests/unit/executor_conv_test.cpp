// aclnnConvolutionBackwardGetWorkspaceSize / aclnnConvolutionBackward entry points: handle liveness before
// validation, out-pointer rules, the executor owning copies of everything (descriptors destroyed before the
// stream runs), and refreshing tensor addresses of a ConvBackward executor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn_cpu/ext.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "api/conv_backward_operation.hpp"
#include "api/executor.hpp"
#include "core/config.hpp"
#include "executor_test_support.hpp"
#include "host_conv_call.hpp"

namespace {

using aclnn_cpu::HandleKind;
using aclnn_cpu::is_live_handle;
using executor_test::last_error;
using executor_test::StreamBlocker;

std::string runtime_error_text() {
  const char *e = aclGetRecentErrMsg();
  return e != nullptr ? e : "";
}

aclTensor *tensor(const std::vector<int64_t> &shape, aclFormat format, std::vector<float> *data) {
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0, format, shape.data(), shape.size(),
                         data->data());
}

aclIntArray *ints(const std::vector<int64_t> &v) { return aclCreateIntArray(v.data(), v.size()); }

// A workspace from aclrtMalloc (the launch refuses one outside the runtime's allocations); none for size 0.
class DeviceWorkspace {
 public:
  explicit DeviceWorkspace(uint64_t size) {
    if (size > 0) {
      EXPECT_EQ(aclrtMalloc(&data_, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
  }
  ~DeviceWorkspace() {
    if (data_ != nullptr) aclrtFree(data_);
  }
  void *get() const { return data_; }

 private:
  void *data_ = nullptr;
};

// A scaled-down docs/contract.md §5.1 S0: FP32, all ones, 1x1 kernel over [1,c,side,side] (default c = side = 2).
// Expected: gradInput c, gradWeight side², gradBias side² everywhere.
struct SmallCase {
  explicit SmallCase(int64_t side = 2, int64_t c = 2)
      : spatial(static_cast<size_t>(c * side * side)),
        dy(spatial, 1.0f),
        x(spatial, 1.0f),
        w(static_cast<size_t>(c * c), 1.0f),
        dx(spatial, -1.0f),
        dw(w.size(), -1.0f),
        db(static_cast<size_t>(c), -1.0f),
        gradOutput(tensor({1, c, side, side}, ACL_FORMAT_NCHW, &dy)),
        input(tensor({1, c, side, side}, ACL_FORMAT_NCHW, &x)),
        weight(tensor({c, c, 1, 1}, ACL_FORMAT_NCHW, &w)),
        biasSizes(ints({c})),
        gradInput(tensor({1, c, side, side}, ACL_FORMAT_NCHW, &dx)),
        gradWeight(tensor({c, c, 1, 1}, ACL_FORMAT_NCHW, &dw)),
        gradBias(tensor({c}, ACL_FORMAT_ND, &db)) {
    const bool mask[] = {true, true, true};
    outputMask = aclCreateBoolArray(mask, 3);
  }
  ~SmallCase() { destroy_all(); }

  void only_grad_input() {
    EXPECT_EQ(aclDestroyBoolArray(outputMask), ACLNN_SUCCESS);
    const bool mask[] = {true, false, false};
    outputMask = aclCreateBoolArray(mask, 3);
  }

  size_t spatial;  // elements of gradOutput, input and gradInput
  std::vector<float> dy, x, w, dx, dw, db;

  aclTensor *gradOutput, *input, *weight;
  aclIntArray *biasSizes;
  aclIntArray *stride = ints({1, 1});
  aclIntArray *padding = ints({0, 0});
  aclIntArray *dilation = ints({1, 1});
  aclIntArray *outputPadding = ints({0, 0});
  aclBoolArray *outputMask = nullptr;
  aclTensor *gradInput, *gradWeight, *gradBias;

  int get_workspace_size(uint64_t *size, aclOpExecutor **executor, int groups = 1) {
    return aclnnConvolutionBackwardGetWorkspaceSize(gradOutput, input, weight, biasSizes, stride, padding, dilation,
                                                    false, outputPadding, groups, outputMask, 1, gradInput, gradWeight,
                                                    gradBias, size, executor);
  }

  void destroy_all() {
    for (aclTensor **t : {&gradOutput, &input, &weight, &gradInput, &gradWeight, &gradBias}) {
      EXPECT_EQ(aclDestroyTensor(*t), ACLNN_SUCCESS);
      *t = nullptr;
    }
    for (aclIntArray **a : {&biasSizes, &stride, &padding, &dilation, &outputPadding}) {
      EXPECT_EQ(aclDestroyIntArray(*a), ACLNN_SUCCESS);
      *a = nullptr;
    }
    EXPECT_EQ(aclDestroyBoolArray(outputMask), ACLNN_SUCCESS);
    outputMask = nullptr;
  }
};

class ConvEntry : public executor_test::RuntimeFixture {
 protected:
  void SetUp() override {
    RuntimeFixture::SetUp();
    saved_ = aclnn_cpu::settings();
    aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
    aclnn_cpu::set_strict(false);
  }
  void TearDown() override {
    aclnn_cpu::set_product(saved_.product);
    aclnn_cpu::set_strict(saved_.strict);
    RuntimeFixture::TearDown();
  }
  aclnn_cpu::Settings saved_;
};

TEST_F(ConvEntry, DestroyedTensorArgumentIs161002BeforeValidation) {
  SmallCase c;
  aclTensor *stale = c.weight;
  ASSERT_EQ(aclDestroyTensor(stale), ACLNN_SUCCESS);
  c.weight = nullptr;
  uint64_t size = 77;
  aclOpExecutor *const untouched = executor_test::garbage_handle<aclOpExecutor>();
  aclOpExecutor *executor = untouched;
  EXPECT_EQ(aclnnConvolutionBackwardGetWorkspaceSize(c.gradOutput, c.input, stale, c.biasSizes, c.stride, c.padding,
                                                     c.dilation, false, c.outputPadding, 1, c.outputMask, 1,
                                                     c.gradInput, c.gradWeight, c.gradBias, &size, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("weight"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("not a live aclTensor"), std::string::npos) << last_error();
  EXPECT_EQ(size, 77u);  // a failed call writes no output
  EXPECT_EQ(executor, untouched);
}

TEST_F(ConvEntry, GarbageArgumentIsRefusedWithoutBeingRead) {
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(aclnnConvolutionBackwardGetWorkspaceSize(c.gradOutput, c.input, c.weight, c.biasSizes, c.stride, c.padding,
                                                     c.dilation, false, c.outputPadding, 1,
                                                     executor_test::garbage_handle<aclBoolArray>(), 1, c.gradInput,
                                                     c.gradWeight, c.gradBias, &size, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("outputMask (0x100) is not a live aclBoolArray"), std::string::npos) << last_error();
}

TEST_F(ConvEntry, EveryObjectArgumentIsCheckedForLiveness) {
  // Each argument in turn is replaced by a handle of the wrong kind; every one must be named and refused.
  const int64_t dims[] = {1};
  aclTensor *not_array = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
  aclIntArray *not_tensor = aclCreateIntArray(dims, 1);
  const char *const names[] = {"gradOutput", "input",         "weight",     "biasSizes", "stride",     "padding",
                               "dilation",   "outputPadding", "outputMask", "gradInput", "gradWeight", "gradBias"};
  for (int i = 0; i < 12; ++i) {
    SmallCase c;
    const void *args[12] = {c.gradOutput, c.input,         c.weight,     c.biasSizes, c.stride,     c.padding,
                            c.dilation,   c.outputPadding, c.outputMask, c.gradInput, c.gradWeight, c.gradBias};
    const bool is_tensor = i < 3 || i >= 9;
    args[i] = is_tensor ? static_cast<const void *>(not_tensor) : static_cast<const void *>(not_array);
    uint64_t size = 0;
    aclOpExecutor *executor = nullptr;
    int st = aclnnConvolutionBackwardGetWorkspaceSize(
        static_cast<const aclTensor *>(args[0]), static_cast<const aclTensor *>(args[1]),
        static_cast<const aclTensor *>(args[2]), static_cast<const aclIntArray *>(args[3]),
        static_cast<const aclIntArray *>(args[4]), static_cast<const aclIntArray *>(args[5]),
        static_cast<const aclIntArray *>(args[6]), false, static_cast<const aclIntArray *>(args[7]), 1,
        static_cast<const aclBoolArray *>(args[8]), 1, const_cast<aclTensor *>(static_cast<const aclTensor *>(args[9])),
        const_cast<aclTensor *>(static_cast<const aclTensor *>(args[10])),
        const_cast<aclTensor *>(static_cast<const aclTensor *>(args[11])), &size, &executor);
    EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID) << names[i];
    EXPECT_NE(last_error().find(std::string(names[i]) + " ("), std::string::npos) << last_error();
    EXPECT_EQ(executor, nullptr);
  }
  EXPECT_EQ(aclDestroyTensor(not_array), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(not_tensor), ACLNN_SUCCESS);
}

TEST_F(ConvEntry, NullOutPointersAre161001InsteadOfACrash) {
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  int st = c.get_workspace_size(nullptr, &executor);
  EXPECT_EQ(st, ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(last_error().find("workspaceSize is nullptr"), std::string::npos) << last_error();
  EXPECT_EQ(executor, nullptr);
  EXPECT_EQ(c.get_workspace_size(&size, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(last_error().find("executor is nullptr"), std::string::npos) << last_error();
}

TEST_F(ConvEntry, TheExecutorOwnsCopiesOfEveryDescriptor) {
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  int st = c.get_workspace_size(&size, &executor);
  ASSERT_EQ(st, ACLNN_SUCCESS) << last_error();
  ASSERT_TRUE(is_live_handle(HandleKind::kExecutor, executor));
  DeviceWorkspace workspace(size);

  StreamBlocker blocker(stream_);
  ASSERT_TRUE(blocker.blocking());
  ASSERT_EQ(aclnnConvolutionBackward(workspace.get(), size, executor, stream_), ACLNN_SUCCESS) << last_error();
  // What torch_npu does: destroy every descriptor right after launch, before the stream has run the work.
  c.destroy_all();
  EXPECT_EQ(c.dx[0], -1.0f);  // the work has provably not run yet
  blocker.release();
  st = aclrtSynchronizeStream(stream_);
  ASSERT_EQ(st, ACL_SUCCESS) << runtime_error_text();
  for (float v : c.dx) EXPECT_EQ(v, 2.0f);
  for (float v : c.dw) EXPECT_EQ(v, 4.0f);
  for (float v : c.db) EXPECT_EQ(v, 4.0f);
}

TEST_F(ConvEntry, ASmallCallOnAnIdleStreamIsDoneWhenTheLaunchReturns) {
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  ASSERT_EQ(c.get_workspace_size(&size, &executor), ACLNN_SUCCESS) << last_error();
  DeviceWorkspace workspace(size);
  ASSERT_EQ(aclnnConvolutionBackward(workspace.get(), size, executor, stream_), ACLNN_SUCCESS) << last_error();
  // Small problems stay on the calling thread (no hand-off to the stream's thread and back).
  for (float v : c.dx) EXPECT_EQ(v, 2.0f);
  for (float v : c.dw) EXPECT_EQ(v, 4.0f);
  for (float v : c.db) EXPECT_EQ(v, 4.0f);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << runtime_error_text();
}

TEST_F(ConvEntry, AFailedValidationCreatesNoExecutor) {
  SmallCase c;
  uint64_t size = 5;
  aclOpExecutor *const untouched = executor_test::garbage_handle<aclOpExecutor>();
  aclOpExecutor *executor = untouched;
  int st = aclnnConvolutionBackwardGetWorkspaceSize(c.gradOutput, c.input, c.weight, c.biasSizes, c.stride, c.padding,
                                                    c.dilation, false, c.outputPadding, 0, c.outputMask, 1, c.gradInput,
                                                    c.gradWeight, c.gradBias, &size, &executor);
  EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID) << last_error();  // groups 0 (docs/contract.md §5.6 N11)
  EXPECT_EQ(size, 5u);
  EXPECT_EQ(executor, untouched);
}

// A hand-built problem: the operation's address refresh does not need validation.
aclnn_cpu::conv_bwd::TensorArg arg(std::vector<int64_t> shape, void *data) {
  aclnn_cpu::conv_bwd::TensorArg t;
  t.present = true;
  t.dtype = ACL_FLOAT;
  t.shape = shape;
  t.strides.assign(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) t.strides[i - 1] = t.strides[i] * shape[i];
  t.numel = 1;
  for (int64_t d : shape) t.numel *= d;
  t.data = data;
  return t;
}

aclnn_cpu::conv_bwd::Problem small_problem(std::vector<float> *buf) {
  aclnn_cpu::conv_bwd::Problem p;
  p.rank = 4;
  p.mask[0] = p.mask[1] = true;
  p.grad_output = arg({1, 2, 2, 2}, buf->data());
  p.input = arg({1, 2, 2, 2}, buf->data());
  p.weight = arg({2, 2, 1, 1}, buf->data());
  p.grad_input = arg({1, 2, 2, 2}, buf->data());
  p.grad_weight = arg({2, 2, 1, 1}, buf->data());
  return p;  // grad_bias absent
}

TEST_F(ConvEntry, RefreshingAnAddressRepointsTheExecutorsCopyOnly) {
  std::vector<float> buf(8);
  std::vector<float> other(8);
  auto op = std::make_shared<aclnn_cpu::ConvBackwardOperation>(small_problem(&buf));
  aclOpExecutor *exec = aclnn_cpu::create_executor(op);
  const int64_t dims[] = {2, 2, 1, 1};
  aclTensor *t = aclCreateTensor(dims, 4, ACL_FLOAT, nullptr, 0, ACL_FORMAT_NCHW, dims, 4, buf.data());

  ASSERT_EQ(aclSetInputTensorAddr(exec, 2, t, other.data()), ACLNN_SUCCESS) << last_error();
  auto *now = dynamic_cast<aclnn_cpu::ConvBackwardOperation *>(exec->operation.get());
  ASSERT_NE(now, nullptr);
  EXPECT_NE(now, op.get());                          // a new operation: launches already queued keep the old one
  EXPECT_EQ(op->problem().weight.data, buf.data());  // the old one is unchanged
  EXPECT_EQ(now->problem().weight.data, other.data());
  EXPECT_EQ(now->problem().input.data, buf.data());
  void *recorded = nullptr;
  aclGetRawTensorAddr(t, &recorded);
  EXPECT_EQ(recorded, other.data());  // the tensor records it too, as in CANN

  ASSERT_EQ(aclSetOutputTensorAddr(exec, 0, t, other.data()), ACLNN_SUCCESS) << last_error();
  now = dynamic_cast<aclnn_cpu::ConvBackwardOperation *>(exec->operation.get());
  EXPECT_EQ(now->problem().grad_input.data, other.data());

  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST_F(ConvEntry, RefreshingAnAddressRefusesBadRequests) {
  std::vector<float> buf(8);
  aclOpExecutor *exec =
      aclnn_cpu::create_executor(std::make_shared<aclnn_cpu::ConvBackwardOperation>(small_problem(&buf)));
  const int64_t dims[] = {2};
  aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);

  EXPECT_EQ(aclSetInputTensorAddr(exec, 3, t, buf.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("index 3"), std::string::npos) << last_error();
  EXPECT_EQ(aclSetOutputTensorAddr(exec, 2, t, buf.data()), ACLNN_ERR_PARAM_INVALID);  // gradBias was NULL
  EXPECT_NE(last_error().find("gradBias was nullptr"), std::string::npos) << last_error();
  EXPECT_EQ(aclSetInputTensorAddr(exec, 0, t, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("addr is nullptr"), std::string::npos) << last_error();

  // An address inside an aclrtMalloc allocation must leave room for the whole view (8 floats = 32 bytes).
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  ASSERT_TRUE(aclnn_cpu::runtime::find_allocation(device, &begin, &end));
  void *too_late = const_cast<unsigned char *>(end) - 16;
  EXPECT_EQ(aclSetInputTensorAddr(exec, 1, t, too_late), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("reaches outside the aclrtMalloc allocation of 64 bytes (" + std::to_string(end - begin) +
                              " usable)"),
            std::string::npos)
      << last_error();
  EXPECT_EQ(aclSetInputTensorAddr(exec, 1, t, device), ACLNN_SUCCESS) << last_error();

  void *recorded = nullptr;
  aclGetRawTensorAddr(t, &recorded);
  EXPECT_EQ(recorded, device);  // only the successful call changed the tensor
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

}  // namespace

namespace {

// In-place callers: gradInput written over gradOutput's own buffer must not change gradBias, which is the sum of
// the gradOutput the caller passed. Weight 10·I, so gradInput = 10·gradOutput overwrites it with new values.
TEST_F(ConvEntry, GradBiasSumsGradOutputEvenWhenGradInputOverwritesIt) {
  SmallCase c;
  c.dy = {1, 1, 1, 1, 2, 2, 2, 2};
  c.w = {10, 0, 0, 10};
  ASSERT_EQ(aclDestroyTensor(c.gradInput), ACLNN_SUCCESS);
  c.gradInput = tensor({1, 2, 2, 2}, ACL_FORMAT_NCHW, &c.dy);  // aliases gradOutput
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  ASSERT_EQ(c.get_workspace_size(&size, &executor), ACLNN_SUCCESS) << last_error();
  DeviceWorkspace workspace(size);
  ASSERT_EQ(aclnnConvolutionBackward(workspace.get(), size, executor, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << runtime_error_text();
  EXPECT_EQ(c.db, (std::vector<float>{4, 8}));
  EXPECT_EQ(c.dy, (std::vector<float>{10, 10, 10, 10, 20, 20, 20, 20}));
}

// A changed address is planned again (the plan is what execution trusts): gradInput moved onto gradOutput's buffer
// makes the call in-place, which the reference computes from operands staged in the workspace. That needs more
// workspace than the caller holds for the first plan, so the refresh is refused and the executor keeps its old
// address; the other way round (planned in-place, moved apart) the new plan fits and computes the same numbers.
TEST_F(ConvEntry, ARefreshedAddressIsPlannedAgainAndRefusedWhenItsWorkspaceOutgrowsTheReported) {
  SmallCase apart(128, 64);
  for (size_t i = 0; i < apart.spatial; ++i) apart.dy[i] = static_cast<float>((i * 37) % 23) * 0.25f - 2.5f;
  for (size_t i = 0; i < apart.w.size(); ++i) apart.w[i] = static_cast<float>((i * 11) % 7) - 3.0f;
  apart.only_grad_input();
  uint64_t apart_size = 0;
  aclOpExecutor *apart_exec = nullptr;
  ASSERT_EQ(apart.get_workspace_size(&apart_size, &apart_exec), ACLNN_SUCCESS) << last_error();
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(apart_exec), ACLNN_SUCCESS);

  SmallCase in_place(128, 64);
  in_place.dy = apart.dy;
  in_place.w = apart.w;
  in_place.only_grad_input();
  ASSERT_EQ(aclDestroyTensor(in_place.gradInput), ACLNN_SUCCESS);
  in_place.gradInput = tensor({1, 64, 128, 128}, ACL_FORMAT_NCHW, &in_place.dy);
  uint64_t in_place_size = 0;
  aclOpExecutor *in_place_exec = nullptr;
  ASSERT_EQ(in_place.get_workspace_size(&in_place_size, &in_place_exec), ACLNN_SUCCESS) << last_error();
  ASSERT_GT(in_place_size, apart_size) << "the test needs an in-place plan that stages its operands";

  const int64_t dims[] = {1, 64, 128, 128};
  aclTensor *t = aclCreateTensor(dims, 4, ACL_FLOAT, nullptr, 0, ACL_FORMAT_NCHW, dims, 4, apart.dx.data());
  EXPECT_EQ(aclSetOutputTensorAddr(apart_exec, 0, t, apart.dy.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(last_error().find("with gradInput at addr"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("bytes of workspace"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("more than the " + std::to_string(apart_size) +
                              " aclnnConvolutionBackwardGetWorkspaceSize reported; call it again with this address"),
            std::string::npos)
      << last_error();

  // Refused: the executor still writes gradInput where it was planned to, and leaves gradOutput alone.
  const std::vector<float> dy_before = apart.dy;
  DeviceWorkspace apart_ws(apart_size);
  ASSERT_EQ(aclnnConvolutionBackward(apart_ws.get(), apart_size, apart_exec, stream_), ACLNN_SUCCESS) << last_error();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << runtime_error_text();
  EXPECT_EQ(apart.dy, dy_before);
  const std::vector<float> dx_apart = apart.dx;

  // Planned in-place, moved apart: the new plan fits the reported workspace and computes what `apart` computed.
  std::vector<float> dx(apart.spatial, -7.0f);
  ASSERT_EQ(aclSetOutputTensorAddr(in_place_exec, 0, t, dx.data()), ACLNN_SUCCESS) << last_error();
  DeviceWorkspace in_place_ws(in_place_size);
  ASSERT_EQ(aclnnConvolutionBackward(in_place_ws.get(), in_place_size, in_place_exec, stream_), ACLNN_SUCCESS)
      << last_error();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << runtime_error_text();
  EXPECT_EQ(dx, dx_apart);
  EXPECT_EQ(in_place.dy, dy_before);  // no longer written over
  EXPECT_EQ(in_place.dw, apart.dw);
  EXPECT_EQ(in_place.db, apart.db);

  EXPECT_EQ(aclDestroyAclOpExecutor(apart_exec), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

}  // namespace

namespace {

// ACLNN_CPU_VERBOSE at `level` for one scope.
class VerboseLevel {
 public:
  explicit VerboseLevel(int level) : saved_(aclnn_cpu::settings().verbose) { aclnn_cpu::set_verbose(level); }
  ~VerboseLevel() { aclnn_cpu::set_verbose(saved_); }

 private:
  int saved_;
};

std::string error_line(const char *phase, int status, const std::string &message) {
  return std::string("aclnn_cpu_verbose,error,") + phase + ",status=" + std::to_string(status) + "," + message + "\n";
}

// A refused call of either phase prints one line with its phase, its status and the message aclGetRecentErrMsg
// returns; level 0 prints nothing.
TEST_F(ConvEntry, VerboseLogsARefusedCallOfEitherPhaseWithItsStatusAndMessage) {
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  {
    VerboseLevel verbose(1);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(c.get_workspace_size(&size, &executor, 0), ACLNN_ERR_PARAM_INVALID);  // groups 0
    const std::string refused = last_error();
    EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
    const std::string launch = last_error();
    const std::string out = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(refused.find("groups"), std::string::npos) << refused;
    EXPECT_NE(launch.find("executor is nullptr"), std::string::npos) << launch;
    EXPECT_EQ(out, error_line("GetWorkspaceSize", ACLNN_ERR_PARAM_INVALID, refused) +
                       error_line("launch", ACLNN_ERR_PARAM_NULLPTR, launch));
  }
  VerboseLevel quiet(0);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(c.get_workspace_size(&size, &executor, 0), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// Work that fails when its stream runs it is logged as phase "stream" (the launch itself succeeded).
TEST_F(ConvEntry, VerboseLogsWorkThatFailsOnTheStream) {
  VerboseLevel verbose(1);
  auto log = std::make_shared<executor_test::FakeLog>();
  aclOpExecutor *executor = aclnn_cpu::create_executor(
      std::make_shared<executor_test::FakeOperation>(log, 0, executor_test::FakeOperation::Mode::kFail));
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclnnConvolutionBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS) << last_error();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACLNN_ERR_INNER_TILING_ERROR);
  const std::string message = runtime_error_text();
  const std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(log->runs.load(), 1);
  const std::string synchronize = "aclrtSynchronizeStream: ";  // how the synchronizing thread is handed the message
  ASSERT_EQ(message.rfind(synchronize, 0), 0u) << message;
  EXPECT_NE(message.find("failing on purpose"), std::string::npos) << message;
  EXPECT_EQ(out, error_line("stream", ACLNN_ERR_INNER_TILING_ERROR, message.substr(synchronize.size())));
}

// The seed-like small call at verbose `level`: what GetWorkspaceSize printed, and what the launch printed.
struct Printed {
  std::string planned, ran;
};
Printed run_small_call(aclrtStream stream, int level) {
  VerboseLevel verbose(level);
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  Printed printed;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(c.get_workspace_size(&size, &executor), ACLNN_SUCCESS) << last_error();
  printed.planned = ::testing::internal::GetCapturedStderr();
  DeviceWorkspace workspace(size);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclnnConvolutionBackward(workspace.get(), size, executor, stream), ACLNN_SUCCESS) << last_error();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << runtime_error_text();
  printed.ran = ::testing::internal::GetCapturedStderr();
  return printed;
}

TEST_F(ConvEntry, VerboseLogsNoErrorLineForACallThatSucceeds) {
  const Printed out = run_small_call(stream_, 1);
  EXPECT_EQ(out.planned, "");
  EXPECT_EQ(out.ran.find("aclnn_cpu_verbose,error"), std::string::npos) << out.ran;
  EXPECT_EQ(std::count(out.ran.begin(), out.ran.end(), '\n'), 1) << out.ran;  // the launch's exec line
  EXPECT_EQ(out.ran.rfind("aclnn_cpu_verbose,exec,", 0), 0u) << out.ran;
}

// Level 2 also prints how GetWorkspaceSize chose the plan: per output each algorithm tried, in the table's order,
// refused with its reason, then the chosen one with its kernel — the plan the launch's exec line names.
TEST_F(ConvEntry, VerboseLevelTwoPrintsTheDispatchOfEveryOutput) {
  const Printed out = run_small_call(stream_, 2);
  const std::string exec_head = "aclnn_cpu_verbose,exec,";
  ASSERT_EQ(out.ran.rfind(exec_head, 0), 0u) << out.ran;
  const std::string problem = out.ran.substr(exec_head.size(), out.ran.find(",compute=") - exec_head.size());
  const std::string head = "aclnn_cpu_verbose,dispatch," + problem + ",";
  std::vector<std::string> lines;
  for (size_t at = 0, end; (end = out.planned.find('\n', at)) != std::string::npos; at = end + 1) {
    lines.push_back(out.planned.substr(at, end - at));
  }
  // gradInput chosen first; gradWeight two refusals (a 1×1 kernel on 4 positions), then chosen; gradBias.
  ASSERT_EQ(lines.size(), 5u) << out.planned;
  for (const std::string &l : lines) EXPECT_EQ(l.rfind(head, 0), 0u) << l;
  EXPECT_EQ(lines[1].substr(head.size()), "gradWeight,depthwise_weight,refused: not depthwise: 2 x channels per group "
                                          "(needs 1)");
  EXPECT_EQ(lines[2].substr(head.size()),
            "gradWeight,gemm_weight_shifted,refused: 1x1 kernel on planes of 4 "
            "positions (fewer than 384): short dot products");
  // The chosen lines name what the exec line runs ("gradInput=<algorithm>:<kernel>").
  for (int i : {0, 3}) {
    const std::string rest = lines[i].substr(head.size());  // <output>,<algorithm>,chosen,<kernel>,isa=<isa>
    const size_t a = rest.find(','), b = rest.find(",chosen,"), k = rest.find(",isa=");
    ASSERT_TRUE(a != std::string::npos && b != std::string::npos && k != std::string::npos) << rest;
    const std::string named = rest.substr(0, a) + "=" + rest.substr(a + 1, b - a - 1) + ":" +
                              rest.substr(b + 8, k - b - 8);
    EXPECT_NE(out.ran.find(named), std::string::npos) << named << " in " << out.ran;
  }
  EXPECT_EQ(lines[4].substr(head.size(), 24), "gradBias,grad_bias_sum,c") << lines[4];
}

// aclnnCpuDescribeExecutor returns what level 2 prints, for a live executor only.
TEST_F(ConvEntry, DescribeExecutorReturnsTheDispatchLines) {
  SmallCase c;
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  std::string printed;
  {
    VerboseLevel verbose(2);
    ::testing::internal::CaptureStderr();
    ASSERT_EQ(c.get_workspace_size(&size, &executor), ACLNN_SUCCESS) << last_error();
    printed = ::testing::internal::GetCapturedStderr();
  }
  size_t length = 0;
  ASSERT_EQ(aclnnCpuDescribeExecutor(executor, nullptr, 0, &length), ACLNN_SUCCESS);
  EXPECT_EQ(length, printed.size());
  std::vector<char> text(length + 1, 'x');
  ASSERT_EQ(aclnnCpuDescribeExecutor(executor, text.data(), text.size(), nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(std::string(text.data()), printed);
  char shorter[8];
  ASSERT_EQ(aclnnCpuDescribeExecutor(executor, shorter, sizeof shorter, &length), ACLNN_SUCCESS);
  EXPECT_EQ(std::string(shorter), printed.substr(0, 7));
  EXPECT_EQ(aclnnCpuDescribeExecutor(nullptr, text.data(), text.size(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACL_SUCCESS);
  EXPECT_EQ(aclnnCpuDescribeExecutor(executor, text.data(), text.size(), nullptr), ACLNN_ERR_PARAM_INVALID);
}

// The workspace holds one scratch slot per planned thread, so its size depends on the thread count at
// GetWorkspaceSize; a size from fewer threads is refused, and the message says why.
TEST_F(ConvEntry, TheWorkspaceSizeDependsOnTheThreadCountAndTheLaunchSaysSo) {
  struct ThreadsKeeper {
    int saved = aclnn_cpu::settings().num_threads;
    ~ThreadsKeeper() { aclnn_cpu::set_num_threads(saved); }
  } keeper;
  test_support::HostConvCall call;
  uint64_t one_thread = 0, two_threads = 0;
  aclOpExecutor *first = nullptr, *second = nullptr;
  aclnn_cpu::set_num_threads(1);
  ASSERT_EQ(call.get_workspace_size(&one_thread, &first), ACLNN_SUCCESS) << last_error();
  aclnn_cpu::set_num_threads(2);
  ASSERT_EQ(call.get_workspace_size(&two_threads, &second), ACLNN_SUCCESS) << last_error();
  EXPECT_GT(two_threads, one_thread);
  EXPECT_EQ(aclDestroyAclOpExecutor(first), ACLNN_SUCCESS);

  DeviceWorkspace reused(one_thread);
  EXPECT_EQ(aclnnConvolutionBackward(reused.get(), one_thread, second, stream_), ACLNN_ERR_PARAM_INVALID);
  const std::string message = last_error();
  EXPECT_NE(message.find("workspaceSize is " + std::to_string(one_thread) + " but the executor needs " +
                         std::to_string(two_threads) + " bytes"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("a scratch slot for each of the 2 threads planned at GetWorkspaceSize"), std::string::npos)
      << message;
}

}  // namespace
