#include "core/config.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace aclnn_cpu {
namespace {

struct SettingsStore {
  std::mutex mutex;
  Settings value;
  bool loaded = false;
  // value.num_threads for readers that take no lock (every parallel loop asks: five Settings copies per call of the
  // seed problem); kUnloaded until the first load.
  std::atomic<int> num_threads{kUnloaded};
  std::atomic<int> verbose{0};  // value.verbose, likewise (read by every launch)
  static constexpr int kUnloaded = -1;

  void publish_locked() {
    num_threads.store(value.num_threads, std::memory_order_release);
    verbose.store(value.verbose, std::memory_order_release);
  }
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

// The names ACLNN_CPU_ALGO=-name may skip, as the operator registers them (conv_bwd/algorithms.cpp) while the
// library loads. Plain pointers to its static array, constant-initialised: nothing to allocate or destroy, so
// settings may be read while static destructors run and a dlclose leaves nothing behind.
struct SkippableNames {
  const char *const *names = nullptr;
  size_t count = 0;
};
SkippableNames g_skippable;

bool is_skippable_algorithm(const std::string &name) {
  for (size_t i = 0; i < g_skippable.count; ++i) {
    if (name == g_skippable.names[i]) return true;
  }
  return false;
}

std::string skippable_algorithms_text() {
  std::string text;
  for (size_t i = 0; i < g_skippable.count; ++i) text += (text.empty() ? "" : ", ") + std::string(g_skippable.names[i]);
  return text;
}

// One parser per variable: each reads a set, non-empty value into *s, or explains in *error why it is invalid.
bool parse_soc(const std::string &v, Settings *s, std::string *error) {
  if (parse_product(v, &s->product)) return true;
  *error = "ACLNN_CPU_SOC = \"" + v +
           "\" is not an emulated product; expected one of Ascend910B, Ascend910_93, Ascend950, Ascend910, "
           "Ascend310P";
  return false;
}

bool parse_strict(const std::string &v, Settings *s, std::string *error) {
  if (v != "0" && v != "1") {
    *error = "ACLNN_CPU_STRICT = \"" + v + "\" is invalid; expected 0 or 1";
    return false;
  }
  s->strict = v == "1";
  return true;
}

bool parse_num_threads(const std::string &v, Settings *s, std::string *error) {
  char *end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (*end != '\0' || n < 0 || n > 4096) {
    *error = "ACLNN_CPU_NUM_THREADS = \"" + v +
             "\" is invalid; expected an integer in [0, 4096] (0: all CPUs this process may use)";
    return false;
  }
  s->num_threads = static_cast<int>(n);
  return true;
}

bool parse_hf32_rounding(const std::string &v, Settings *s, std::string *error) {
  if (v == "rne" || v == "away") {
    s->hf32_rounding = v == "rne" ? Hf32Rounding::kNearestEven : Hf32Rounding::kTiesAway;
    return true;
  }
  *error = "ACLNN_CPU_HF32_ROUNDING = \"" + v + "\" is invalid; expected \"away\" (default) or \"rne\"";
  return false;
}

bool parse_fp8_overflow(const std::string &v, Settings *s, std::string *error) {
  if (v == "nan" || v == "saturate") {
    s->fp8_overflow = v == "nan" ? Fp8Overflow::kNan : Fp8Overflow::kSaturate;
    return true;
  }
  *error = "ACLNN_CPU_FP8_OVERFLOW = \"" + v + "\" is invalid; expected \"saturate\" (default) or \"nan\"";
  return false;
}

bool parse_max_isa(const std::string &v, Settings *s, std::string *error) {
  if (parse_isa(v, &s->max_isa)) return true;
  *error = "ACLNN_CPU_MAX_ISA = \"" + v + "\" is invalid; expected scalar, avx2, avx512, avx512_bf16 or neon";
  return false;
}

// "-gemm_weight,-gemm_flipped_forward": skip these algorithms.
bool parse_skipped_algorithms(const std::string &a, Settings *s, std::string *error) {
  std::string list = ",";
  size_t at = 0;
  while (at <= a.size()) {
    const size_t end = std::min(a.find(',', at), a.size());
    const std::string name = end > at + 1 && a[at] == '-' ? a.substr(at + 1, end - at - 1) : "";
    if (!is_skippable_algorithm(name)) {
      *error = "ACLNN_CPU_ALGO = \"" + a + "\" is invalid: \"" + a.substr(at, end - at) +
               "\" is not -name with name one of " + skippable_algorithms_text();
      return false;
    }
    list += name + ",";
    at = end + 1;
  }
  s->disabled_algorithms = list;
  return true;
}

bool parse_algo(const std::string &a, Settings *s, std::string *error) {
  if (a == "auto" || a == "reference") {
    s->reference_only = a == "reference";
    return true;
  }
  if (a[0] == '-') return parse_skipped_algorithms(a, s, error);
  *error = "ACLNN_CPU_ALGO = \"" + a + "\" is invalid; expected auto (default), reference or -name[,-name...]";
  return false;
}

bool parse_mem_limit(const std::string &v, Settings *s, std::string *error) {
  // Plain decimal bytes: a typo must not silently become "no limit" or a tiny limit.
  char *end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno == ERANGE) {
    *error = "ACLNN_CPU_MEM_LIMIT = \"" + v + "\" is invalid; expected a number of bytes (decimal, 0 = no limit)";
    return false;
  }
  s->mem_limit = static_cast<uint64_t>(n);
  return true;
}

// Exactly one digit: "yes", "-1" or "1x" would otherwise read as some level the user did not choose.
bool parse_verbose(const std::string &v, Settings *s, std::string *error) {
  if (v != "0" && v != "1" && v != "2") {
    *error = "ACLNN_CPU_VERBOSE = \"" + v + "\" is invalid; expected 0 (default), 1 or 2";
    return false;
  }
  s->verbose = v[0] - '0';
  return true;
}

bool parse_settings(Settings *out, std::string *error) {
  using Parser = bool (*)(const std::string &, Settings *, std::string *);
  static const struct {
    const char *name;
    Parser parse;
  } kVariables[] = {
      {"ACLNN_CPU_SOC", parse_soc},
      {"ACLNN_CPU_STRICT", parse_strict},
      {"ACLNN_CPU_NUM_THREADS", parse_num_threads},
      {"ACLNN_CPU_HF32_ROUNDING", parse_hf32_rounding},
      {"ACLNN_CPU_FP8_OVERFLOW", parse_fp8_overflow},
      {"ACLNN_CPU_MAX_ISA", parse_max_isa},
      {"ACLNN_CPU_ALGO", parse_algo},
      {"ACLNN_CPU_MEM_LIMIT", parse_mem_limit},
      {"ACLNN_CPU_VERBOSE", parse_verbose},
  };
  Settings s;
  for (const auto &variable : kVariables) {
    const char *value = env(variable.name);
    if (value != nullptr && !variable.parse(value, &s, error)) return false;
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

namespace {

// The ext.h / test setters: one field changed under the lock, on top of the environment when nothing read it yet.
template <class Change>
void change_settings(Change change) {
  SettingsStore &s = store();
  std::lock_guard<std::mutex> lock(s.mutex);
  ensure_loaded_locked(s);
  change(s.value);
  s.publish_locked();
}

}  // namespace

void set_product(Product product) {
  change_settings([&](Settings &v) { v.product = product; });
}

void set_strict(bool strict) {
  change_settings([&](Settings &v) { v.strict = strict; });
}

void set_num_threads(int num_threads) {
  change_settings([&](Settings &v) { v.num_threads = num_threads; });
}

void set_mem_limit(uint64_t bytes) {
  change_settings([&](Settings &v) { v.mem_limit = bytes; });
}

void set_verbose(int level) {
  change_settings([&](Settings &v) { v.verbose = level; });
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

int verbose_level() {
  SettingsStore &s = store();
  if (s.num_threads.load(std::memory_order_acquire) == SettingsStore::kUnloaded) return settings().verbose;
  return s.verbose.load(std::memory_order_acquire);
}

int effective_num_threads() {
  int n = t_override.num_threads;
  if (n == kNoThreadOverride) n = store().num_threads.load(std::memory_order_acquire);
  if (n == SettingsStore::kUnloaded) n = settings().num_threads;
  if (n > 0) return n;
  // Read once per process, as OpenMP runtimes do: the system call cost about a µs on the virtual machines
  // measured, paid by every plan and every parallel loop of a call, which a tiny call of a few µs feels.
  static const int cpus = usable_cpus();
  return cpus;
}

void set_thread_product(const Product *product) {
  t_override.has_product = product != nullptr;
  if (product != nullptr) t_override.product = *product;
}

void set_thread_num_threads(int num_threads) { t_override.num_threads = num_threads; }

int thread_num_threads() { return t_override.num_threads; }

void register_skippable_algorithms(const char *const *names, size_t count) {
  g_skippable = SkippableNames{names, count};
}

}  // namespace aclnn_cpu
