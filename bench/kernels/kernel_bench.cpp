// aclnn_cpu_kernel_bench: the NN GEMM microkernels alone, fp32 and BF16 pairs, on one thread, each the kernel the
// library would run on this CPU at its ISA level. It is the yardstick for "% of the kernel's rate" when a profile of a
// whole call (aclnn_cpu_demo under perf) says how much of the call the kernel took.
//   L1: one A panel and one B panel, both resident (the kernel's own limit);
//   A streamed: B resident and A cycling through panels worth several MiB, as gradInput's shared weight streams;
// each at K steps 64, 256 (one K block, kGemmKc) and 1152. Values are 1.0 (no subnormals: timing only).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../peak.hpp"
#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

using conv_bwd::GemmBf16Ukernel;
using conv_bwd::GemmUkernel;

constexpr int64_t kSteps[] = {64, 256, 1152};
constexpr int64_t kStreamBytes = 8 << 20;  // A panels cycled through in the streamed case
constexpr double kSeconds = 0.25;          // per figure

// Calls run(a_panel) over `panels` A panels in turn until kSeconds pass; returns GFLOP/s for mr·nr·kc MACs a call.
template <typename Run>
double rate(int mr, int nr, int64_t kc, int64_t panels, Run run) {
  int64_t calls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double s = 0;
  do {
    for (int64_t p = 0; p < panels; ++p) run(p);
    calls += panels;
    s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (s < kSeconds);
  return 2.0 * mr * nr * static_cast<double>(kc) * static_cast<double>(calls) / s / 1e9;
}

void print_row(const char *name, int64_t kc, double l1, double streamed, double peak) {
  std::printf("%-32s %6lld %9.1f %6.1f%% %9.1f %6.1f%%\n", name, static_cast<long long>(kc), l1, 100 * l1 / peak,
              streamed, 100 * streamed / peak);
}

void bench_fp32(const GemmUkernel &k, double peak) {
  for (int64_t kc : kSteps) {
    const int64_t a_floats = kc * k.mr, panels = std::max<int64_t>(1, kStreamBytes / (a_floats * 4));
    std::vector<float> a(static_cast<size_t>(a_floats * panels), 1.0f), b(static_cast<size_t>(kc * k.nr), 1.0f);
    std::vector<float> c(static_cast<size_t>(k.mr * k.nr));
    auto call = [&](int64_t p) {
      k.run(kc, a.data() + p * a_floats, b.data(), k.nr, c.data(), k.nr, k.mr, k.nr, false);
    };
    const double l1 = rate(k.mr, k.nr, kc, 1, call), streamed = rate(k.mr, k.nr, kc, panels, call);
    print_row(k.name, kc, l1, streamed, peak);
  }
}

void bench_bf16(const GemmBf16Ukernel &k, double peak) {
  for (int64_t kc : kSteps) {
    const int64_t kp = conv_bwd::pair_steps(kc), a_words = kp * k.mr;
    const int64_t panels = std::max<int64_t>(1, kStreamBytes / (a_words * 4));
    std::vector<uint32_t> a(static_cast<size_t>(a_words * panels), 0x3f803f80u),
        b(static_cast<size_t>(kp * k.nr), 0x3f803f80u);
    std::vector<float> c(static_cast<size_t>(k.mr * k.nr));
    auto call = [&](int64_t p) { k.run(kp, a.data() + p * a_words, b.data(), c.data(), k.nr, k.mr, k.nr, false); };
    const double l1 = rate(k.mr, k.nr, kc, 1, call), streamed = rate(k.mr, k.nr, kc, panels, call);
    print_row(k.name, kc, l1, streamed, peak);
  }
}

int run() {
  const Isa isa = usable_isa();
  const Peak peak = measure_peak(isa_includes(isa, Isa::kAvx512) ? "avx512" : "avx2");
  std::printf(
      "aclnn_cpu_kernel_bench: NN GEMM microkernels alone, one thread, ISA level %s (ACLNN_CPU_MAX_ISA caps it)\n",
      isa_name(isa));
  std::printf(
      "peak: %.1f GFLOP/s per thread (the FMA loop of aclnn_cpu_bench's --peak for this level); a BF16 pair\n"
      "      kernel's VDPBF16PS does two multiply-adds per lane, so its %%pk can reach 200 %%\n",
      peak.per_core_gflops);
  std::printf("%-32s %6s %9s %7s %9s %7s\n", "kernel", "K", "L1_GF", "L1%pk", "strm_GF", "strm%pk");
  const GemmUkernel &nn = conv_bwd::gemm_ukernel(isa);
  bench_fp32(nn, peak.per_core_gflops);
  if (const GemmBf16Ukernel *pk = conv_bwd::gemm_bf16_ukernel(isa, nn))
    bench_bf16(*pk, peak.per_core_gflops);
  else
    std::printf("(no BF16 pair kernel at this level: needs avx512_bf16)\n");
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace aclnn_cpu

int main() { return aclnn_cpu::bench::run(); }
