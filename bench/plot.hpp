// The benchmark's picture (--plot=FILE.svg): per precision mode and thread count a panel of bars, per layer and
// mini-batch our % of peak beside oneDNN's, the time ratio above each pair. Plain SVG, no dependency.
#ifndef ACLNN_CPU_BENCH_PLOT_HPP_
#define ACLNN_CPU_BENCH_PLOT_HPP_

#include <string>
#include <vector>

#include "peak.hpp"
#include "run_case.hpp"

namespace aclnn_cpu {
namespace bench {

// False when the file cannot be written.
bool write_plot(const std::string &path, const std::vector<CaseResult> &results, const Peak &peak);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_PLOT_HPP_
