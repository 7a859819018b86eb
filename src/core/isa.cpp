#include "core/isa.hpp"

#include "core/config.hpp"

namespace aclnn_cpu {

const char *isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
  }
  return "scalar";
}

bool parse_isa(const std::string &name, Isa *out) {
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
    if (name == isa_name(isa)) {
      *out = isa;
      return true;
    }
  }
  return false;
}

Isa cpu_isa() {
#if defined(__x86_64__) || defined(__i386__)
  // __builtin_cpu_supports checks CPUID and, for AVX/AVX-512, that the OS enabled the register state (XGETBV).
  static const Isa detected = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return Isa::kAvx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::kAvx2;
    return Isa::kScalar;
  }();
  return detected;
#else
  return Isa::kScalar;
#endif
}

Isa usable_isa() {
  const Isa cap = settings().max_isa;
  const Isa cpu = cpu_isa();
  return static_cast<int>(cap) < static_cast<int>(cpu) ? cap : cpu;
}

}  // namespace aclnn_cpu
