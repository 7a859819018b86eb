// Command line of aclnn_cpu_bench.
#ifndef ACLNN_CPU_BENCH_OPTIONS_HPP_
#define ACLNN_CPU_BENCH_OPTIONS_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "precision.hpp"

namespace aclnn_cpu {
namespace bench {

struct Options {
  std::vector<std::string> cases;            // substrings of layer names; empty: all
  std::vector<std::string> suites{"dense"};  // dense (model_suite), hard (hard_suite)
  std::vector<int> threads{1, 2};
  std::vector<Precision> precisions{Precision::kF32, Precision::kHF32, Precision::kBF16, Precision::kF16};
  int reps = 5;    // timed (ours, oneDNN) pairs per case, after the untimed checked pair
  // Mini-batches, each a block of rows and of the summary: 1, 8 and 32 by default; --quick 1, --full 8.
  std::vector<int64_t> mbs{1, 8, 32};
  uint32_t seed = 1;
  std::string onednn_isa;     // cap of oneDNN's ISA; empty: its own choice
  std::string peak = "avx2";  // the FMA width the "% of peak" columns assume: avx2 or avx512
  // Idle time before each timed burst, so OpenMP's spinning workers have gone to sleep. 10 ms was not enough on a
  // 2-vCPU Zen 5 host: our bursts after oneDNN's took 0.94-1.9 ms (ResNet 1x1 64->256, BF16, varying from run to
  // run) against a steady 0.89 after 50 ms, and 2.3 ms with no gap.
  int gap_ms = 50;
  int burst = 1;              // calls per timed sample, back to back (a training loop); ms = sample / burst
  std::string plot;           // non-empty: also draw the results into this SVG file
  int calls = 0;              // > 0: also time this many back-to-back calls of ours per layer, phase by phase
  bool list = false;
  bool help = false;
};

// Parses argv; false with a message on a usage error.
bool parse_options(int argc, char **argv, Options *o, std::string *error);
void print_usage(const char *program);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_OPTIONS_HPP_
