// The benchmark's printed report: header (what is measured and how), one row per case, summaries.
#ifndef ACLNN_CPU_BENCH_REPORT_HPP_
#define ACLNN_CPU_BENCH_REPORT_HPP_

#include <vector>

#include "options.hpp"
#include "peak.hpp"
#include "run_case.hpp"

namespace aclnn_cpu {
namespace bench {

// GFLOP/s of a call of `ms`: gradInput and gradWeight each cost 2 x MACs flops; gradBias' additions not counted.
double gflops(const Layer &l, double ms);
// GFLOP/s as a percentage of `threads` cores' FMA peak (the --peak width).
double percent_of_peak(double gf, int threads, const Peak &peak);

void print_header(const Options &o, const Peak &peak, const std::vector<Layer> &layers);
void print_table_head();
void print_row(const CaseResult &r, const Peak &peak);
void print_summary(const std::vector<CaseResult> &results, const Peak &peak);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_REPORT_HPP_
