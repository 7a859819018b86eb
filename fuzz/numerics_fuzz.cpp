// libFuzzer target: every number-format conversion of src/numerics/formats.hpp against the slow reference of
// tests/numerics_reference.hpp, bit for bit. The input is read as consecutive 4-byte binary32 patterns (host byte
// order); each pattern is also used as a 16-bit and an 8-bit code for the decoders. Any mismatch traps.
//
// Build and run by hand (clang, from the repository root):
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc -Iinclude -Itests
//           fuzz/numerics_fuzz.cpp src/numerics/*.cpp -o /tmp/numerics_fuzz        (one command line)
//   mkdir -p /tmp/numerics_corpus && /tmp/numerics_fuzz -runs=200000 -seed=1 /tmp/numerics_corpus fuzz/corpus/numerics
// (libFuzzer writes new inputs into the FIRST corpus directory: keep a scratch one first so the checked-in seeds
// stay the hand-made ones.)
// For CMake: one executable from fuzz/numerics_fuzz.cpp plus the src/numerics/*.cpp sources compiled with the
// same flags (so libFuzzer sees coverage inside the conversions; nothing else from src/ is needed), include
// directories src/, include/ and tests/, compile and link flag -fsanitize=fuzzer (plus the sanitizers), seed
// corpus fuzz/corpus/numerics/.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "numerics/formats.hpp"
#include "numerics_reference.hpp"

namespace {

namespace lib = aclnn_cpu::numerics;
namespace ref = numerics_ref;

void expect(bool ok) {
  if (!ok) __builtin_trap();
}

void check_encoders(uint32_t u) {
  const float x = ref::float_of(u);
  expect(lib::fp32_to_fp16(x) == ref::fp32_to_fp16(x));
  expect(lib::fp32_to_bf16(x) == ref::fp32_to_bf16(x));
  expect(lib::fp32_to_hif8(x) == ref::fp32_to_hif8(x));
  expect(lib::fp32_to_e4m3fn(x, aclnn_cpu::Fp8Overflow::kSaturate) == ref::fp32_to_e4m3fn(x, true));
  expect(lib::fp32_to_e4m3fn(x, aclnn_cpu::Fp8Overflow::kNan) == ref::fp32_to_e4m3fn(x, false));
  // The two product widths plus one derived from the pattern, so every width 1..23 gets exercised (at 0 "even"
  // is not defined: every significand is 1).
  for (int m : {10, 11, 1 + static_cast<int>((u >> 3) % 23)}) {
    for (bool ties_away : {true, false}) {
      const auto mode = ties_away ? aclnn_cpu::Hf32Rounding::kTiesAway : aclnn_cpu::Hf32Rounding::kNearestEven;
      expect(ref::bits_of(lib::round_to_hf32(x, m, mode)) == ref::bits_of(ref::round_to_hf32(x, m, ties_away)));
    }
  }
}

void check_decoders(uint32_t u) {
  const auto h = static_cast<uint16_t>(u);
  expect(ref::bits_of(lib::fp16_to_fp32(h)) == ref::bits_of(ref::fp16_to_fp32(h)));
  expect(ref::bits_of(lib::bf16_to_fp32(h)) == ref::bits_of(ref::bf16_to_fp32(h)));
  const auto c = static_cast<uint8_t>(u >> 16);
  const float hif8 = lib::hif8_to_fp32(c);
  expect(c == 0x80 ? std::isnan(hif8) : ref::bits_of(hif8) == ref::bits_of(ref::hif8_to_fp32(c)));
  expect(ref::bits_of(lib::e4m3fn_to_fp32(c)) == ref::bits_of(ref::e4m3fn_to_fp32(c)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (size_t i = 0; i + 4 <= size; i += 4) {
    uint32_t u;
    std::memcpy(&u, data + i, 4);
    check_encoders(u);
    check_decoders(u);
  }
  return 0;
}
