// The machine's FMA peak, the yardstick of the "% of peak" columns.
#ifndef ACLNN_CPU_BENCH_PEAK_HPP_
#define ACLNN_CPU_BENCH_PEAK_HPP_

#include <string>

namespace aclnn_cpu {
namespace bench {

struct Peak {
  double nominal_ghz = 0;    // "cpu MHz" of /proc/cpuinfo (0 when absent)
  double avx2_gflops = 0;    // measured 1-thread rate of independent 256-bit FMAs (0 without AVX2+FMA)
  double avx512_gflops = 0;  // the same with 512-bit FMAs (0 without AVX-512F)
  double neon_gflops = 0;    // aarch64: the same with 128-bit ASIMD FMAs (FMLA .4s)
  // Per-core peak used for "% of peak": 2 FMA units x 8 fp32 lanes x 2 flops x clock, the clock being the
  // measured one (avx2_gflops / 32) or, when measuring is impossible, the nominal one; with width "avx512" the
  // 512-bit loop's rate; on aarch64 the 128-bit loop's (Kunpeng 920: 2 pipes x 4 lanes x 2 flops x clock).
  double per_core_gflops = 0;
};

// Reads the nominal clock and times short FMA loops (best of several trials, about 0.3 s in all).
// `width` "avx512" bases per_core_gflops on the 512-bit loop (when the CPU has AVX-512F).
Peak measure_peak(const std::string &width);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_PEAK_HPP_
