// The BF16 pair kernels (src/conv_bwd/kernels/gemm_bf16_ukernel.hpp, gemm_ra_bf16_ukernel.hpp,
// gemm_nt_bf16_ukernel.hpp) give bitwise the results of the fp32-FMA path they stand in for: every BF16 case below runs
// under ACLNN_CPU_MAX_ISA=avx512_bf16 and =avx512 and the outputs' bytes must agree, on random data and on data whose
// blocks the pair kernel must leave to the fp32 kernel (values whose products or sums would fall below 2^-126,
// subnormals, Inf, NaN). Skipped, with a message, on CPUs without AVX512-BF16.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance_harness.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"
#include "core/isa.hpp"

namespace conformance {
namespace {

const char *const kNoShifted = "-gemm_weight_shifted";  // the setting ByTapGivesTheFp32PathsBits runs under

class ConformanceBf16Pairs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!aclnn_cpu::isa_includes(aclnn_cpu::cpu_isa(), aclnn_cpu::Isa::kAvx512Bf16)) {
      GTEST_SKIP() << "this CPU has no AVX512-BF16 (cpu_isa() = " << aclnn_cpu::isa_name(aclnn_cpu::cpu_isa())
                   << "): the pair kernels cannot run here";
    }
    const char *was = std::getenv("ACLNN_CPU_MAX_ISA");
    had_ = was != nullptr;
    if (had_) saved_ = was;
  }
  void TearDown() override {
    if (had_) {
      setenv("ACLNN_CPU_MAX_ISA", saved_.c_str(), 1);
    } else {
      unsetenv("ACLNN_CPU_MAX_ISA");
    }
    std::string error;
    aclnn_cpu::load_settings_from_env(&error);
  }

  static void cap(const char *isa) {
    setenv("ACLNN_CPU_MAX_ISA", isa, 1);
    std::string error;
    ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  }

  // The outputs' bytes of one run under the cap `isa`; *kernels: its plan's algorithms and kernels (describe_plan).
  static std::vector<unsigned char> run_under(const char *isa, const ConvCase &c, double dy_scale,
                                              std::string *kernels) {
    cap(isa);
    CaseTensors t(c);
    for (int64_t i = 0; i < t.t[kGradOutput].numel(); ++i) t.t[kGradOutput].set(i, t.t[kGradOutput].get(i) * dy_scale);
    for (const ConvCase::Special &sp : c.specials) t.t[sp.slot].set(sp.index, sp.value);
    const aclnn_cpu::conv_bwd::Plan plan =
        aclnn_cpu::conv_bwd::make_plan(build_problem(c, t), aclnn_cpu::conv_bwd::current_plan_context());
    *kernels = aclnn_cpu::conv_bwd::describe_plan(plan);
    std::string error;
    EXPECT_EQ(run_direct(c, t, &error), 0) << error;
    return output_bytes(t);
  }

  // `kernel`: a pair kernel the plan must name under avx512_bf16 (none under avx512), or nullptr.
  static void expect_same_bits(const ConvCase &c, double dy_scale, const std::string &what, const char *kernel) {
    std::string native_kernels, fp32_kernels;
    const std::vector<unsigned char> native = run_under("avx512_bf16", c, dy_scale, &native_kernels);
    const std::vector<unsigned char> fp32 = run_under("avx512", c, dy_scale, &fp32_kernels);
    // Under an ACLNN_CPU_ALGO setting (ctest's conformance_reference) the plan may take no GEMM algorithm at all.
    const char *algo = std::getenv("ACLNN_CPU_ALGO");
    if (kernel != nullptr && (algo == nullptr || *algo == '\0' || std::string(algo) == kNoShifted)) {
      EXPECT_NE(native_kernels.find(kernel), std::string::npos)
          << what << ": the plan took no " << kernel << " (" << native_kernels << ")";
    }
    EXPECT_EQ(fp32_kernels.find("avx512bf16"), std::string::npos)
        << what << ": the avx512 cap still took a pair kernel";
    EXPECT_TRUE(native == fp32) << what << ": avx512_bf16 and avx512 results differ";
  }

 private:
  bool had_ = false;
  std::string saved_;
};

// Shape families of the algorithms on pairs. gradInput's two GEMM algorithms (the NN pair kernel): 1-D, 2-D, 3-D;
// strides, dilation, padding beyond the kernel, groups, 1×1 (dcol is gradInput), K (output channels per group) odd,
// below and above one block of 256 (one tile, and the whole packed weight over two tiles, a last block of odd length:
// A's pair panels made from the BF16 weight rows block by block into whole-K panels; made once for all items: the
// weight's per group and block of x channels over 3 samples, gradOutput's per sample, tile and K block over blocks of
// x channels; with position parts, few x planes), transposed calls, and mixes storing FP32.
struct PairCase {
  const char *text;
  const char *kernel;  // the pair kernel the plan must take
};

const char *const kNn = "gemm_bf16_8x32__avx512bf16";
const char *const kNt = "gemm_nt_bf16_4x4__avx512bf16";
const char *const kShifted = nullptr;  // gemm_forward in the shifted layout (stride 1): not on pairs
const char *const kByTap = "gemm_ra_bf16_8x32__avx512bf16+by_tap";  // gemm_weight by tap
const PairCase kCases[] = {
    {"mb2_g1_ic16oc16_ih12iw12_kh3kw3_ph1pw1_dtbf16", kNn},
    {"mb1_g1_ic9oc7_ih11iw13_kh3kw2_sh2sw1_ph2pw3_dh1dw2_dtbf16", kNn},
    {"mb1_g1_ic40oc301_ih9iw9_kh3kw3_ph1pw1_dtbf16", kNn},
    {"mb1_g1_ic16oc300_ih20iw20_kh3kw3_ph1pw1_dtbf16", kNn},
    {"mb3_g2_ic64oc600_ih17iw20_kh3kw3_ph1pw1_dtbf16", "gemm_bf16_8x32__avx512bf16+shared_a+shared_b"},
    {"mb1_g1_ic5oc20_ih30iw30_kh3kw3_ph1pw1_dtbf16", "gemm_bf16_8x32__avx512bf16+shared_a"},
    {"mb1_g1_ic20oc515_ih6iw7_kh1kw1_dtbf16", kNn},
    {"mb2_g2_ic12oc10_ih8iw8_kh3kw3_sh2sw2_ph1pw1_dtbf16", kNn},
    {"mb1_g1_ic8oc33_iw70_kw5_sw1_pw2_dtbf16", kNn},
    {"mb1_g1_ic6oc9_id5ih6iw7_kd3kh3kw3_pd1ph1pw1_dtbf16", kNn},
    {"mb1_g1_ic64oc48_ih14iw14_kh1kw1_sh2sw2_dtbf16", kNn},
    {"mb1_g1_ic17oc11_ih9iw9_kh2kw2_ph4pw4_dtbf16", kNn},
    {"mb1_g1_ic24oc12_ih8iw8_kh4kw4_sh2sw2_ph1pw1_tr1_oph0opw0_dtbf16", kNn},
    {"mb2_g1_ic13oc9_ih7iw7_kh3kw3_ph1pw1_tr1_dtbf16", kShifted},
    // Transposed calls at a stride (gemm_forward on pairs): K over one block with an odd last one, output padding,
    // 1-D with groups, 1×1 (im2col, no phase windows), FP32 stored.
    {"mb1_g1_ic20oc33_ih6iw6_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1_dtbf16", kNn},
    {"mb1_g1_ic33oc20_ih6iw6_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1_dtbf16", kNn},
    {"mb2_g2_ic12oc10_iw9_kw4_sw3_pw1_tr1_dtbf16", kNn},
    {"mb1_g1_ic16oc24_ih5iw5_kh1kw1_sh2sw2_tr1_dtbf16", kNn},
    {"mb1_g1_ic16oc8_ih7iw7_kh4kw4_sh2sw2_ph1pw1_tr1_dtbf16:bf16:bf16:f32:f32:f32", kNn},
    {"mb1_g1_ic16oc16_ih10iw10_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", kNn},
    {"mb1_g1_ic16oc16_ih10iw10_kh3kw3_ph1pw1_dtbf16_cmt1", kNn},
    // gradWeight (gemm_weight_shifted, the RA product): both tiles, runs of odd and even length (a pair over a
    // column after a run), stride phases with dilation and padding beyond the kernel, 1-D and 3-D, groups, batch
    // (K parts), several K blocks per item (Ct summed in the slot), dy shared by many items, and gradWeight stored
    // as FP32 (every bit of the sums visible).
    {"mb2_g1_ic16oc16_ih12iw12_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x16__avx512bf16"},
    {"mb1_g1_ic8oc32_ih13iw11_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x32__avx512bf16"},
    {"mb1_g1_ic12oc16_ih11iw13_kh3kw2_sh2sw2_ph2pw3_dh1dw2_dtbf16:bf16:bf16:f32:f32:f32",
     "gemm_ra_bf16_8x16__avx512bf16"},
    {"mb1_g1_ic6oc16_id5ih6iw7_kd3kh3kw3_pd1ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x16__avx512bf16"},
    {"mb2_g2_ic32oc32_ih8iw8_kh3kw3_ph1pw1_dtbf16", "gemm_ra_bf16_8x16__avx512bf16"},
    {"mb1_g1_ic16oc32_iw301_kw5_pw2_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x32__avx512bf16"},
    {"mb1_g1_ic8oc16_ih30iw31_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x16__avx512bf16"},
    {"mb1_g1_ic256oc32_ih14iw14_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x32__avx512bf16"},
    {"mb1_g1_ic9oc16_ih9iw9_kh3kw3_ph4pw4_dtbf16:bf16:bf16:f32:f32:f32", "gemm_ra_bf16_8x16__avx512bf16"},
    {"mb3_g1_ic16oc32_ih10iw10_kh3kw3_ph1pw1_dtbf16_cmt1", "gemm_ra_bf16_8x32__avx512bf16"},
    // gradWeight's NT product (gemm_weight_shifted without RA: 1×1 layers, few columns, output channels the RA tiles
    // do not divide): output channels past one pass of 32 rows and off the 4-row tile, columns off the 4-column
    // tile, a last K chunk of 16 (half a pair chunk), two K blocks per sample, batch and groups (K parts), 1-D and
    // 3-D, dilation with padding, and FP32 stored.
    {"mb1_g1_ic21oc37_ih30iw30_kh1kw1_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    {"mb2_g1_ic21oc40_ih40iw40_kh1kw1_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    {"mb1_g1_ic3oc20_ih30iw30_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    {"mb1_g1_ic5oc12_ih33iw30_kh3kw3_ph2pw2_dh2dw1_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    {"mb2_g2_ic8oc12_ih32iw32_kh1kw1_dtbf16", kNt},
    {"mb1_g1_ic8oc13_iw3000_kw1_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    {"mb1_g1_ic4oc10_id6ih12iw12_kd1kh1kw1_dtbf16_cmt1", kNt},
    // gemm_weight's NT form (im2col rows: 1×1 at a stride, 1-D at a stride): two K blocks with a short last one.
    {"mb1_g1_ic20oc37_ih50iw50_kh1kw1_sh2sw2_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    {"mb2_g1_ic13oc20_ih46iw46_kh1kw1_sh2sw2_dtbf16", kNt},
    {"mb1_g1_ic6oc9_iw2200_kw3_sw2_pw1_dtbf16:bf16:bf16:f32:f32:f32", kNt},
    // gemm_weight's NN form (gradWeight alone): 1×1 on short planes with MR and NR remainders and K parts of one
    // sample; groups and blocks of 3 samples; blocks of 2 and a last of 1 on 1-D planes of 7 (K blocks of odd length: a
    // pad half).
    {"mb3_g1_ic20oc37_ih7iw7_kh1kw1_mask010_dtbf16:bf16:bf16:f32:f32:f32", kNn},
    {"mb9_g2_ic16oc24_ih5iw6_kh1kw1_mask010_dtbf16", kNn},
    {"mb5_g1_ic33oc9_iw7_kw1_mask010_dtbf16:bf16:bf16:f32:f32:f32", kNn},
    // ... and by tap (kernels with several taps on whole planes that read padding; more in kByTapCases): 3×3 on 7²
    // planes of 512 channels (one K part, blocks of 2 samples).
    {"mb2_g1_ic512oc256_ih7iw7_kh3kw3_ph1pw1_mask010_dtbf16", kByTap},
};

// gemm_weight by tap on layers gemm_weight_shifted would otherwise take (run with it switched off): each tap's
// positions as runs of pair steps (runs of 3 to 12, odd and even), K parts and blocks of several samples with channels
// past a panel and output channels off the tile, strides, 1-D and 3-D, groups, stored as FP32.
const PairCase kByTapCases[] = {
    {"mb7_g1_ic37oc13_ih5iw5_kh3kw3_ph1pw1_mask010_dtbf16:bf16:bf16:f32:f32:f32", kByTap},
    {"mb4_g1_ic9oc16_ih9iw9_kh3kw3_sh2sw2_ph1pw1_mask010_dtbf16:bf16:bf16:f32:f32:f32",
     "gemm_ra_bf16_8x16__avx512bf16+by_tap"},
    {"mb6_g1_ic7oc9_iw12_kw5_pw2_mask010_dtbf16:bf16:bf16:f32:f32:f32", kByTap},
    {"mb2_g1_ic5oc8_id3ih4iw4_kd3kh3kw3_pd1ph1pw1_mask010_dtbf16:bf16:bf16:f32:f32:f32", kByTap},
    {"mb5_g3_ic12oc9_ih6iw6_kh3kw3_ph1pw1_mask010_dtbf16", kByTap},
};

// kByTapCases with gemm_weight_shifted switched off, unless the environment chose algorithms (then as it says):
// random data, tiny gradOutput and single special values, as the tests below do for kCases.
TEST_F(ConformanceBf16Pairs, ByTapGivesTheFp32PathsBits) {
  struct Force {
    std::string saved = algo_setting();
    Force() {
      if (saved.empty()) set_algo_setting(kNoShifted);
    }
    ~Force() { set_algo_setting(saved); }
  } force;
  for (const PairCase &pc : kByTapCases) {
    const std::string text = pc.text;
    const CaseTensors shapes(parse_case(pc.text));
    const int64_t dy_numel = shapes.t[kGradOutput].numel();
    const size_t dy_dims = shapes.t[kGradOutput].shape().size();
    expect_same_bits(parse_case(pc.text, Data::kRandom, 7), 1.0, text, pc.kernel);
    expect_same_bits(parse_case(pc.text, Data::kRandom, 8), 0x1p-120, text + " dy scaled by 2^-120", pc.kernel);
    for (double v : {1e-39, 1.0 / 0.0}) {
      ConvCase c = parse_case(pc.text, Data::kRandom, 9);
      c.specials.push_back({kGradOutput, 5, v});
      c.specials.push_back({kInput, 40, v});
      expect_same_bits(c, 1.0, text + " with " + std::to_string(v), pc.kernel);
      c = parse_case(pc.text, Data::kRandom, 10);  // in dy only, past its first block
      c.specials.push_back({kGradOutput, dy_numel - 3, v});
      expect_same_bits(c, 1.0, text + " with " + std::to_string(v) + " late in dy", pc.kernel);
    }
    // dy's windows from its fp32 lines (dy with gaps), and from BF16 at other strides (channels outermost, offset).
    ConvCase c = parse_case(pc.text, Data::kRandom, 11);
    c.layout[kGradOutput] = Layout{{}, 2, 0};
    expect_same_bits(c, 1.0, text + " dy with gaps", pc.kernel);
    c = parse_case(pc.text, Data::kRandom, 12);
    std::vector<int> outermost = {1, 0, 2};  // channels, samples, then the spatial dims
    for (size_t d = 3; d < dy_dims; ++d) outermost.push_back(static_cast<int>(d));
    c.layout[kInput] = Layout{outermost, 1, 3};
    c.layout[kGradOutput] = Layout{outermost, 1, 5};
    expect_same_bits(c, 1.0, text + " channels outermost, offset", pc.kernel);
  }
}

TEST_F(ConformanceBf16Pairs, RandomDataGivesTheFp32PathsBits) {
  for (const PairCase &pc : kCases) expect_same_bits(parse_case(pc.text, Data::kRandom, 7), 1.0, pc.text, pc.kernel);
}

// gradOutput scaled by 2^-120 (products and sums near or below 2^-126) and by 2^-130 (BF16 subnormals): the pair
// kernel would flush them; pairs_exact sends those blocks to the fp32 kernel, which computes them as the fp32 path.
TEST_F(ConformanceBf16Pairs, TinyValuesAreLeftToTheFp32Kernel) {
  for (const PairCase &pc : kCases) {
    const std::string text = pc.text;
    expect_same_bits(parse_case(pc.text, Data::kRandom, 8), 0x1p-120, text + " dy scaled by 2^-120", pc.kernel);
    expect_same_bits(parse_case(pc.text, Data::kRandom, 8), 0x1p-130, text + " dy scaled by 2^-130", pc.kernel);
  }
}

// A subnormal, Inf or NaN operand in some blocks (of gradOutput, the input and the weight), normal values elsewhere.
TEST_F(ConformanceBf16Pairs, SubnormalsInfAndNanKeepTheFp32PathsBits) {
  const double specials[] = {1e-39, -3e-40, 1.0 / 0.0, 0.0 / 0.0};
  for (const PairCase &pc : kCases) {
    for (double v : specials) {
      ConvCase c = parse_case(pc.text, Data::kRandom, 9);
      c.specials.push_back({kGradOutput, 5, v});
      c.specials.push_back({kInput, 40, v});
      c.specials.push_back({kWeight, 3, v});
      expect_same_bits(c, 1.0, std::string(pc.text) + " with " + std::to_string(v), pc.kernel);
    }
  }
}

// The BF16 1×1 gradWeight paths that pair x and dy straight from their BF16 rows: a later pass (dy rows from 32 on)
// or a later K block (the second sample) leaves the pairs for the fp32 kernel after earlier ones ran on them; and x and
// dy with a storage offset and channels outermost (dense planes a batch of planes apart, rows off any alignment).
TEST_F(ConformanceBf16Pairs, PairsFromBf16RowsKeepTheFp32PathsBitsInLaterPassesAndOtherLayouts) {
  struct Late {
    const char *text;
    int64_t dy_index;  // a dy element of a later pass or block
  };
  const Late cases[] = {
      {"mb1_g1_ic21oc37_ih30iw30_kh1kw1_dtbf16:bf16:bf16:f32:f32:f32", 33 * 900 + 7},
      {"mb2_g1_ic21oc40_ih40iw40_kh1kw1_dtbf16:bf16:bf16:f32:f32:f32", (40 + 35) * 1600 + 901},
      {"mb2_g1_ic13oc20_ih46iw46_kh1kw1_sh2sw2_dtbf16", (20 + 3) * 529 + 11},
  };
  for (const Late &late : cases) {
    for (double v : {1e-39, 1.0 / 0.0, 0.0 / 0.0}) {
      ConvCase c = parse_case(late.text, Data::kRandom, 10);
      c.specials.push_back({kGradOutput, late.dy_index, v});
      expect_same_bits(c, 1.0, std::string(late.text) + " with " + std::to_string(v) + " late in dy", kNt);
    }
    ConvCase c = parse_case(late.text, Data::kRandom, 11);
    c.layout[kInput] = Layout{{1, 0, 2, 3}, 1, 3};
    c.layout[kGradOutput] = Layout{{1, 0, 2, 3}, 1, 5};
    expect_same_bits(c, 1.0, std::string(late.text) + " channels outermost, offset", kNt);
  }
}

// The BF16 RA gradWeight paths that make the reversed x windows and dy's pair panels straight from BF16 (once for all
// items in the shared area, or per item: at two threads the 40² case packs its own, the others share): a subnormal,
// Inf or NaN in x or dy of a later K block (the second sample) or channel sends that block to the fp32 kernel after
// earlier ones ran on pairs; x with gaps between its elements (windows read at a stride of 2 and 4 words; dy's panels
// then still made from BF16), and x and dy channels outermost with a storage offset. 3 × 1 and 3 × 3 × 1 kernels
// without padding across: q-space has no junk, so a run of K steps spans rows (and planes).
TEST_F(ConformanceBf16Pairs, RaWindowsAndPanelsFromBf16KeepTheFp32PathsBits) {
  struct Late {
    const char *text;
    int64_t x_index, dy_index;  // elements of a later block or channel
    const char *kernel;
  };
  const Late cases[] = {
      {"mb2_g1_ic16oc32_ih20iw20_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", (16 + 9) * 400 + 250,
       (32 + 20) * 400 + 300, "gemm_ra_bf16_8x32__avx512bf16"},
      {"mb1_g1_ic256oc32_ih14iw14_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", 200 * 196 + 100, 17 * 196 + 150,
       "gemm_ra_bf16_8x32__avx512bf16"},
      {"mb2_g1_ic32oc16_ih13iw13_kh3kw3_sh2sw2_ph1pw1_dtbf16", (32 + 5) * 169 + 77, (16 + 3) * 49 + 20,
       "gemm_ra_bf16_8x16__avx512bf16"},
      {"mb2_g1_ic16oc32_ih40iw40_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32", (16 + 9) * 1600 + 250,
       (32 + 20) * 1600 + 300, "gemm_ra_bf16_8x32__avx512bf16"},
      {"mb2_g1_ic32oc32_ih12iw10_kh3kw1_ph1pw0_dtbf16", (32 + 3) * 120 + 50, (32 + 5) * 120 + 50,
       "gemm_ra_bf16_8x32__avx512bf16"},
      {"mb1_g1_ic16oc16_id4ih5iw6_kd3kh3kw1_pd1ph1pw0_dtbf16", 9 * 120 + 7, 11 * 120 + 100,
       "gemm_ra_bf16_8x16__avx512bf16"},
  };
  for (const Late &late : cases) {
    for (double v : {1e-39, 1.0 / 0.0, 0.0 / 0.0}) {
      ConvCase c = parse_case(late.text, Data::kRandom, 12);
      c.specials.push_back({kInput, late.x_index, v});
      expect_same_bits(c, 1.0, std::string(late.text) + " with " + std::to_string(v) + " late in x", late.kernel);
      c = parse_case(late.text, Data::kRandom, 13);
      c.specials.push_back({kGradOutput, late.dy_index, v});
      expect_same_bits(c, 1.0, std::string(late.text) + " with " + std::to_string(v) + " late in dy", late.kernel);
    }
    ConvCase c = parse_case(late.text, Data::kRandom, 14);
    c.layout[kInput] = Layout{{}, 2, 0};
    expect_same_bits(c, 1.0, std::string(late.text) + " x with gaps", late.kernel);
    c = parse_case(late.text, Data::kRandom, 15);
    std::vector<int> outermost = {1, 0, 2, 3};  // channels, samples, then the spatial dims
    if (std::string(late.text).find("_id") != std::string::npos) outermost.push_back(4);
    c.layout[kInput] = Layout{outermost, 1, 3};
    c.layout[kGradOutput] = Layout{outermost, 1, 5};
    expect_same_bits(c, 1.0, std::string(late.text) + " channels outermost, offset", late.kernel);
  }
}

}  // namespace
}  // namespace conformance
