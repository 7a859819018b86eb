#include "core/config.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace aclnn_cpu {
namespace {

struct SettingsStore {
  std::mutex mutex;
  Settings value;
  bool loaded = false;
  // value.num_threads for readers that take no lock (every parallel loop asks: five Settings copies per call of the
  // seed problem); kUnloaded until the first load.
  std::atomic<int> num_threads{kUnloaded};
  static constexpr int kUnloaded = -1;

  void publish_locked() { num_threads.store(value.num_threads, std::memory_order_release); }
};

// The calling thread's overrides (set_thread_product, set_thread_num_threads).
struct ThreadOverride {
  bool has_product = false;
  Product product = Product::kAscend910B;
  int num_threads = kNoThreadOverride;
};
thread_local ThreadOverride t_override;

// Never destroyed: stream threads read settings and may still run while static destructors run at exit.
SettingsStore &store() {
  static SettingsStore *s = new SettingsStore;
  return *s;
}

const char *env(const char *name) {
  const char *v = std::getenv(name);
  return (v != nullptr && v[0] != '\0') ? v : nullptr;
}

// The names ACLNN_CPU_ALGO=-name may skip: conv_bwd::algorithm_name() of every algorithm but the reference, and
// the fused depthwise pass (tests/unit/plan_test.cpp checks that the lists agree).
constexpr const char *kSkippableAlgorithms =
    "direct_data, depthwise_weight, gemm_backward_data, gemm_flipped_forward, gemm_forward, gemm_weight_shifted, "
    "gemm_weight, depthwise_both";

bool is_skippable_algorithm(const std::string &name) {
  for (const char *known : {"direct_data", "depthwise_weight", "gemm_backward_data", "gemm_flipped_forward",
                            "gemm_forward", "gemm_weight_shifted", "gemm_weight", "depthwise_both"}) {
    if (name == known) return true;
  }
  return false;
}

bool parse_settings(Settings *out, std::string *error) {
  Settings s;
  if (const char *soc = env("ACLNN_CPU_SOC")) {
    if (!parse_product(soc, &s.product)) {
      *error = std::string("ACLNN_CPU_SOC = \"") + soc +
               "\" is not an emulated product; expected one of Ascend910B, Ascend910_93, Ascend950, Ascend910, "
               "Ascend310P";
      return false;
    }
  }
  if (const char *strict = env("ACLNN_CPU_STRICT")) {
    std::string v = strict;
    if (v != "0" && v != "1") {
      *error = "ACLNN_CPU_STRICT = \"" + v + "\" is invalid; expected 0 or 1";
      return false;
    }
    s.strict = v == "1";
  }
  if (const char *threads = env("ACLNN_CPU_NUM_THREADS")) {
    char *end = nullptr;
    long n = std::strtol(threads, &end, 10);
    if (*end != '\0' || n < 0 || n > 4096) {
      *error = std::string("ACLNN_CPU_NUM_THREADS = \"") + threads +
               "\" is invalid; expected an integer in [0, 4096] (0: all CPUs this process may use)";
      return false;
    }
    s.num_threads = static_cast<int>(n);
  }
  if (const char *r = env("ACLNN_CPU_HF32_ROUNDING")) {
    std::string v = r;
    if (v == "rne") {
      s.hf32_rounding = Hf32Rounding::kNearestEven;
    } else if (v == "away") {
      s.hf32_rounding = Hf32Rounding::kTiesAway;
    } else {
      *error = "ACLNN_CPU_HF32_ROUNDING = \"" + v + "\" is invalid; expected \"away\" (default) or \"rne\"";
      return false;
    }
  }
  if (const char *o = env("ACLNN_CPU_FP8_OVERFLOW")) {
    std::string v = o;
    if (v == "nan") {
      s.fp8_overflow = Fp8Overflow::kNan;
    } else if (v == "saturate") {
      s.fp8_overflow = Fp8Overflow::kSaturate;
    } else {
      *error = "ACLNN_CPU_FP8_OVERFLOW = \"" + v + "\" is invalid; expected \"saturate\" (default) or \"nan\"";
      return false;
    }
  }
  if (const char *v = env("ACLNN_CPU_MAX_ISA")) {
    if (!parse_isa(v, &s.max_isa)) {
      *error = std::string("ACLNN_CPU_MAX_ISA = \"") + v + "\" is invalid; expected scalar, avx2 or avx512";
      return false;
    }
  }
  if (const char *v = env("ACLNN_CPU_ALGO")) {
    const std::string a = v;
    if (a == "auto" || a == "reference") {
      s.reference_only = a == "reference";
    } else if (a[0] == '-') {
      // "-gemm_weight,-gemm_flipped_forward": skip these algorithms.
      std::string list = ",";
      size_t at = 0;
      while (at <= a.size()) {
        const size_t end = std::min(a.find(',', at), a.size());
        const std::string name = end > at + 1 && a[at] == '-' ? a.substr(at + 1, end - at - 1) : "";
        if (!is_skippable_algorithm(name)) {
          *error = "ACLNN_CPU_ALGO = \"" + a + "\" is invalid: \"" + a.substr(at, end - at) +
                   "\" is not -name with name one of " + kSkippableAlgorithms;
          return false;
        }
        list += name + ",";
        at = end + 1;
      }
      s.disabled_algorithms = list;
    } else {
      *error = "ACLNN_CPU_ALGO = \"" + a + "\" is invalid; expected auto (default), reference or -name[,-name...]";
      return false;
    }
  }
  if (const char *v = env("ACLNN_CPU_MEM_LIMIT")) {
    // Plain decimal bytes: a typo must not silently become "no limit" or a tiny limit.
    char *end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno == ERANGE) {
      *error = std::string("ACLNN_CPU_MEM_LIMIT = \"") + v +
               "\" is invalid; expected a number of bytes (decimal, 0 = no limit)";
      return false;
    }
    s.mem_limit = static_cast<uint64_t>(n);
  }
  if (const char *v = env("ACLNN_CPU_VERBOSE")) {
    s.verbose = std::atoi(v);
  }
  *out = s;
  return true;
}

// Lazily loads the environment once, for programs that call the op without aclInit. An invalid environment
// leaves the defaults; aclInit is where that error is reported.
void ensure_loaded_locked(SettingsStore &s) {
  if (s.loaded) return;
  std::string ignored;
  Settings parsed;
  if (parse_settings(&parsed, &ignored)) s.value = parsed;
  s.loaded = true;
  s.publish_locked();
}

}  // namespace

ArchClass arch_class(Product product) {
  switch (product) {
    case Product::kAscend910B:
    case Product::kAscend910_93:
      return ArchClass::kA2A3;
    case Product::kAscend950:
      return ArchClass::k950;
    case Product::kAscend910:
    case Product::kAscend310P:
      return ArchClass::kLegacy;
  }
  return ArchClass::kA2A3;
}

const char *product_name(Product product) {
  switch (product) {
    case Product::kAscend910B:
      return "Ascend910B";
    case Product::kAscend910_93:
      return "Ascend910_93";
    case Product::kAscend950:
      return "Ascend950";
    case Product::kAscend910:
      return "Ascend910";
    case Product::kAscend310P:
      return "Ascend310P";
  }
  return "Ascend910B";
}

bool parse_product(const std::string &name, Product *out) {
  static const Product all[] = {Product::kAscend910B, Product::kAscend910_93, Product::kAscend950, Product::kAscend910,
                                Product::kAscend310P};
  for (Product p : all) {
    if (name == product_name(p)) {
      *out = p;
      return true;
    }
  }
  return false;
}

Settings settings() {
  SettingsStore &s = store();
  Settings now = [&s] {
    std::lock_guard<std::mutex> lock(s.mutex);
    ensure_loaded_locked(s);
    return s.value;
  }();
  if (t_override.has_product) now.product = t_override.product;
  if (t_override.num_threads != kNoThreadOverride) now.num_threads = t_override.num_threads;
  return now;
}

bool load_settings_from_env(std::string *error) {
  Settings parsed;
  if (!parse_settings(&parsed, error)) return false;
  SettingsStore &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.value = parsed;
  s.loaded = true;
  s.publish_locked();
  return true;
}

void set_product(Product product) {
  SettingsStore &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  ensure_loaded_locked(s);
  s.value.product = product;
}

void set_strict(bool strict) {
  SettingsStore &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  ensure_loaded_locked(s);
  s.value.strict = strict;
}

void set_num_threads(int num_threads) {
  SettingsStore &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  ensure_loaded_locked(s);
  s.value.num_threads = num_threads;
  s.publish_locked();
}

void set_mem_limit(uint64_t bytes) {
  SettingsStore &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  ensure_loaded_locked(s);
  s.value.mem_limit = bytes;
}

namespace {

int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

}  // namespace

int effective_num_threads() {
  int n = t_override.num_threads;
  if (n == kNoThreadOverride) n = store().num_threads.load(std::memory_order_acquire);
  if (n == SettingsStore::kUnloaded) n = settings().num_threads;
  if (n > 0) return n;
  // Read once per process, as OpenMP runtimes do: the system call cost about a µs on the virtual machines
  // measured, paid by every plan and every parallel loop of a call (issue 5's tiny calls).
  static const int cpus = usable_cpus();
  return cpus;
}

void set_thread_product(const Product *product) {
  t_override.has_product = product != nullptr;
  if (product != nullptr) t_override.product = *product;
}

void set_thread_num_threads(int num_threads) { t_override.num_threads = num_threads; }

int thread_num_threads() { return t_override.num_threads; }

}  // namespace aclnn_cpu
