// Process-wide settings: the emulated Ascend product and our own switches.
// Read from ACLNN_CPU_* environment variables at aclInit (or lazily on first use), changeable through ext.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/isa.hpp"

namespace aclnn_cpu {

enum class Product { kAscend910B, kAscend910_93, kAscend950, kAscend910, kAscend310P };

// The architecture classes the validation and precision rules are written against (docs/contract.md §0.2).
enum class ArchClass { kA2A3, k950, kLegacy };

ArchClass arch_class(Product product);
const char *product_name(Product product);
// Parses a SoC name ("Ascend910B", ...). Returns false for an unknown name.
bool parse_product(const std::string &name, Product *out);

enum class Hf32Rounding { kTiesAway, kNearestEven };
enum class Fp8Overflow { kSaturate, kNan };

struct Settings {
  Product product = Product::kAscend910B;
  bool strict = false;
  int num_threads = 0;  // 0: the CPUs this process may use
  Hf32Rounding hf32_rounding = Hf32Rounding::kTiesAway;
  Fp8Overflow fp8_overflow = Fp8Overflow::kSaturate;
  int verbose = 0;
  Isa max_isa = kBestIsa;           // ACLNN_CPU_MAX_ISA: the best kernels plans may pick (capped by the CPU)
  bool reference_only = false;      // ACLNN_CPU_ALGO=reference: every output by the fp64 reference algorithms
  std::string disabled_algorithms;  // ACLNN_CPU_ALGO=-name,-name: ",name,name," (plans skip them)
  uint64_t mem_limit = 0;           // ACLNN_CPU_MEM_LIMIT: bytes of live device memory allowed; 0 = no limit
};

// A snapshot of the current settings (copied under a lock; cheap).
Settings settings();

// Re-reads every ACLNN_CPU_* variable. On an invalid value returns false, sets *error and changes nothing.
bool load_settings_from_env(std::string *error);

void set_product(Product product);
void set_strict(bool strict);
void set_num_threads(int num_threads);
// Internal (tests): the ACLNN_CPU_MEM_LIMIT setting; 0 removes the limit.
void set_mem_limit(uint64_t bytes);
// Internal (tests): the ACLNN_CPU_VERBOSE level.
void set_verbose(int level);

// The names ACLNN_CPU_ALGO=-name may skip, in the order error messages list them: set by the operator layer, which
// owns its algorithms (conv_bwd/algorithms.cpp), when the library loads; settings read later check against them.
void register_skippable_algorithms(const char *const *names, size_t count);

// Threads to use for one call: the setting, or when it is 0 the CPUs this process may use (read at first use).
int effective_num_threads();

// ACLNN_CPU_VERBOSE's level, without copying the settings (a launch reads it and allocates nothing).
int verbose_level();

// The calling thread's own product and thread count (ext.h's aclnnCpuSetThread*): while set, settings() and
// effective_num_threads() on this thread report them instead of the process-wide values. nullptr and
// kNoThreadOverride remove them.
constexpr int kNoThreadOverride = -1;
void set_thread_product(const Product *product);
void set_thread_num_threads(int num_threads);
int thread_num_threads();  // kNoThreadOverride when none

// Sets the calling thread's thread count for a scope and puts back the one it had: a launch computes with the count
// its GetWorkspaceSize planned with, on whichever thread runs it.
class ScopedThreadNumThreads {
 public:
  explicit ScopedThreadNumThreads(int num_threads) : saved_(thread_num_threads()) {
    set_thread_num_threads(num_threads);
  }
  ~ScopedThreadNumThreads() { set_thread_num_threads(saved_); }
  ScopedThreadNumThreads(const ScopedThreadNumThreads &) = delete;
  ScopedThreadNumThreads &operator=(const ScopedThreadNumThreads &) = delete;

 private:
  int saved_;
};

}  // namespace aclnn_cpu
