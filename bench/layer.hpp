// One convolution layer of the benchmark suite, its shapes and its work, in CANN's terms: x is `input`
// (ic channels), dy is `gradOutput` (oc channels), w is `weight` ([oc, ic/g, k...], or [ic, oc/g, k...] when
// transposed). Spatial arrays use their first `rank` entries (1-D: w, 2-D: h w, 3-D: d h w).
#ifndef ACLNN_CPU_BENCH_LAYER_HPP_
#define ACLNN_CPU_BENCH_LAYER_HPP_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace aclnn_cpu {
namespace bench {

using Dims = std::vector<int64_t>;
using Spatial = std::array<int64_t, 3>;

struct Layer {
  std::string name;  // short model-layer name, e.g. "rn50_3x3_64"
  int rank = 2;      // spatial dimensions, 1..3
  int64_t mb = 1, g = 1, ic = 1, oc = 1;
  Spatial in{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, p{0, 0, 0}, d{1, 1, 1}, op{0, 0, 0};
  bool transposed = false;

  // gradOutput's spatial size (the convolution's output; the transposed convolution's output when transposed).
  Spatial out() const;
  Dims x_dims() const;
  Dims dy_dims() const;
  Dims w_dims() const;  // CANN's weight shape
  // Multiply-accumulates of one gradient (gradInput or gradWeight each cost this many).
  double macs() const;
  // The share of macs() whose tap lies inside the other tensor, not on its padding: what a direct convolution that
  // bounds its tap loops computes (the GEMM algorithms compute them all).
  double real_share() const;
  // benchdnn-like problem string, the one aclnn_cpu_demo accepts (so a row can be re-run and checked there).
  std::string descriptor() const;
};

int64_t element_count(const Dims &dims);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_LAYER_HPP_
