#include "data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace aclnn_cpu {
namespace bench {
namespace {

std::vector<float> uniform(int64_t count, std::mt19937 *rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(static_cast<size_t>(count));
  for (float &v : values) v = dist(*rng);
  return values;
}

}  // namespace

HostInputs make_inputs(const Layer &layer, Precision p, uint32_t seed) {
  std::mt19937 rng(seed);
  HostInputs in;
  in.x = uniform(element_count(layer.x_dims()), &rng);
  in.dy = uniform(element_count(layer.dy_dims()), &rng);
  in.w = uniform(element_count(layer.w_dims()), &rng);
  round_to_dtype(p, &in.x);
  round_to_dtype(p, &in.dy);
  round_to_dtype(p, &in.w);
  return in;
}

double max_rel_diff(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(static_cast<double>(a[i]) - b[i]);
    diff = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(diff, d);
    scale = std::max(scale, std::fabs(static_cast<double>(b[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

double max_rel_diff(const Gradients &a, const Gradients &b) {
  return std::max({max_rel_diff(a.dx, b.dx), max_rel_diff(a.dw, b.dw), max_rel_diff(a.db, b.db)});
}

}  // namespace bench
}  // namespace aclnn_cpu
