#include "peak.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace aclnn_cpu {
namespace bench {
namespace {

// Twelve independent accumulator chains keep two FMA pipes busy across a 4-5 cycle latency. The loops are
// compiled for their ISA by function attribute only, so the rest of the program needs no -m flags.
constexpr int kChains = 12;
constexpr long kIterations = 2000000;

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) float fma_loop_256(long iterations) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_ps(0.001f * c);
  const __m256 scale = _mm256_set1_ps(0.999999f), bias = _mm256_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], scale, bias);
  }
  __m256 sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = _mm256_add_ps(sum, acc[c]);
  return _mm256_cvtss_f32(sum);
}

__attribute__((target("avx512f"))) float fma_loop_512(long iterations) {
  __m512 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm512_set1_ps(0.001f * c);
  const __m512 scale = _mm512_set1_ps(0.999999f), bias = _mm512_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) acc[c] = _mm512_fmadd_ps(acc[c], scale, bias);
  }
  __m512 sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = _mm512_add_ps(sum, acc[c]);
  return _mm512_cvtss_f32(sum);
}
#elif defined(__aarch64__)
// ASIMD is aarch64's baseline: no attribute needed.
float fma_loop_128(long iterations) {
  float32x4_t acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = vdupq_n_f32(0.001f * c);
  const float32x4_t scale = vdupq_n_f32(0.999999f), bias = vdupq_n_f32(1e-7f);
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) acc[c] = vfmaq_f32(bias, acc[c], scale);
  }
  float32x4_t sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = vaddq_f32(sum, acc[c]);
  return vgetq_lane_f32(sum, 0);
}
#endif

// Best rate of five trials: another process stealing the core can only make a trial slower.
template <class Loop>
double best_gflops(Loop loop, int lanes) {
  volatile float sink = 0;
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + loop(kIterations);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 2.0 * lanes * kChains * kIterations / seconds * 1e-9);
  }
  return best;
}

double nominal_ghz() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    double mhz = 0;
    if (line.rfind("cpu MHz", 0) == 0 && std::sscanf(line.c_str() + line.find(':') + 1, "%lf", &mhz) == 1) {
      return mhz / 1000.0;
    }
  }
  return 0;
}

}  // namespace

Peak measure_peak(const std::string &width) {
  Peak p;
  p.nominal_ghz = nominal_ghz();
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) p.avx2_gflops = best_gflops(fma_loop_256, 8);
  if (__builtin_cpu_supports("avx512f")) p.avx512_gflops = best_gflops(fma_loop_512, 16);
  p.per_core_gflops = p.avx2_gflops > 0 ? p.avx2_gflops : 2 * 8 * 2 * p.nominal_ghz;
  if (width == "avx512" && p.avx512_gflops > 0) p.per_core_gflops = p.avx512_gflops;
#elif defined(__aarch64__)
  (void)width;
  p.neon_gflops = best_gflops(fma_loop_128, 4);
  p.per_core_gflops = p.neon_gflops;
#else
  (void)width;
  p.per_core_gflops = 2 * 8 * 2 * p.nominal_ghz;
#endif
  return p;
}

}  // namespace bench
}  // namespace aclnn_cpu
