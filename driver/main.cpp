// aclnn_cpu_demo: runs aclnnConvolutionBackward problems through the public CANN API on seeded data and checks
// every requested output against an independent fp64 reference. See --help, and docs/ for the precision modes
// and products it exercises.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_cpu/ext.h"
#include "default_set.hpp"
#include "harness/conv_call.hpp"
#include "options.hpp"
#include "run_case.hpp"

namespace {

using aclnn_cpu::demo::DemoCase;
using aclnn_cpu::demo::Options;

// Runtime set-up and tear-down with the calls every CANN application makes.
class Runtime {
 public:
  bool start(const Options &o) {
    // The rounding switches are read from the environment at aclInit.
    if (!o.hf32_rounding.empty()) setenv("ACLNN_CPU_HF32_ROUNDING", o.hf32_rounding.c_str(), 1);
    if (!o.fp8_overflow.empty()) setenv("ACLNN_CPU_FP8_OVERFLOW", o.fp8_overflow.c_str(), 1);
    if (!check("aclInit", aclInit(nullptr))) return false;
    initialised_ = true;
    if (!check("aclrtSetDevice", aclrtSetDevice(0))) return false;
    device_set_ = true;
    if (!check("aclrtCreateStream", aclrtCreateStream(&stream_))) return false;
    stream_created_ = true;
    return o.threads < 0 || check("aclnnCpuSetNumThreads", aclnnCpuSetNumThreads(o.threads));
  }
  ~Runtime() {
    if (stream_created_) aclrtDestroyStream(stream_);
    if (device_set_) aclrtResetDevice(0);
    if (initialised_) aclFinalize();
  }
  aclrtStream stream() const { return stream_; }

 private:
  static bool check(const char *call, aclError ret) {
    if (ret == ACL_SUCCESS) return true;
    std::fprintf(stderr, "%s failed (%d): %s\n", call, ret, aclnn_cpu::harness::recent_error().c_str());
    return false;
  }
  aclrtStream stream_ = nullptr;
  bool initialised_ = false, device_set_ = false, stream_created_ = false;
};

bool cases_to_run(const Options &o, std::vector<DemoCase> *cases, std::string *error) {
  if (o.problems.empty()) {
    const std::vector<DemoCase> all = aclnn_cpu::demo::default_set();
    if (o.only.empty()) {
      *cases = all;
      return true;
    }
    for (int n : o.only) {
      if (n > static_cast<int>(all.size())) {
        *error = "--only: the default set has " + std::to_string(all.size()) + " cases, there is no case " +
                 std::to_string(n);
        return false;
      }
      cases->push_back(all[n - 1]);
    }
    return true;
  }
  if (!o.only.empty()) {
    *error = "--only selects from the default set; it cannot be combined with problem strings";
    return false;
  }
  for (const std::string &p : o.problems) {
    DemoCase c;
    c.label = p;
    c.problem = p;
    cases->push_back(c);
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  std::string error;
  if (!aclnn_cpu::demo::parse_options(argc, argv, &options, &error)) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.c_str());
    return 2;
  }
  if (options.help) {
    aclnn_cpu::demo::print_usage(argv[0]);
    return 0;
  }
  std::vector<DemoCase> cases;
  if (!cases_to_run(options, &cases, &error)) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.c_str());
    return 2;
  }
  if (options.list) {
    for (size_t i = 0; i < cases.size(); ++i) {
      std::printf("%zu. %s\n   %s\n", i + 1, cases[i].label.c_str(), cases[i].problem.c_str());
    }
    return 0;
  }
  Runtime runtime;
  if (!runtime.start(options)) return 1;
  options.startup_soc = aclnnCpuGetSoc();
  std::printf("aclnn-cpu %s convolution backward demo: %zu case%s, seed %llu\n\n", aclnnCpuGetVersion(), cases.size(),
              cases.size() == 1 ? "" : "s", static_cast<unsigned long long>(options.seed));
  int failed = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const bool pass = aclnn_cpu::demo::run_case(cases[i], static_cast<int>(i + 1), static_cast<int>(cases.size()),
                                                options, runtime.stream());
    failed += pass ? 0 : 1;
    std::fflush(stdout);
  }
  const int n = static_cast<int>(cases.size());
  if (failed == 0 && options.time_only) {
    std::printf("ALL RAN (%d/%d; outputs not checked: --time-only)\n", n, n);
  } else if (failed == 0) {
    std::printf("ALL PASSED (%d/%d)\n", n, n);
  } else {
    std::printf("FAILED (%d of %d)\n", failed, n);
  }
  return failed == 0 ? 0 : 1;
}
