// oneDNN's side of the benchmark, for a caller that holds plain NCHW/NCDHW tensors (CANN's layouts): the
// backward-data and backward-weights primitives (the latter also reduces gradBias) are created with
// format_tag::any, so oneDNN picks its preferred blocked layouts, and the timed run includes the reorders from
// the plain inputs into those layouts and of the gradients back. Transposed layers use oneDNN's deconvolution
// primitives. Algorithm: direct (as PyTorch's mkldnn path uses).
#ifndef ACLNN_CPU_BENCH_ONEDNN_HPP_
#define ACLNN_CPU_BENCH_ONEDNN_HPP_

#include <memory>
#include <string>

#include "data.hpp"
#include "layer.hpp"
#include "precision.hpp"

namespace aclnn_cpu {
namespace bench {

class OnednnConv {
 public:
  OnednnConv();
  ~OnednnConv();
  // Creates the primitives in the precision's dtype (HF32 has none in oneDNN: use kF32). Returns false with
  // oneDNN's reason when it has no implementation (e.g. BF16/FP16 without the ISA for them).
  bool setup(const Layer &layer, Precision p, const HostInputs &inputs, std::string *why);
  void run();  // reorders in, both primitives, reorders out, wait
  Gradients read() const;
  // Data type of the computation, with "/w:f32" when gradWeight and gradBias had to stay FP32.
  std::string dtypes() const;
  // The implementations oneDNN chose, e.g. "jit:avx2 / jit:avx2".
  std::string implementation() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// oneDNN's version and the ISA its kernels use.
std::string onednn_version();
std::string onednn_isa();
// Caps oneDNN's ISA ("avx2", "avx512_core", ...); must precede the first primitive. False for an unknown name.
bool cap_onednn_isa(const std::string &name);
// OpenMP threads of oneDNN (Debian's libdnnl uses the OpenMP runtime); set before setup and run.
void set_onednn_threads(int threads);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_ONEDNN_HPP_
