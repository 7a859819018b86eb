// aclnn_cpu_bench: our aclnnConvolutionBackward beside oneDNN on a model-layer suite (see README.md).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "call_overhead.hpp"
#include "onednn.hpp"
#include "options.hpp"
#include "peak.hpp"
#include "report.hpp"
#include "run_case.hpp"
#include "suite.hpp"

namespace {

using namespace aclnn_cpu::bench;

std::vector<Layer> selected_layers(const Options &o) {
  std::vector<Layer> all;
  for (const std::string &suite : o.suites) {
    const std::vector<Layer> part = suite == "hard" ? hard_suite(o.mb) : model_suite(o.mb);
    all.insert(all.end(), part.begin(), part.end());
  }
  std::vector<Layer> layers;
  for (const Layer &l : all) {
    bool keep = o.cases.empty();
    for (const std::string &pattern : o.cases) keep = keep || l.name.find(pattern) != std::string::npos;
    if (keep) layers.push_back(l);
  }
  return layers;
}

// Precision modes outermost, so each block of rows is one mode over the suite.
int run_all(const Options &o, const std::vector<Layer> &layers, const Peak &peak, aclrtStream stream) {
  std::vector<CaseResult> results;
  bool failed = false;
  print_table_head();
  for (Precision p : o.precisions) {
    for (const Layer &l : layers) {
      for (int t : o.threads) {
        results.push_back(run_case(l, p, t, o, stream));
        print_row(results.back(), peak);
        failed = failed || !results.back().error.empty() || results.back().mismatch;
      }
    }
  }
  print_summary(results, peak);
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  std::string error;
  if (!parse_options(argc, argv, &o, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  if (o.help) {
    print_usage(argv[0]);
    return 0;
  }
  const std::vector<Layer> layers = selected_layers(o);
  if (o.list) {
    for (const Layer &l : layers) std::printf("%-22s %s\n", l.name.c_str(), l.descriptor().c_str());
    return 0;
  }
  if (layers.empty()) {
    std::fprintf(stderr, "--cases matches no layer (--list shows them)\n");
    return 2;
  }
  if (!o.onednn_isa.empty() && !cap_onednn_isa(o.onednn_isa)) {
    std::fprintf(stderr, "--onednn-isa=%s: unknown ISA, or oneDNN was already initialised\n", o.onednn_isa.c_str());
    return 2;
  }

  aclrtStream stream = nullptr;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS) {
    std::fprintf(stderr, "runtime set-up failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  const Peak peak = measure_peak(o.peak);
  print_header(o, peak, layers);
  int status = run_all(o, layers, peak, stream);
  if (o.calls > 0 && !report_call_overhead(layers, o, stream)) status = 1;
  std::printf("\ntotal %.0f s; exit status %d (1: a call failed or a check differed)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), status);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return status;
}
