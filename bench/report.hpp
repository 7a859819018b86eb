// The benchmark's printed report: header (what is measured and how), one row per case, summaries.
#ifndef ACLNN_CPU_BENCH_REPORT_HPP_
#define ACLNN_CPU_BENCH_REPORT_HPP_

#include <vector>

#include "options.hpp"
#include "peak.hpp"
#include "run_case.hpp"

namespace aclnn_cpu {
namespace bench {

void print_header(const Options &o, const Peak &peak, const std::vector<Layer> &layers);
void print_table_head();
void print_row(const CaseResult &r, const Peak &peak);
void print_summary(const std::vector<CaseResult> &results, const Peak &peak);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_REPORT_HPP_
