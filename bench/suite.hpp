// The model-layer suite: ResNet-50, 1-D audio, 2-D dilated, 3-D video and DCGAN-style transposed layers.
#ifndef ACLNN_CPU_BENCH_SUITE_HPP_
#define ACLNN_CPU_BENCH_SUITE_HPP_

#include <vector>

#include "layer.hpp"

namespace aclnn_cpu {
namespace bench {

// The suite with mini-batch `mb`. Layer sizes are the models' real ones; only the batch is small, because the
// current implementation is an fp64 reference and the default run has to stay short.
std::vector<Layer> model_suite(int64_t mb);

// The hard shapes, where CPU libraries are far from the FMA limit: depthwise, grouped with few channels per group,
// Cin 3 stems, kernel = stride patchify, a large-kernel strided 1-D layer, and the seed's tiny problem.
std::vector<Layer> hard_suite(int64_t mb);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_SUITE_HPP_
