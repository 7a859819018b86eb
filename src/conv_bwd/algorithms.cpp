#include "conv_bwd/algorithms.hpp"

#include <iterator>
#include <type_traits>

#include "core/config.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The table's functions on AlgorithmConfig, around each algorithm's own on its Config.
template <typename Config, Config (*Blocking)(const Canonical &, const GemmKernels &, int)>
AlgorithmConfig blocking_of(const Canonical &c, const GemmKernels &k, int threads) {
  return AlgorithmConfig(Blocking(c, k, threads));
}

template <typename Config,
          bool (*Run)(const Canonical &, const GemmKernels &, const Config &, const GemmScratch &, const Rounding &)>
bool run_of(const Canonical &c, const GemmKernels &k, const AlgorithmConfig &config, const GemmScratch &s,
            const Rounding &rounding) {
  return Run(c, k, std::get<Config>(config), s, rounding);
}

template <typename Config, std::string (*Kernel)(const GemmKernels &, const Config &)>
std::string kernel_of(const GemmKernels &k, const AlgorithmConfig &config) {
  return Kernel(k, std::get<Config>(config));
}

template <typename Config,
          Work (*WorkOf)(const Canonical &, const GemmKernels &, const Config &, const Rounding &, int)>
Work work_of(const Canonical &c, const GemmKernels &k, const AlgorithmConfig &config, const Rounding &rounding,
             int slots) {
  return WorkOf(c, k, std::get<Config>(config), rounding, slots);
}

#define ACLNN_CPU_ALGORITHM_ROW(id, name, output, Config) \
  {Algorithm::id,                                         \
   #name,                                                 \
   Output::output,                                        \
   &name##_refusal,                                       \
   &blocking_of<Config, &name##_blocking>,                \
   &run_of<Config, &name##_run>,                          \
   &kernel_of<Config, &name##_kernel>,                    \
   &work_of<Config, &name##_work>},
const AlgorithmEntry kTable[] = {ACLNN_CPU_ALGORITHMS(ACLNN_CPU_ALGORITHM_ROW)};
#undef ACLNN_CPU_ALGORITHM_ROW

#define ACLNN_CPU_ALGORITHM_NAME(id, name, output, Config) #name,
const char *const kSkippable[] = {ACLNN_CPU_ALGORITHMS(ACLNN_CPU_ALGORITHM_NAME) kDepthwiseBothName};
#undef ACLNN_CPU_ALGORITHM_NAME

// ACLNN_CPU_ALGO is read by the settings (core), which know no algorithm: the table tells them its names.
[[maybe_unused]] const bool kNamesRegistered = (register_skippable_algorithms(kSkippable, std::size(kSkippable)), true);

}  // namespace

const AlgorithmEntry *algorithms_begin() { return std::begin(kTable); }
const AlgorithmEntry *algorithms_end() { return std::end(kTable); }

const AlgorithmEntry *algorithm_entry(Algorithm id) {
  for (const AlgorithmEntry &e : kTable) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

const char *algorithm_name(Algorithm algorithm) {
  if (const AlgorithmEntry *e = algorithm_entry(algorithm)) return e->name;
  switch (algorithm) {
    case Algorithm::kReference:
      return "reference";
    case Algorithm::kZeros:
      return "zeros";
    default:
      return "none";
  }
}

std::string setting_with_first(const AlgorithmEntry &e) {
  std::string setting;
  for (const AlgorithmEntry *o = algorithms_begin(); o != &e; ++o) {
    if (o->output == e.output) setting += (setting.empty() ? "-" : ",-") + std::string(o->name);
  }
  return setting.empty() ? "auto" : setting;
}

const Blocking *common_blocking(const AlgorithmConfig &config) {
  return std::visit(
      [](const auto &b) -> const Blocking * {
        if constexpr (std::is_same_v<std::decay_t<decltype(b)>, std::monostate>) {
          return nullptr;
        } else {
          return &b;
        }
      },
      config);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
