// Our side of the benchmark: one layer run through the public CANN API only, as a CANN program would call it.
// One timed call is aclnnConvolutionBackwardGetWorkspaceSize + aclnnConvolutionBackward + aclrtSynchronizeStream
// (CANN executors are single-use, so a caller pays GetWorkspaceSize on every call).
#ifndef ACLNN_CPU_BENCH_OURS_HPP_
#define ACLNN_CPU_BENCH_OURS_HPP_

#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "data.hpp"
#include "layer.hpp"
#include "precision.hpp"

namespace aclnn_cpu {
namespace bench {

// Device buffer and the tensor that describes it (contiguous, CANN's format for the rank).
class DeviceTensor {
 public:
  bool create(const Dims &dims, Precision p, aclFormat format, std::string *error);
  bool upload(const std::vector<float> &values, std::string *error);
  bool download(std::vector<float> *values, std::string *error) const;
  aclTensor *get() const { return tensor_.get(); }

 private:
  Precision precision_ = Precision::kF32;
  size_t bytes_ = 0;
  std::unique_ptr<void, aclError (*)(void *)> data_{nullptr, aclrtFree};
  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor *)> tensor_{nullptr, aclDestroyTensor};
};

class OursConv {
 public:
  explicit OursConv(aclrtStream stream) : stream_(stream) {}
  bool setup(const Layer &layer, Precision p, const HostInputs &inputs, std::string *error);
  bool run(std::string *error);  // one call; grows the cached workspace when it is too small
  // run() with its three phases timed: GetWorkspaceSize, launch, synchronize (seconds, into phases[0..2]).
  bool run_phases(double phases[3], std::string *error);
  bool read(Gradients *out, std::string *error) const;

 private:
  using IntArray = std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)>;
  using BoolArray = std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray *)>;

  aclrtStream stream_;
  Layer layer_;
  Precision precision_ = Precision::kF32;
  DeviceTensor x_, dy_, w_, dx_, dw_, db_;
  IntArray stride_{nullptr, aclDestroyIntArray}, padding_{nullptr, aclDestroyIntArray};
  IntArray dilation_{nullptr, aclDestroyIntArray}, output_padding_{nullptr, aclDestroyIntArray};
  IntArray bias_sizes_{nullptr, aclDestroyIntArray};
  BoolArray mask_{nullptr, aclDestroyBoolArray};
  std::unique_ptr<void, aclError (*)(void *)> workspace_{nullptr, aclrtFree};
  uint64_t workspace_capacity_ = 0;
};

std::string recent_error();

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_OURS_HPP_
