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
#include "plot.hpp"
#include "report.hpp"
#include "run_case.hpp"
#include "suite.hpp"

namespace {

using namespace aclnn_cpu::bench;

// Mini-batch by mini-batch, each the selected layers of the suites in order. A layer whose mini-batch is fixed
// (the seed's tiny call) comes in every block, so that each block's summary covers the same layers.
std::vector<Layer> selected_layers(const Options &o, std::vector<int64_t> *sweep_mb) {
  std::vector<Layer> layers;
  for (int64_t mb : o.mbs) {
    for (const std::string &suite : o.suites) {
      for (const Layer &l : suite == "hard" ? hard_suite(mb) : model_suite(mb)) {
        bool keep = o.cases.empty();
        for (const std::string &pattern : o.cases) keep = keep || l.name.find(pattern) != std::string::npos;
        if (!keep) continue;
        layers.push_back(l);
        sweep_mb->push_back(mb);
      }
    }
  }
  return layers;
}

// Precision modes outermost, so each block of rows is one mode over the suite (mini-batch by mini-batch).
int run_all(const Options &o, const std::vector<Layer> &layers, const std::vector<int64_t> &sweep_mb, const Peak &peak,
            aclrtStream stream) {
  std::vector<CaseResult> results;
  bool failed = false;
  print_table_head();
  for (Precision p : o.precisions) {
    for (size_t i = 0; i < layers.size(); ++i) {
      for (int t : o.threads) {
        results.push_back(run_case(layers[i], p, t, o, stream));
        results.back().sweep_mb = sweep_mb[i];
        print_row(results.back(), peak);
        failed = failed || !results.back().error.empty() || results.back().mismatch;
      }
    }
  }
  print_summary(results, peak);
  if (!o.plot.empty() && !write_plot(o.plot, results, peak)) {
    std::fprintf(stderr, "--plot=%s: cannot write the file\n", o.plot.c_str());
    failed = true;
  }
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
  std::vector<int64_t> sweep_mb;
  const std::vector<Layer> layers = selected_layers(o, &sweep_mb);
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
  int status = run_all(o, layers, sweep_mb, peak, stream);
  if (o.calls > 0 && !report_call_overhead(layers, o, stream)) status = 1;
  std::printf("\ntotal %.0f s; exit status %d (1: a call failed or a check differed)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), status);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return status;
}
