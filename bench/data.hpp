// Seeded host data for one layer and the comparison of two sets of gradients.
#ifndef ACLNN_CPU_BENCH_DATA_HPP_
#define ACLNN_CPU_BENCH_DATA_HPP_

#include <cstdint>
#include <vector>

#include "layer.hpp"
#include "precision.hpp"

namespace aclnn_cpu {
namespace bench {

// x, dy, w as values the precision's dtype holds exactly (uniform in [-1, 1) before rounding).
struct HostInputs {
  std::vector<float> x, dy, w;
};

struct Gradients {
  std::vector<float> dx, dw, db;
};

HostInputs make_inputs(const Layer &layer, Precision p, uint32_t seed);

// max_i |a_i - b_i| / max_i |b_i|: the largest difference relative to the reference tensor's magnitude (an
// element-wise relative difference would be dominated by sums that cancel to almost nothing).
double max_rel_diff(const std::vector<float> &a, const std::vector<float> &b);
// The worst of the three gradients.
double max_rel_diff(const Gradients &a, const Gradients &b);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_DATA_HPP_
