#include "call_overhead.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "aclnn_cpu/ext.h"
#include "data.hpp"
#include "ours.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

constexpr int kWarmUpCalls = 100;

double median_us(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2] * 1e6;
}

bool time_calls(const Layer &layer, Precision p, int threads, const Options &o, aclrtStream stream) {
  aclnnCpuSetNumThreads(threads);
  OursConv ours(stream);
  std::string error;
  const HostInputs inputs = make_inputs(layer, p, o.seed);
  bool ok = ours.setup(layer, p, inputs, &error);
  for (int i = 0; ok && i < kWarmUpCalls; ++i) ok = ours.run(&error);
  std::vector<double> phase[4];
  for (int i = 0; ok && i < o.calls; ++i) {
    double t[3];
    ok = ours.run_phases(t, &error);
    for (int k = 0; k < 3; ++k) phase[k].push_back(t[k]);
    phase[3].push_back(t[0] + t[1] + t[2]);
  }
  if (!ok) {
    std::printf("%-22s %-4s %3d  ERROR: %s\n", layer.name.c_str(), info(p).name, threads, error.c_str());
    return false;
  }
  std::printf("%-22s %-4s %3d %9.2f %9.2f %9.2f %9.2f\n", layer.name.c_str(), info(p).name, threads,
              median_us(phase[0]), median_us(phase[1]), median_us(phase[2]), median_us(phase[3]));
  return true;
}

}  // namespace

bool report_call_overhead(const std::vector<Layer> &layers, const Options &o, aclrtStream stream) {
  std::printf(
      "\ncall overhead: %d back-to-back calls per row after %d untimed, no gap, ours only; median microseconds\n"
      "  (launch includes the work when a small call runs on the calling thread)\n",
      o.calls, kWarmUpCalls);
  std::printf("%-22s %-4s %3s %9s %9s %9s %9s\n", "layer", "prec", "thr", "getws_us", "launch_us", "sync_us",
              "call_us");
  bool ok = true;
  for (Precision p : o.precisions) {
    for (const Layer &l : layers) {
      for (int t : o.threads) ok = time_calls(l, p, t, o, stream) && ok;
    }
  }
  return ok;
}

}  // namespace bench
}  // namespace aclnn_cpu
