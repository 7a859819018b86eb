// Our side of the benchmark: one layer run through the public CANN API only, as a CANN program would call it.
// One timed call is aclnnConvolutionBackwardGetWorkspaceSize + aclnnConvolutionBackward + aclrtSynchronizeStream
// (CANN executors are single-use, so a caller pays GetWorkspaceSize on every call).
#ifndef ACLNN_CPU_BENCH_OURS_HPP_
#define ACLNN_CPU_BENCH_OURS_HPP_

#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "data.hpp"
#include "harness/conv_call.hpp"
#include "harness/device_tensor.hpp"
#include "layer.hpp"
#include "precision.hpp"

namespace aclnn_cpu {
namespace bench {

// Device buffer and the tensor that describes it (contiguous, CANN's format for the rank), read and written as
// floats in the precision's dtype.
class DeviceTensor {
 public:
  bool create(const Dims &dims, Precision p, aclFormat format, std::string *error);
  bool upload(const std::vector<float> &values, std::string *error);
  bool download(std::vector<float> *values, std::string *error) const;
  aclTensor *get() const { return tensor_.get(); }

 private:
  Precision precision_ = Precision::kF32;
  harness::DeviceTensor tensor_;
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
  aclrtStream stream_;
  DeviceTensor x_, dy_, w_, dx_, dw_, db_;
  std::unique_ptr<harness::ConvArgs> args_;
  // Only the first (untimed) call of a case allocates; later calls reuse the buffer, as a caching allocator would.
  harness::Workspace workspace_;
};

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_OURS_HPP_
