#include "options.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace aclnn_cpu {
namespace demo {
namespace {

// Flags that name one field of a problem string ("--ih=7" is the "ih7" of "mb2_ic2oc2_ih7iw7").
const std::set<std::string> kShapeFlags = {"mb", "g",  "ic", "oc", "id",  "ih",  "iw", "od", "oh",
                                           "ow", "kd", "kh", "kw", "sd",  "sh",  "sw", "pd", "ph",
                                           "pw", "dd", "dh", "dw", "opd", "oph", "opw"};

bool parse_long(const std::string &text, long long lo, long long hi, long long *out) {
  if (text.empty()) return false;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool parse_int_option(const std::string &name, const std::string &value, long long lo, long long hi, long long *out,
                      std::string *error) {
  if (parse_long(value, lo, hi, out)) return true;
  *error = "--" + name + " needs an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got \"" +
           value + "\"";
  return false;
}

bool parse_data(const std::string &value, DataKind *out, std::string *error) {
  if (value == "random") {
    *out = DataKind::kRandom;
  } else if (value == "ones") {
    *out = DataKind::kOnes;
  } else if (value == "int") {
    *out = DataKind::kIntegers;
  } else {
    *error = "--data must be random, ones or int, got \"" + value + "\"";
    return false;
  }
  return true;
}

bool one_of(const std::string &name, const std::string &value, std::initializer_list<const char *> allowed,
            std::string *error) {
  std::string list;
  for (const char *a : allowed) {
    if (value == a) return true;
    list += std::string(list.empty() ? "" : ", ") + a;
  }
  *error = "--" + name + " must be one of " + list + ", got \"" + value + "\"";
  return false;
}

// "1,3,5": numbers in [lo, hi]; false for anything else.
bool parse_list(const std::string &value, long long lo, long long hi, std::vector<int> *out) {
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    long long n = 0;
    if (!parse_long(value.substr(start, comma - start), lo, hi, &n)) return false;
    out->push_back(static_cast<int>(n));
    start = comma + 1;
  }
  return true;
}

// One "--name=value" (or "--name") argument.
bool apply_flag(const std::string &name, const std::string &value, bool has_value, Options *o,
                std::string *shape_problem, bool *transposed, std::string *error) {
  long long v = 0;
  if (!has_value && name != "help" && name != "list" && name != "transposed" && name != "verbose" &&
      name != "check-cost-model" && name != "time-only") {
    *error = "--" + name + " needs a value (--" + name + "=...)";
    return false;
  }
  if (kShapeFlags.count(name) != 0) {
    *shape_problem += (shape_problem->empty() ? "" : "_") + name + value;
  } else if (name == "dtype") {
    o->dtype = value;
  } else if (name == "mask") {
    o->mask = value;
  } else if (name == "soc") {
    o->soc = value;
  } else if (name == "cmt") {
    // Any int8_t, so that out-of-range values can be seen rejected.
    if (!parse_int_option(name, value, -128, 127, &v, error)) return false;
    o->cube_math_type = static_cast<int>(v);
    o->cube_math_type_given = true;
  } else if (name == "threads") {
    if (!parse_int_option(name, value, 0, 4096, &v, error)) return false;
    o->threads = static_cast<int>(v);
  } else if (name == "reps") {
    if (!parse_int_option(name, value, 0, 1000000, &v, error)) return false;
    o->reps = static_cast<int>(v);
  } else if (name == "seed") {
    if (!parse_int_option(name, value, 0, INT64_MAX, &v, error)) return false;
    o->seed = static_cast<uint64_t>(v);
  } else if (name == "data") {
    if (!parse_data(value, &o->data, error)) return false;
    o->data_given = true;
  } else if (name == "hf32-rounding") {
    if (!one_of(name, value, {"away", "rne"}, error)) return false;
    o->hf32_rounding = value;
  } else if (name == "fp8-overflow") {
    if (!one_of(name, value, {"saturate", "nan"}, error)) return false;
    o->fp8_overflow = value;
  } else if (name == "only") {
    if (!parse_list(value, 1, 1000, &o->only)) {
      *error = "--only needs case numbers such as 1,3 (see --list), got \"" + value + "\"";
      return false;
    }
  } else if (name == "simulate-threads") {
    if (!parse_list(value, 1, 4096, &o->simulate_threads)) {
      *error = "--simulate-threads needs thread counts in [1, 4096] such as 1,2,16,64, got \"" + value + "\"";
      return false;
    }
  } else if (name == "check-cost-model") {
    o->check_cost_model = true;
  } else if (name == "transposed") {
    *transposed = true;
  } else if (name == "help") {
    o->help = true;
  } else if (name == "list") {
    o->list = true;
  } else if (name == "verbose") {
    o->verbose = true;
  } else if (name == "time-only") {
    o->time_only = true;
  } else {
    *error = "unknown option --" + name + " (see --help)";
    return false;
  }
  return true;
}

}  // namespace

bool parse_options(int argc, char **argv, Options *options, std::string *error) {
  Options o;
  std::string shape_problem;
  bool transposed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h") {
      o.help = true;
      continue;
    }
    if (arg.compare(0, 2, "--") != 0) {
      o.problems.push_back(arg);
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (!apply_flag(name, value, eq != std::string::npos, &o, &shape_problem, &transposed, error)) return false;
  }
  if (transposed && shape_problem.empty()) {
    *error = "--transposed goes with shape flags (--mb=.. --ic=.. ...); in a problem string write tr1";
    return false;
  }
  if (!shape_problem.empty()) o.problems.push_back(shape_problem + (transposed ? "_tr1" : ""));
  *options = o;
  return true;
}

const char *data_name(DataKind data) {
  switch (data) {
    case DataKind::kOnes:
      return "ones";
    case DataKind::kIntegers:
      return "int";
    case DataKind::kRandom:
      break;
  }
  return "random";
}

void print_usage(const char *program) {
  std::printf(
      "usage: %s [options] [problem ...]\n"
      "\n"
      "Runs aclnnConvolutionBackward problems through the public CANN API on seeded data, checks every\n"
      "requested output against an independent fp64 reference (which rounds operands as the precision mode\n"
      "does), and prints errors, time per call and GFLOP/s. Without problems it runs a small default set.\n"
      "Exit status: 0 when every case passed, 1 when one failed, 2 on a usage error.\n"
      "\n"
      "problem: a problem string, e.g. mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1\n"
      "  mb N, g groups, ic input channels, oc gradOutput channels, i{d,h,w} input size, o{d,h,w} gradOutput\n"
      "  size (computed when omitted), k kernel, s stride, p padding (ph1:2 = top 1, bottom 2), d dilation,\n"
      "  tr1 transposed with op{d,h,w} outputPadding, dt dtypes (dtf16, or gradOutput:input:weight:gradInput:\n"
      "  gradWeight:gradBias such as dtf16:f16:f16:f32:f32:f32, '-' = output not passed; f32 f16 bf16 hif8\n"
      "  e4m3), mask outputMask, cmt cubeMathType, and a SoC name. 1-D names only w, 2-D h,w, 3-D d,h,w.\n"
      "  Defaults: mb1 g1 k1 s1 p0 d1, f32, mask111, cmt0, the current product (ACLNN_CPU_SOC).\n"
      "\n"
      "shape flags (build one more problem): --mb= --g= --ic= --oc= --id= --ih= --iw= --od= --oh= --ow=\n"
      "  --kd= --kh= --kw= --sd= --sh= --sw= --pd= --ph= --pw= --dd= --dh= --dw= --opd= --oph= --opw=\n"
      "  --transposed\n"
      "\n"
      "overrides for every problem (the default set too):\n"
      "  --dtype=f32|f16|bf16|hif8|e4m3 or six ':'-separated dtypes   --mask=111   --cmt=0..3\n"
      "  --soc=Ascend910B|Ascend910_93|Ascend950|Ascend910|Ascend310P\n"
      "\n"
      "run settings:\n"
      "  --threads=N        threads per call (0: all CPUs this process may use; default: ACLNN_CPU_NUM_THREADS)\n"
      "  --reps=N           timed repetitions after the checked call (default 3; 0: time the checked call);\n"
      "                     a call is GetWorkspaceSize + aclnnConvolutionBackward + aclrtSynchronizeStream\n"
      "  --seed=N           data seed (default 1)\n"
      "  --data=random|ones|int   uniform [-1,1), all ones, or integers in [-2,2] (default random)\n"
      "  --hf32-rounding=away|rne   --fp8-overflow=saturate|nan   (set ACLNN_CPU_* before aclInit)\n"
      "  --verbose          print how each problem was planned: per output, every algorithm tried with its\n"
      "                     refusal, then the chosen one with its kernel and ISA (as ACLNN_CPU_VERBOSE=2)\n"
      "  --time-only        skip the fp64 reference (slow for big problems): time the calls and check only\n"
      "                     their status and that repeated calls are bitwise identical (for A/B timing)\n"
      "  --list             print the default set (numbered) and exit\n"
      "\n"
      "many cores (docs/performance.md, \"Many cores\"):\n"
      "  --simulate-threads=1,2,16,64   plan each problem for each thread count, compute nothing, and print\n"
      "                     'threads T: predicted efficiency E' (E: the plan's estimated work over threads x\n"
      "                     the sum over its jobs of the busiest thread's estimated work)\n"
      "  --check-cost-model also run each of those plans once, item by item on one thread, and compare the\n"
      "                     cost model with the items' measured times (default thread counts 1,2,16,64)\n"
      "  --only=1,3         run only these cases of the default set\n",
      program);
}

}  // namespace demo
}  // namespace aclnn_cpu
