// The kernels of each ISA, picked by the plan's ISA (already capped to what the CPU runs). The x86 kernels exist
// only where they were compiled (src/CMakeLists.txt); elsewhere every ISA gets the portable ones.
#include "conv_bwd/kernels/gemm_ukernel.hpp"

#include "conv_bwd/kernels/dw_rows.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <typename Kernels>
const Kernels &by_isa(Isa isa, const Kernels &scalar, const Kernels *avx2, const Kernels *avx512) {
  if (isa == Isa::kAvx512 && avx512 != nullptr) return *avx512;
  if (isa == Isa::kAvx2 && avx2 != nullptr) return *avx2;
  return scalar;
}

}  // namespace

const GemmUkernel &gemm_ukernel(Isa isa) {
  static const GemmUkernel kScalar{gemm_f32_4x8__scalar, 4, 8, Isa::kScalar, "gemm_f32_4x8__scalar"};
#if defined(ACLNN_CPU_HAVE_X86_KERNELS)
  static const GemmUkernel kAvx2{gemm_f32_6x16__avx2_fma, 6, 16, Isa::kAvx2, "gemm_f32_6x16__avx2_fma"};
  static const GemmUkernel kAvx512{gemm_f32_8x32__avx512f, 8, 32, Isa::kAvx512, "gemm_f32_8x32__avx512f"};
  return by_isa(isa, kScalar, &kAvx2, &kAvx512);
#else
  return by_isa<GemmUkernel>(isa, kScalar, nullptr, nullptr);
#endif
}

const GemmNtUkernel &gemm_nt_ukernel(Isa isa) {
  static const GemmNtUkernel kScalar{gemm_nt_f32_2x2__scalar, 2, 2, 1, Isa::kScalar, "gemm_nt_f32_2x2__scalar"};
#if defined(ACLNN_CPU_HAVE_X86_KERNELS)
  static const GemmNtUkernel kAvx2{gemm_nt_f32_3x4__avx2_fma, 3, 4, 8, Isa::kAvx2, "gemm_nt_f32_3x4__avx2_fma"};
  static const GemmNtUkernel kAvx512{gemm_nt_f32_4x4__avx512f, 4, 4, 16, Isa::kAvx512, "gemm_nt_f32_4x4__avx512f"};
  return by_isa(isa, kScalar, &kAvx2, &kAvx512);
#else
  return by_isa<GemmNtUkernel>(isa, kScalar, nullptr, nullptr);
#endif
}

const GemmRaUkernel *gemm_ra_ukernel(Isa isa, int64_t m) {
#if defined(ACLNN_CPU_HAVE_X86_KERNELS)
  static const GemmRaUkernel kAvx2{
      gemm_ra_f32_6x16__avx2_fma,  gemm_ra_ct_f32_6x16__avx2_fma, gemm_ra_transpose_f32__avx2_fma, 6, 16, Isa::kAvx2,
      "gemm_ra_f32_6x16__avx2_fma"};
  // AVX-512 CPUs run the AVX2 transpose (8 × 8 blocks: the panels and columns it moves are a small part).
  static const GemmRaUkernel kAvx512{
      gemm_ra_f32_8x32__avx512f,  gemm_ra_ct_f32_8x32__avx512f, gemm_ra_transpose_f32__avx2_fma, 8, 32, Isa::kAvx512,
      "gemm_ra_f32_8x32__avx512f"};
  static const GemmRaUkernel kAvx512Narrow{
      gemm_ra_f32_8x16__avx512f,  gemm_ra_ct_f32_8x16__avx512f, gemm_ra_transpose_f32__avx2_fma, 8, 16, Isa::kAvx512,
      "gemm_ra_f32_8x16__avx512f"};
  if (isa == Isa::kAvx512) return m % 32 != 0 && m % 16 == 0 ? &kAvx512Narrow : &kAvx512;
  return isa == Isa::kAvx2 ? &kAvx2 : nullptr;
#else
  (void)isa;
  (void)m;
  return nullptr;
#endif
}

// One kernel per line, in DwRowKernels' order (clang-format would pack these lists into columns).
// clang-format off
const DwRowKernels &dw_row_kernels(Isa isa) {
  static const DwRowKernels kScalar{
      dw_taps_f32__scalar,
      dw_taps_channels_f32__scalar,
      dw_dot_taps_f32__scalar,
      dw_copy_rows_f32__scalar,
      dw_interleave_f32__scalar,
      dw_deinterleave2_f32__scalar,
      dw_widen_bf16_rows__scalar,
      dw_narrow_bf16_rows__scalar,
      dw_round_rows_hf32__scalar,
      dw_add_rows_f32__scalar,
      dw_taps_3x3_f32__scalar,
      dw_dot_taps_3x3_f32__scalar,
      Isa::kScalar,
      "dw_rows_f32__scalar",
  };
#if defined(ACLNN_CPU_HAVE_X86_KERNELS)
  static const DwRowKernels kAvx2{
      dw_taps_f32__avx2_fma,
      dw_taps_channels_f32__avx2_fma,
      dw_dot_taps_f32__avx2_fma,
      dw_copy_rows_f32__avx2_fma,
      dw_interleave_f32__avx2_fma,
      dw_deinterleave2_f32__avx2_fma,
      dw_widen_bf16_rows__avx2_fma,
      dw_narrow_bf16_rows__avx2_fma,
      dw_round_rows_hf32__avx2_fma,
      dw_add_rows_f32__avx2_fma,
      dw_taps_3x3_f32__avx2_fma,
      dw_dot_taps_3x3_f32__avx2_fma,
      Isa::kAvx2,
      "dw_rows_f32__avx2_fma",
  };
  static const DwRowKernels kAvx512{
      dw_taps_f32__avx512f,
      dw_taps_channels_f32__avx512f,
      dw_dot_taps_f32__avx512f,
      dw_copy_rows_f32__avx512f,
      dw_interleave_f32__avx512f,
      dw_deinterleave2_f32__avx512f,
      dw_widen_bf16_rows__avx512f,
      dw_narrow_bf16_rows__avx512f,
      dw_round_rows_hf32__avx512f,
      dw_add_rows_f32__avx512f,
      dw_taps_3x3_f32__avx512f,
      dw_dot_taps_3x3_f32__avx512f,
      Isa::kAvx512,
      "dw_rows_f32__avx512f",
  };
  return by_isa(isa, kScalar, &kAvx2, &kAvx512);
#else
  return by_isa<DwRowKernels>(isa, kScalar, nullptr, nullptr);
#endif
}
// clang-format on

}  // namespace conv_bwd
}  // namespace aclnn_cpu
