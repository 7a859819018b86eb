// Command line of aclnn_cpu_demo: problem strings (benchdnn-like, src/conv_bwd/descriptor.hpp), explicit shape
// flags that build one more problem string, settings that override every problem, and run settings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace aclnn_cpu {
namespace demo {

enum class DataKind { kRandom, kOnes, kIntegers };

struct Options {
  std::vector<std::string> problems;  // positional strings, then the one built from shape flags
  // Overrides applied to every problem (the default set included); empty / -1 = keep the problem's own.
  std::string dtype, mask, soc;
  bool cube_math_type_given = false;
  int cube_math_type = 0;
  int threads = -1;  // -1: library setting (ACLNN_CPU_NUM_THREADS or all CPUs)
  int reps = 3;
  uint64_t seed = 1;
  bool data_given = false;
  DataKind data = DataKind::kRandom;
  std::string hf32_rounding, fp8_overflow;  // set in the environment before aclInit
  std::vector<int> only;                    // 1-based numbers of default-set cases to run (empty: all)
  bool help = false;
  bool list = false;
  bool verbose = false;    // print the plan's dispatch (aclnnCpuDescribeExecutor) of each problem
  bool time_only = false;  // skip the fp64 reference: time the calls, check only status and repeatability
  // Plan each problem for these thread counts and print the efficiency each plan predicts, computing nothing
  // (simulate.hpp); with check_cost_model, also run each plan once item by item and compare.
  std::vector<int> simulate_threads;
  bool check_cost_model = false;
  // Not a flag: the product at start-up (ACLNN_CPU_SOC), for problem strings that name none.
  std::string startup_soc;
};

// Parses argv. On a usage error returns false and sets *error.
bool parse_options(int argc, char **argv, Options *options, std::string *error);

const char *data_name(DataKind data);

void print_usage(const char *program);

}  // namespace demo
}  // namespace aclnn_cpu
