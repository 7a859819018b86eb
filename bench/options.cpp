#include "options.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace aclnn_cpu {
namespace bench {
namespace {

std::vector<std::string> split(const std::string &text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

bool parse_int(const std::string &name, const std::string &text, long lo, long hi, long *out, std::string *error) {
  char *end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi) {
    *error = "--" + name + " needs integers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got \"" +
             text + "\"";
    return false;
  }
  *out = v;
  return true;
}

bool apply(const std::string &name, const std::string &value, Options *o, std::string *error) {
  long v = 0;
  if (name == "cases") {
    o->cases = split(value);
  } else if (name == "threads") {
    o->threads.clear();
    for (const std::string &t : split(value)) {
      if (!parse_int(name, t, 1, 4096, &v, error)) return false;
      o->threads.push_back(static_cast<int>(v));
    }
  } else if (name == "suite") {
    o->suites = split(value);
    for (const std::string &suite : o->suites) {
      if (suite != "dense" && suite != "hard") {
        *error = "--suite takes dense, hard; got \"" + suite + "\"";
        return false;
      }
    }
  } else if (name == "prec") {
    o->precisions.clear();
    for (const std::string &p : split(value)) {
      Precision precision;
      if (!parse_precision(p, &precision)) {
        *error = "--prec takes f32, hf32, bf16, f16; got \"" + p + "\"";
        return false;
      }
      o->precisions.push_back(precision);
    }
  } else if (name == "reps") {
    if (!parse_int(name, value, 1, 1000, &v, error)) return false;
    o->reps = static_cast<int>(v);
  } else if (name == "mb") {
    o->mbs.clear();
    for (const std::string &mb : split(value)) {
      if (!parse_int(name, mb, 1, 4096, &v, error)) return false;
      o->mbs.push_back(v);
    }
  } else if (name == "seed") {
    if (!parse_int(name, value, 0, 0x7fffffff, &v, error)) return false;
    o->seed = static_cast<uint32_t>(v);
  } else if (name == "gap-ms") {
    if (!parse_int(name, value, 0, 10000, &v, error)) return false;
    o->gap_ms = static_cast<int>(v);
  } else if (name == "burst") {
    if (!parse_int(name, value, 1, 1000, &v, error)) return false;
    o->burst = static_cast<int>(v);
  } else if (name == "calls") {
    if (!parse_int(name, value, 1, 10000000, &v, error)) return false;
    o->calls = static_cast<int>(v);
  } else if (name == "peak") {
    if (value != "avx2" && value != "avx512") {
      *error = "--peak takes avx2 or avx512, got \"" + value + "\"";
      return false;
    }
    o->peak = value;
  } else if (name == "plot") {
    if (value.empty()) {
      *error = "--plot needs a file name";
      return false;
    }
    o->plot = value;
  } else if (name == "onednn-isa") {
    o->onednn_isa = value;
  } else {
    *error = "unknown option --" + name + " (--help lists them)";
    return false;
  }
  return true;
}

}  // namespace

bool parse_options(int argc, char **argv, Options *o, std::string *error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o->help = true;
    } else if (arg == "--list") {
      o->list = true;
    } else if (arg == "--quick") {
      o->mbs = {1};
    } else if (arg == "--full") {
      o->mbs = {8};
    } else if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos) {
      const size_t eq = arg.find('=');
      if (!apply(arg.substr(2, eq - 2), arg.substr(eq + 1), o, error)) return false;
    } else {
      *error = "unexpected argument \"" + arg + "\" (options are --name=value; --help lists them)";
      return false;
    }
  }
  return true;
}

void print_usage(const char *program) {
  std::printf(
      "usage: %s [options]\n\n"
      "Runs the model-layer suite through aclnnConvolutionBackward (public CANN API) and through oneDNN in the\n"
      "same process, interleaved, and prints per case the median times, GFLOP/s, %% of FMA peak and the ratio.\n\n"
      "  --suite=dense,hard model layers (dense, the default) and/or the hard shapes (hard: depthwise,\n"
      "                     grouped, stems, patchify, 1-D strided, tiny)\n"
      "  --cases=a,b        only layers whose name contains one of these (see --list)\n"
      "  --prec=f32,hf32,bf16,f16   precision modes (default all four)\n"
      "  --threads=1,2      thread counts (default 1,2)\n"
      "  --reps=N           timed (ours, oneDNN) pairs per case after the checked warm-up pair (default 5)\n"
      "  --mb=1,8,32        mini-batches (default 1,8,32), each reported apart in the summary\n"
      "  --quick            mini-batch 1 only (--mb=1)     --full   mini-batch 8 only (--mb=8)\n"
      "  --seed=N           data seed (default 1)\n"
      "  --onednn-isa=NAME  cap oneDNN's ISA: avx2, avx512_core, avx512_core_bf16, ... (default: its choice)\n"
      "  --peak=avx2|avx512 peak behind the %%-of-peak columns: 256-bit (default) or 512-bit FMAs\n"
      "  --gap-ms=N         idle milliseconds before each timed call (default 50)\n"
      "  --burst=N          each timed sample is N back-to-back calls of one side, as in a training loop, so\n"
      "                     thread pools stay awake (default 1); the gap comes before each burst\n"
      "  --calls=N          after the table, N back-to-back calls of ours per layer with GetWorkspaceSize, launch\n"
      "                     and synchronize timed apart (median µs; for the small layers: --cases=tiny)\n"
      "  --plot=FILE.svg    also draw, per precision mode and thread count, each layer's %% of peak, ours\n"
      "                     beside oneDNN's, at every mini-batch, with the time ratio above each pair\n"
      "  --list             print the suite and exit\n",
      program);
}

}  // namespace bench
}  // namespace aclnn_cpu
