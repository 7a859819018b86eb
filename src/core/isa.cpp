#include "core/isa.hpp"

#include "core/config.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace aclnn_cpu {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// CPUID leaf 7, sub-leaf 1, EAX bit 5 (AVX512_BF16). Its zmm state is AVX-512F's, which the caller has checked. The
// level's kernels also use AVX512BW's 16-bit operations (every CPU with AVX512_BF16 has it; checked all the same).
bool avx512_bf16() {
  if (!__builtin_cpu_supports("avx512bw")) return false;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 1, eax, ebx, ecx, edx);
  return (eax >> 5) & 1u;
}
#endif

}  // namespace

const char *isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
    case Isa::kAvx512Bf16:
      return "avx512_bf16";
    case Isa::kNeon:
      return "neon";
  }
  return "scalar";
}

bool parse_isa(const std::string &name, Isa *out) {
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kAvx512Bf16, Isa::kNeon}) {
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
    if (__builtin_cpu_supports("avx512f")) return avx512_bf16() ? Isa::kAvx512Bf16 : Isa::kAvx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::kAvx2;
    return Isa::kScalar;
  }();
  return detected;
#elif defined(__aarch64__) && defined(__linux__)
  static const Isa detected = (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0 ? Isa::kNeon : Isa::kScalar;
  return detected;
#else
  return Isa::kScalar;
#endif
}

Isa capped_isa(Isa cpu, Isa cap) {
  if (isa_includes(cpu, cap)) return cap;
  if (isa_includes(cap, cpu)) return cpu;
  return Isa::kScalar;
}

Isa usable_isa() { return capped_isa(cpu_isa(), settings().max_isa); }

}  // namespace aclnn_cpu
