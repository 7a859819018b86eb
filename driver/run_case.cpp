#include "run_case.hpp"

#include <chrono>
#include <cstdio>
#include <string>

#include "aclnn_cpu/ext.h"
#include "api_run.hpp"
#include "conv_bwd/descriptor.hpp"
#include "core/config.hpp"
#include "host_data.hpp"
#include "output_check.hpp"
#include "precision.hpp"
#include "simulate.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

using conv_bwd::ConvDesc;

// The problem string with the command line's overrides; a string naming no SoC runs on the current product.
bool resolve(const DemoCase &demo, const Options &o, ConvDesc *desc, std::string *error) {
  if (!conv_bwd::parse_desc(demo.problem, desc, error)) return false;
  if (demo.problem.find("Ascend") == std::string::npos && !parse_product(o.startup_soc, &desc->product)) {
    *error = "unknown current product " + o.startup_soc;
    return false;
  }
  ConvDesc scratch;
  if (!o.dtype.empty()) {
    if (!conv_bwd::parse_desc("dt" + o.dtype, &scratch, error)) return false;
    for (int t = 0; t < kTensors; ++t) {
      desc->dtype[t] = scratch.dtype[t];
      desc->present[t] = scratch.present[t];
    }
  }
  if (!o.mask.empty()) {
    if (!conv_bwd::parse_desc("mask" + o.mask, &scratch, error)) return false;
    for (int i = 0; i < 3; ++i) desc->mask[i] = scratch.mask[i];
  }
  if (o.cube_math_type_given) desc->cube_math_type = o.cube_math_type;
  if (!o.soc.empty() && !parse_product(o.soc, &desc->product)) {
    *error = "unknown --soc \"" + o.soc + "\"; expected Ascend910B, Ascend910_93, Ascend950, Ascend910 or Ascend310P";
    return false;
  }
  return true;
}

std::string shape_text(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string repro_line(const ConvDesc &desc, const DemoCase &demo, const Options &o) {
  std::string line = "aclnn_cpu_demo --seed=" + std::to_string(o.seed) +
                     " --data=" + data_name(demo.all_ones ? DataKind::kOnes : o.data);
  if (o.threads >= 0) line += " --threads=" + std::to_string(o.threads);
  if (!o.hf32_rounding.empty()) line += " --hf32-rounding=" + o.hf32_rounding;
  if (!o.fp8_overflow.empty()) line += " --fp8-overflow=" + o.fp8_overflow;
  return line + " " + conv_bwd::format_desc(desc);
}

// How gradOutput, input and weight enter the products (docs/contract.md §3.5), for the report.
std::string operands_text(const ConvDesc &desc) {
  const conformance::OperandFormat f = operand_format(desc);
  if (f == conformance::OperandFormat::kHf32) {
    const bool rne = settings().hf32_rounding == Hf32Rounding::kNearestEven;
    return "rounded to HF32 (" + std::to_string(hf32_mantissa_bits(desc.product)) + "-bit mantissa, " +
           (rne ? "ties to even" : "ties away from zero") + ")";
  }
  if (f == conformance::OperandFormat::kExact) return "used as stored (FP32 arithmetic)";
  return std::string("rounded to ") + operand_format_name(f);
}

void print_check(const ConvDesc &desc, const HostData &host, const OutputCheck &c) {
  const int t = conv_bwd::kDescGradInput + c.out;
  std::printf("  %-10s %-18s %-5s ", output_name(c.out), shape_text(host.shape[t]).c_str(),
              desc.present[t] ? conv_bwd::dtype_token(desc.dtype[t]) : "-");
  if (!c.present || !c.requested) {
    const char *what = !c.present ? (c.requested ? "requested but not passed" : "not passed") : c.note.c_str();
    std::printf("%-44s %s\n", what, c.pass ? "ok" : "FAIL");
    return;
  }
  std::printf("%9.2e  %9.2e  %9.2e  %-10lld %s%s%s\n", c.max_abs, c.rel_l2, c.tol, static_cast<long long>(c.terms),
              c.pass ? "PASS" : "FAIL", c.note.empty() ? "" : "  ", c.note.c_str());
}

// The sample problem's known answer, checked on the outputs themselves.
bool check_expected(const DemoCase &demo, const std::vector<OutputCheck> &checks) {
  bool ok = true;
  for (const OutputCheck &c : checks) {
    if (!c.requested || !c.present) continue;
    const double want = demo.expected[c.out];
    const bool match = c.uniform && c.uniform_value == want;
    if (match) {
      std::printf("  check: all %lld %s elements are %g (expected %g): OK\n", static_cast<long long>(c.count),
                  output_name(c.out), c.uniform_value, want);
    } else {
      std::printf("  check: %s elements are not all %g: MISMATCH\n", output_name(c.out), want);
    }
    ok = ok && match;
  }
  return ok;
}

// The dispatch lines of --verbose, indented under the case (empty without --verbose).
void print_dispatch(const std::string &dispatch) {
  size_t begin = 0;
  while (begin < dispatch.size()) {
    size_t end = dispatch.find('\n', begin);
    if (end == std::string::npos) end = dispatch.size();
    std::printf("  %.*s\n", static_cast<int>(end - begin), dispatch.data() + begin);
    begin = end + 1;
  }
}

// reference_s < 0: no reference ran (--time-only).
void print_timing(const ConvDesc &desc, const ApiRun &run, double reference_s) {
  const double ms = run.reps > 0 ? run.ms_per_call : run.first_ms;
  const double gflops = ms > 0 ? flops(desc) / (ms * 1e6) : 0;
  std::printf("  time: %.3f ms/call", ms);
  if (run.reps > 0) {
    std::printf(" (mean of %d reps, min %.3f ms; first call %.3f ms)", run.reps, run.min_ms, run.first_ms);
  }
  std::printf(", %.2f GFLOP/s, workspace %llu bytes", gflops, static_cast<unsigned long long>(run.workspace_bytes));
  if (reference_s >= 0) std::printf("; reference %.2f s", reference_s);
  std::printf("\n");
  if (run.reps > 0) {
    std::printf("  repeated calls: %s\n", run.bitwise_repeatable ? "bitwise identical to the first"
                                                                 : "DIFFER from the first call (not deterministic)");
  }
}

bool apply_product(const ConvDesc &desc) {
  if (aclnnCpuSetSoc(product_name(desc.product)) == ACL_SUCCESS) return true;
  std::printf("  aclnnCpuSetSoc(%s) failed\n", product_name(desc.product));
  return false;
}

}  // namespace

bool run_case(const DemoCase &demo, int index, int total, const Options &o, aclrtStream stream) {
  std::printf("[%d/%d] %s\n", index, total, demo.label.c_str());
  ConvDesc desc;
  std::string error;
  if (!resolve(demo, o, &desc, &error)) {
    std::printf("  cannot read problem \"%s\": %s\n  => FAIL\n\n", demo.problem.c_str(), error.c_str());
    return false;
  }
  std::printf("  repro: %s\n", repro_line(desc, demo, o).c_str());
  std::printf("  operands: %s; %lld threads\n", operands_text(desc).c_str(),
              static_cast<long long>(effective_num_threads()));
  if (!apply_product(desc)) return false;

  const HostData host = make_host_data(desc, demo.all_ones ? DataKind::kOnes : o.data, o.seed);
  if (!o.simulate_threads.empty() || o.check_cost_model) {
    const bool ok = simulate_case(desc, host, o, stream);
    std::printf("  => %s\n\n", ok ? "PASS" : "FAIL");
    return ok;
  }
  const ApiRun run = run_through_api(desc, host, stream, o.reps, o.verbose);
  print_dispatch(run.dispatch);
  if (!run.ok) {
    std::printf("  %s returned %d\n  %s\n  => FAIL\n\n", run.failed_call.c_str(), run.status, run.message.c_str());
    return false;
  }
  if (o.time_only) {
    print_timing(desc, run, -1.0);
    std::printf("  => %s\n\n", run.bitwise_repeatable ? "TIMED (outputs not checked: --time-only)" : "FAIL");
    return run.bitwise_repeatable;
  }
  const Settings s = settings();
  const ReferenceSettings ref{s.hf32_rounding, s.fp8_overflow};
  const auto start = std::chrono::steady_clock::now();
  const std::vector<OutputCheck> checks = check_outputs(desc, host, run, ref);
  const double reference_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("  %-10s %-18s %-5s %9s  %9s  %9s  %-10s %s\n", "output", "shape", "dtype", "max_abs", "rel_l2", "tol",
              "terms", "result");
  bool pass = true;
  for (const OutputCheck &c : checks) {
    print_check(desc, host, c);
    pass = pass && c.pass;
  }
  if (demo.has_expected) pass = check_expected(demo, checks) && pass;
  print_timing(desc, run, reference_s);
  pass = pass && run.bitwise_repeatable;
  std::printf("  => %s\n\n", pass ? "PASS" : "FAIL");
  return pass;
}

}  // namespace demo
}  // namespace aclnn_cpu
