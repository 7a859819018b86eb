/*
 * aclnn-cpu example: the problem of CANN's aclnnConvolutionBackward documentation sample, written as a CANN
 * program (it builds unchanged against CANN). FP32, every element 1:
 *   gradOutput [2,2,7,7], input [2,2,7,7], weight [2,2,1,1], bias size 2, stride 1, padding 0, dilation 1,
 *   not transposed, groups 1, outputMask {true,true,true}, cubeMathType 1 (ALLOW_FP32_DOWN_PRECISION).
 * Expected: every gradInput element 2 (two output channels), every gradWeight element 98 (2 images x 7 x 7),
 * every gradBias element 98. Prints the results and exits non-zero if any element differs.
 */
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

namespace {

const char *RecentError() {
  const char *message = aclGetRecentErrMsg();  // reading the message clears it
  return message != nullptr ? message : "";
}

int64_t NumElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    n *= d;
  }
  return n;
}

// Device buffer plus its tensor descriptor; both released by their CANN destroy functions.
struct Operand {
  std::unique_ptr<void, aclError (*)(void *)> data{nullptr, aclrtFree};
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor *)> tensor{nullptr, aclDestroyTensor};
  std::vector<int64_t> shape;
};

int CreateOperand(const std::vector<int64_t> &shape, float fill, Operand *op) {
  op->shape = shape;
  std::vector<float> host(NumElements(shape), fill);
  size_t bytes = host.size() * sizeof(float);
  void *dev = nullptr;
  auto ret = aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  op->data.reset(dev);
  ret = aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);

  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size() - 1; i > 0; --i) {
    strides[i - 1] = strides[i] * shape[i];
  }
  aclFormat format = shape.size() == 4 ? aclFormat::ACL_FORMAT_NCHW : aclFormat::ACL_FORMAT_ND;
  op->tensor.reset(aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0, format,
                                   shape.data(), shape.size(), dev));
  CHECK_RET(op->tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return ACL_ERROR_INTERNAL_ERROR);
  return ACL_SUCCESS;
}

// Copies an output back, prints it, and counts the elements that differ from `expected`.
int CheckOutput(const char *name, const Operand &op, float expected) {
  std::vector<float> host(NumElements(op.shape), 0.0f);
  size_t bytes = host.size() * sizeof(float);
  auto ret = aclrtMemcpy(host.data(), bytes, op.data.get(), bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy of %s to host failed. ERROR: %d\n", name, ret);
            return static_cast<int>(host.size()));
  int wrong = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    LOG_PRINT("%sResult[%zu] is: %f\n", name, i, host[i]);
    wrong += host[i] != expected;
  }
  if (wrong > 0) {
    LOG_PRINT("%s: %d of %zu elements differ from the expected %f\n", name, wrong, host.size(), expected);
  }
  return wrong;
}

int RunSample(aclrtStream stream) {
  Operand gradOutput, input, weight, gradInput, gradWeight, gradBias;
  int ret = CreateOperand({2, 2, 7, 7}, 1.0f, &gradOutput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateOperand({2, 2, 7, 7}, 1.0f, &input);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateOperand({2, 2, 1, 1}, 1.0f, &weight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // Outputs start as ones, as in the CANN sample, so a result that was never written shows.
  ret = CreateOperand({2, 2, 7, 7}, 1.0f, &gradInput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateOperand({2, 2, 1, 1}, 1.0f, &gradWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateOperand({2}, 1.0f, &gradBias);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  const int64_t biasSize[] = {2};
  const int64_t unit[] = {1, 1};
  const int64_t none[] = {0, 0};
  const bool mask[] = {true, true, true};
  std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)> biasSizes(aclCreateIntArray(biasSize, 1),
                                                                               aclDestroyIntArray);
  std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)> stride(aclCreateIntArray(unit, 2),
                                                                            aclDestroyIntArray);
  std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)> padding(aclCreateIntArray(none, 2),
                                                                             aclDestroyIntArray);
  std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)> dilation(aclCreateIntArray(unit, 2),
                                                                              aclDestroyIntArray);
  std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)> outputPadding(aclCreateIntArray(none, 2),
                                                                                   aclDestroyIntArray);
  std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray *)> outputMask(aclCreateBoolArray(mask, 3),
                                                                                  aclDestroyBoolArray);
  CHECK_RET(biasSizes && stride && padding && dilation && outputPadding && outputMask,
            LOG_PRINT("creating the parameter arrays failed\n");
            return ACL_ERROR_INTERNAL_ERROR);

  uint64_t workspaceSize = 0;
  aclOpExecutor *executor = nullptr;
  ret = aclnnConvolutionBackwardGetWorkspaceSize(
      gradOutput.tensor.get(), input.tensor.get(), weight.tensor.get(), biasSizes.get(), stride.get(), padding.get(),
      dilation.get(), false, outputPadding.get(), 1, outputMask.get(), 1, gradInput.tensor.get(),
      gradWeight.tensor.get(), gradBias.tensor.get(), &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnConvolutionBackwardGetWorkspaceSize failed. ERROR: %d\n%s\n", ret, RecentError());
            return ret);

  std::unique_ptr<void, aclError (*)(void *)> workspace(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    void *addr = nullptr;
    ret = aclrtMalloc(&addr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocating the workspace failed. ERROR: %d\n", ret); return ret);
    workspace.reset(addr);
  }
  ret = aclnnConvolutionBackward(workspace.get(), workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnConvolutionBackward failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n%s\n", ret, RecentError());
            return ret);

  int wrong = CheckOutput("gradInput", gradInput, 2.0f) + CheckOutput("gradWeight", gradWeight, 98.0f) +
              CheckOutput("gradBias", gradBias, 98.0f);
  return wrong == 0 ? ACL_SUCCESS : ACL_ERROR_FAILURE;
}

}  // namespace

int main() {
  const int32_t deviceId = 0;
  aclrtStream stream = nullptr;
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return 1);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); aclFinalize(); return 1);
  ret = aclrtCreateStream(&stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); aclrtResetDevice(deviceId);
            aclFinalize(); return 1);

  ret = RunSample(stream);

  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  LOG_PRINT("conv_backward_sample: %s\n",
            ret == ACL_SUCCESS ? "PASS (gradInput 2, gradWeight 98, gradBias 98)" : "FAIL");
  return ret == ACL_SUCCESS ? 0 : 1;
}
