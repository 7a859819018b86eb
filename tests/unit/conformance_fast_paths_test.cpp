// The GEMM algorithms at the edges of their blocking: every K-block, position-tile, channel-block and
// microkernel-tile remainder, the NT gradWeight form (long planes) and the NN one, several K blocks per sample and
// per output, fixed partial sums over K, groups, stride > kernel, padding ≥ kernel, dilation, transposed calls with
// a long K, every precision, non-contiguous views; and bitwise determinism where the partials and the dynamic
// hand-out of items are in play. The registry also runs this suite under ACLNN_CPU_MAX_ISA=avx2 and =scalar.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "conformance_harness.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

const char *const kGeometries[] = {
    // gradWeight NT: plane 47·47 = 2209 = three 1024-blocks (one short), three samples → 9 blocks in 4 partial sums
    // (each adds two or three blocks); Cy 5, 27 columns.
    "mb3_g1_ic3oc5_ih47iw47_kh3kw3_ph1pw1",
    // NT with groups, stride 2, dilation 2 (plane 25·25 = 625).
    "mb1_g2_ic6oc4_ih50iw50_kh3kw3_sh2sw2_ph2pw2_dh2dw2",
    // NT 1-D, three samples, kernel 5.
    "mb3_g1_ic4oc7_iw1500_kw5_pw2",
    // NT 3-D (plane 8·12·12 = 1152) with asymmetric work.
    "mb1_g1_ic4oc6_id8ih12iw12_kd3kh3kw3_pd1ph1pw1",
    // gradInput: 300 gradOutput channels (two K blocks), 400 positions (two tiles), 5 x channels; and the same
    // written in place (1×1: dcol is gradInput), two K blocks accumulated in the output, 99 positions.
    "mb1_g1_ic5oc300_ih20iw20_kh3kw3_ph1pw1",
    "mb1_g1_ic5oc300_ih9iw11_kh1kw1",
    // stride 1, padding beyond the kernel's reach (the flipped problem crops: negative begin pads), and
    // asymmetric pads with dilation.
    "mb1_g1_ic3oc4_ih9iw9_kh2kw2_ph3pw3",
    "mb2_g1_ic6oc5_ih20iw21_kh3kw3_ph1:3pw0:2_dh2dw3",
    // stride > kernel, padding ≥ kernel.
    "mb2_g1_ic7oc9_ih23iw23_kh2kw2_sh3sw3_ph2pw2",
    // depthwise-like groups with long planes.
    "mb1_g8_ic8oc16_ih30iw30_kh3kw3_ph1pw1",
    // transposed: K = 40·9 = 360 > 256 (two K blocks in the forward GEMM), output padding.
    "mb1_g1_ic40oc9_ih10iw10_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1",
    "mb2_g1_ic9oc40_ih12iw12_kh4kw4_sh2sw2_ph1pw1_tr1_oph0opw0",
    // strided gradInput (GEMM + col2im) with 300 gradOutput channels (two K blocks) and 3 position tiles.
    "mb1_g1_ic5oc300_ih45iw45_kh3kw3_sh2sw2_ph1pw1",
    // gradWeight with shifted rows: a window of 800 + 200 floats limits an item to 65 of the 150 x channels (a
    // 20-channel remainder item); 4 dy rows (one MR tile of the AVX-512 kernel, a remainder of the AVX2 one).
    "mb1_g1_ic150oc4_iw1000_kw3_pw0_dw100",
    // depthwise (one x channel per group), by rows: strides 2×3 with dilation and uneven pads; stride > kernel with
    // padding ≥ kernel; and in the shifted layout (stride 1): 1-D with multiplier 3, 3-D.
    "mb2_g6_ic6oc6_ih13iw11_kh3kw3_sh2sw3_ph2:1pw3_dh1dw2",
    "mb2_g5_ic5oc10_ih9iw9_kh2kw2_sh3sw3_ph2pw2",
    "mb1_g4_ic4oc12_iw200_kw5_pw2",
    "mb1_g3_ic3oc3_id5ih6iw7_kd3kh3kw3_pd1ph1pw1",
    // direct_data with several channels per group (stride 1): 3 x and 2 y channels per group with dilation and
    // uneven pads; and 8 × 8 per group, the largest it takes.
    "mb2_g4_ic12oc8_ih10iw9_kh3kw2_ph2:1pw1_dh1dw2",
    "mb1_g2_ic16oc16_ih8iw8_kh3kw3_ph1pw1",
    // gemm_weight_shifted with stride phases: stride 4, dilation 2, pad 3: the six taps read only phases 1 and 3
    // (phases 0 and 2 are never packed); two samples.
    "mb2_g1_ic3oc5_iw90_kw6_sw4_pw3_dw2",
    // gemm_weight_shifted reading FP32 rows in place (1×1, stride 1, no padding): 5 dy rows per group (whole MR tiles
    // in place, the rest packed), planes of 144 (whole vectors), groups, two samples; then planes of 2500 in K
    // blocks of 848 (two in place) and a last one of 804 (not whole vectors: packed).
    "mb2_g2_ic6oc10_ih9iw16_kh1kw1",
    "mb1_g1_ic9oc8_ih50iw50_kh1kw1",
    // direct_data by stride phases (depthwise, stride > 1): rows of 45 and 37 (the stride-2 weave's vectors, half
    // step, overlapping end and odd last column) with multiplier 2; 1-D stride 2 with dilation 2 and multiplier 3;
    // 1-D stride 4 whose two taps read phases 3 and 0 only (phases 1 and 2 are zeros); 3-D strides 1×2×3 with
    // dilation.
    "mb1_g4_ic4oc8_ih37iw45_kh3kw3_sh2sw2_ph1pw1",
    "mb2_g3_ic3oc9_iw101_kw5_sw2_pw3_dw2",
    "mb1_g2_ic2oc2_iw70_kw2_sw4_pw1",
    "mb1_g2_ic2oc4_id5ih9iw34_kd2kh3kw3_sd1sh2sw3_pd1ph1pw2_dd2dh1dw2",
    // both depthwise gradients in one pass (planes keep their size): uneven pads adding up to the reach, a
    // dilated width, multiplier 2, two samples (dy's q-space starts 2·17 + 3 floats into gradInput's box).
    "mb2_g3_ic3oc6_ih11iw13_kh4kw3_ph1:2pw1:3_dh1dw2",
    // depthwise gradWeight with x's phase boxes packed in pairs across (stride 2 across, both phases read): 3-D
    // strides 2×2×2 with an odd width (phase 0 one column longer) and a depth dilation; 1-D stride 2, no padding.
    "mb2_g2_ic2oc4_id7ih8iw33_kd3kh3kw3_sd2sh2sw2_pd1ph1pw1_dd2dh1dw1",
    "mb1_g3_ic3oc3_iw50_kw4_sw2_pw0",
    // ... with columns only one phase of a pair reads (packed one by one beside the pairs) on every row of a row phase:
    // odd widths, wider kernels and pads.
    "mb1_g3_ic3oc3_ih20iw21_kh3kw4_sh2sw2_ph1pw2",
    "mb1_g2_ic2oc2_ih16iw17_kh3kw5_sh2sw2_ph2pw2",
    // direct_data on wider groups (taps_channels: x channels in blocks sharing the dy loads): 16 x and 12 y channels
    // per group, two samples; 13 x per group (every block remainder) with uneven pads and a dilated width; 31 x per
    // group in 1-D.
    "mb2_g2_ic32oc24_ih9iw10_kh3kw3_ph1pw1",
    "mb1_g2_ic26oc10_ih7iw40_kh3kw2_ph1pw0:1_dh1dw2",
    "mb1_g3_ic93oc6_iw50_kw3_pw1",
    // gemm_weight_shifted reading FP32 dy rows in place where q-space has no junk: 1-D, two groups, two samples, K
    // blocks after the first (q0 > 0); 2-D whose rows are as wide as the box (a 3×1 kernel).
    "mb2_g2_ic6oc10_iw2048_kw3_pw1",
    "mb1_g1_ic2oc8_ih40iw40_kh3kw1_ph1pw0",
    // gemm_backward_data with position parts (fewer than 8 x planes): 1-D stride 5 over 3 tiles (3 parts, each
    // adding into its own plane, added in order); 2-D stride 2 with two samples (6 planes: 2 parts); a 1×1 layer
    // written in place (the parts write disjoint positions).
    "mb1_g1_ic1oc20_iw3000_kw10_sw5_pw2",
    "mb2_g1_ic3oc4_ih40iw40_kh3kw3_sh2sw2_ph1pw1",
    "mb1_g1_ic2oc40_ih30iw30_kh1kw1",
    // ... whose planes are zeroed and added over the x range each part reaches only: 3-D with three depths (parts
    // spanning depths: whole planes below), stride 3 over a 2×2 kernel with padding beyond it (rows no tap reaches),
    // uneven pads with dilation, and 1-D dilated (the reach within one row).
    "mb1_g1_ic2oc20_id6ih12iw12_kd3kh3kw3_sd2sh1sw1_pd2ph1pw1_dd2dh1dw1",
    "mb1_g1_ic3oc20_ih60iw33_kh2kw2_sh3sw3_ph3pw1",
    "mb2_g1_ic2oc12_ih33iw20_kh5kw3_ph0:4pw2:0_dh2dw1",
    "mb1_g1_ic1oc24_iw900_kw7_sw2_pw5_dw3",
    // ... and its weight packed whole (more than one K block of 256 y channels, several position tiles per item):
    // stride 2 with 300 y channels, and a 1×1 layer written in place with 260.
    "mb1_g1_ic6oc300_ih40iw50_kh3kw3_sh2sw2_ph1pw1",
    "mb1_g1_ic8oc260_ih20iw20_kh1kw1",
    // ... and with tap parts when the positions are one tile: a patchify (kernel = stride: the parts' taps write
    // disjoint positions) and a 5×5 kernel whose parts' taps overlap (added in order).
    "mb1_g1_ic3oc40_ih32iw32_kh8kw8_sh8sw8",
    "mb1_g1_ic2oc40_ih12iw12_kh5kw5_ph2pw2",
    // whole boxes packed at once (one window from the box's start): padding beyond the kernel's reach, whose flipped
    // problem (gemm_flipped_forward, the second choice) has negative pads that crop x's first row and column.
    "mb1_g1_ic4oc40_ih6iw7_kh3kw3_ph3pw3",
    // 3-D with one gradOutput row per depth whose q-space rows are wider than it (junk at the row ends): dy is not
    // its q-space, so gemm_weight_shifted must pack it (found by differential_fuzz: read in place, gradWeight wrong).
    "mb2_g1_ic3oc8_id6ih1iw9_kd2kh1kw3_pw1",
    "mb1_g1_ic3oc8_id8ih1iw15_kd2kh1kw2_sd2",
    // ... and a q-space of 16 (whole vectors of every ISA: read in place by the faulty rule everywhere).
    "mb1_g1_ic3oc8_id3ih1iw7_kd2kh1kw3_pw1",
    // depthwise 3×3 over the grid kernels (taps_3x3: a strip of 16 fits the rows; dot_taps_3x3: 8 or more wide):
    // both in one pass on 17 rows of 16 and on rows of 29 dilated across (partial strips, dc 2); a single row;
    // without padding (no shared pass: each gradient alone); two dy channels per x channel (gradInput's 18 terms
    // stay flat, gradWeight's per channel on the grid).
    "mb2_g3_ic3oc3_ih17iw16_kh3kw3_ph1pw1",
    "mb1_g4_ic4oc4_ih9iw29_kh3kw3_ph1pw2_dh1dw2",
    "mb1_g2_ic2oc2_ih1iw40_kh3kw3_ph1pw1",
    "mb1_g3_ic3oc3_ih15iw19_kh3kw3",
    "mb2_g2_ic2oc4_ih20iw23_kh3kw3_ph1pw1",
    // gemm_weight_shifted's transposed product (RA kernels: a group's output channels filling their panels, 16 on
    // AVX2 and 32 on AVX-512, at least 64 columns): 16 per group (AVX2 only), three samples (three K blocks in three
    // partial sums), 8 x channels (72 columns: a 6-row tile remainder); 64 in 1-D with dilation and uneven pads (four
    // AVX2 panels, two AVX-512 ones; 13 × 5 columns: remainders of 6 and 8 rows); 32 at stride 2 with an odd width
    // (phase boxes) over 1200 q positions (three K blocks of about 512).
    "mb3_g2_ic16oc32_ih9iw11_kh3kw3_ph1pw1",
    "mb1_g1_ic13oc64_iw60_kw5_pw3:1_dw2",
    "mb1_g1_ic8oc32_ih79iw61_kh3kw3_sh2sw2_ph1pw1",
    // ... where items sum one K block (tiles stored into dW transposed) and two (summed transposed in the slot, then
    // moved): 22 x channels in 1-D over 2600 positions, 6 K blocks in 4 parts; again with 16 output channels per
    // group (AVX-512's 16-wide kernel).
    "mb1_g1_ic22oc32_iw2600_kw3_pw1",
    "mb1_g2_ic44oc32_iw2600_kw3_pw1",
    // gemm_backward_data on FP32 dy planes of a page or more with 64 channels (its B panels packed, not read in
    // place: kMaxInPlaceBPages), stride 1 and stride 2.
    "mb1_g1_ic3oc64_ih40iw40_kh3kw3_ph1pw1",
    "mb2_g1_ic5oc70_ih70iw66_kh3kw3_sh2sw2_ph1pw1",
    // ... and 3 rows of 9 (q-space 31: one float short of whole vectors, so dot_taps_3x3's last strip reads past the
    // x box into dy's buffer).
    "mb1_g2_ic2oc2_ih3iw9_kh3kw3_ph1pw1",
    // gemm_backward_data with several samples' planes in one position tile (planes of at most half a tile): 30
    // positions and 300 y channels (two K blocks); 7² (five samples per AVX-512 tile, two per AVX2 one: a shorter
    // last run); stride 2 (y planes of 25, x planes of 81) with groups; 1-D; 3-D; a 1 × 1 layer (dcol is gradInput).
    "mb7_g1_ic10oc300_ih5iw6_kh3kw3_ph1pw1",
    "mb7_g1_ic24oc40_ih7iw7_kh3kw3_ph1pw1",
    "mb5_g2_ic8oc80_ih9iw9_kh3kw3_sh2sw2_ph1pw1",
    "mb9_g1_ic6oc40_iw30_kw3_pw1",
    "mb4_g1_ic5oc40_id3ih4iw4_kd3kh3kw3_pd1ph1pw1",
    "mb6_g1_ic9oc40_ih5iw6_kh1kw1",
    // The transposed gradInput (gemm_forward at a stride) with rows 16 wide: a panel of AVX-512's 32 positions spans
    // two rows (two copies per step), of AVX2's 16 one row; 9-wide rows, panels across rows copied run by run.
    "mb2_g1_ic9oc6_ih16iw16_kh4kw4_sh2sw2_ph1pw1_tr1",
    "mb2_g1_ic7oc6_ih5iw9_kh4kw4_sh2sw2_ph1pw1_tr1",
};

const char *const kPrecisions[] = {"_dtf32_cmt0", "_dtf32_cmt1", "_dtf16_cmt0", "_dtbf16_cmt0", "_dtf32_cmt2"};

TEST(ConformanceFastPaths, EveryBlockingRemainderInEveryPrecision) {
  for (const char *g : kGeometries) {
    for (const char *p : kPrecisions) {
      const std::string text = std::string(g) + p;
      EXPECT_TRUE(check_case(parse_case(text, Data::kRandom, 11))) << text;
    }
    EXPECT_TRUE(check_case(parse_case(std::string(g) + "_dtf32_cmt0", Data::kIntegers, 12))) << g;
  }
}

TEST(ConformanceFastPaths, EveryMaskAlone) {
  for (const char *g : {kGeometries[0], kGeometries[7], kGeometries[9], kGeometries[44], kGeometries[49]}) {
    for (const char *mask : {"_mask100", "_mask010", "_mask001", "_mask110", "_mask011"}) {
      const std::string text = std::string(g) + "_dtf32_cmt0" + mask;
      EXPECT_TRUE(check_case(parse_case(text, Data::kRandom, 13))) << text;
    }
  }
}

TEST(ConformanceFastPaths, NonContiguousViewsOnTheFastPaths) {
  for (const char *g : {kGeometries[0], kGeometries[4], kGeometries[7], kGeometries[9], kGeometries[13],
                        kGeometries[16], kGeometries[21], kGeometries[22], kGeometries[25]}) {
    ConvCase c = parse_case(std::string(g) + "_dtf32_cmt1", Data::kRandom, 14);
    const int rank = c.desc.spatial_rank + 2;
    std::vector<int> channels_last(rank);
    channels_last[0] = 0;
    for (int i = 1; i < rank - 1; ++i) channels_last[i] = i + 1;
    channels_last[rank - 1] = 1;
    for (int s = kGradInput; s < kSlots; ++s) {
      if (s != kGradBias) c.layout[s] = Layout{channels_last, s % 2 == 0 ? 2 : 1, s == kGradWeight ? 3 : 0};
    }
    EXPECT_TRUE(check_case(c)) << g;
  }
}

// gradInput whose planes are dense but lie further apart than a plane (channels outermost, then the samples): the
// GEMM paths that add into gradInput's planes where they lie must step by its channel stride.
TEST(ConformanceFastPaths, GradInputPlanesApartFromEachOther) {
  for (const char *g : {"mb2_g1_ic16oc24_ih9iw9_kh3kw3_sh2sw2_ph1pw1", "mb2_g2_ic32oc32_ih10iw10_kh3kw3_ph1pw1",
                        "mb3_g1_ic20oc12_id3ih5iw6_kd3kh3kw3_pd1ph1pw1", "mb2_g1_ic24oc40_iw30_kw3_sw2_pw1"}) {
    for (const char *mode : {"_dtf32_cmt0", "_dtf32_cmt1"}) {
      ConvCase c = parse_case(std::string(g) + mode, Data::kRandom, 16);
      const int rank = c.desc.spatial_rank + 2;
      std::vector<int> channels_first(rank);
      for (int i = 0; i < rank; ++i) channels_first[i] = i;
      std::swap(channels_first[0], channels_first[1]);
      c.layout[kGradInput] = Layout{channels_first, 1, 5};
      EXPECT_TRUE(check_case(c)) << g << mode;
    }
  }
}

// An FP16 / BF16 compute type rounds gradInput to itself before it is stored, also into an FP32 tensor: every value
// there must be one of that type's (an unrounded fp32 sum would pass the tolerance of check_case). Each GEMM and
// direct path that writes gradInput: stride 1 (GEMM + col2im; the second choice, the flipped forward GEMM, under
// the suite's skip lists), strided, 1×1 (written in place in FP32), transposed strided (phase windows) and 1×1,
// grouped (direct_data).
TEST(ConformanceFastPaths, GradInputRoundedToTheComputeTypeBeforeAnFp32Tensor) {
  for (const char *g : {"mb1_g1_ic20oc24_ih9iw9_kh3kw3_ph1pw1", "mb1_g1_ic20oc24_ih9iw9_kh3kw3_sh2sw2_ph1pw1",
                        "mb1_g1_ic20oc24_ih9iw9_kh1kw1", "mb1_g1_ic20oc24_ih9iw9_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1",
                        "mb1_g1_ic20oc24_ih9iw9_kh1kw1_tr1", "mb2_g4_ic8oc8_ih9iw9_kh3kw3_ph1pw1"}) {
    for (aclDataType type : {ACL_FLOAT16, ACL_BF16}) {
      const std::string d =
          type == ACL_FLOAT16 ? "_dtf16:f16:f16:f32:f32:f16_cmt0" : "_dtbf16:bf16:bf16:f32:f32:bf16_cmt0";
      const ConvCase c = parse_case(std::string(g) + d, Data::kRandom, 17);
      CaseTensors t(c);
      EXPECT_TRUE(check_case(c, t)) << g << d;
      int64_t off = 0;
      for (int64_t i = 0; i < t.t[kGradInput].numel(); ++i) {
        const double v = t.t[kGradInput].get(i);
        if (round_to(type, v) != v && ++off <= 3) ADD_FAILURE() << g << d << ": gradInput[" << i << "] = " << v;
      }
      EXPECT_EQ(off, 0) << g << d;
    }
  }
}

// gemm_backward_data with several samples' planes in one position tile: each sample's gradInput is bitwise what a call
// of that sample alone gives (one plane per tile), in every precision whose gradInput goes through the GEMM; the
// plan of the whole batch says it put several samples in a tile (their planes are at most 30 positions, half of the
// smallest tile of any ISA's kernel; 64 x channels make several blocks of them, whose BF16 dy pairs are then made once
// for all blocks, staged in the slots). Under an ACLNN_CPU_ALGO setting (ctest's conformance_reference) the plan may
// take another algorithm: the bits are still compared.
TEST(ConformanceFastPaths, SamplesSharingATileGiveEachSampleAlonesBits) {
  const char *const geometries[] = {
      "mb7_g1_ic10oc300_ih5iw6_kh3kw3_ph1pw1",      "mb5_g2_ic8oc80_ih5iw5_kh3kw3_ph1pw1",
      "mb5_g2_ic8oc80_ih9iw9_kh3kw3_sh2sw2_ph1pw1", "mb9_g1_ic6oc40_iw30_kw3_pw1",
      "mb6_g1_ic64oc40_ih5iw6_kh3kw3_ph1pw1",       "mb6_g1_ic9oc40_ih5iw6_kh1kw1_dtbf16"};
  const char *algo = std::getenv("ACLNN_CPU_ALGO");
  const bool own_choice = algo == nullptr || *algo == '\0';
  const std::vector<std::string> precisions = {"_dtf32_cmt0", "_dtf32_cmt1", "_dtf16_cmt0", "_dtbf16_cmt0"};
  for (const char *g : geometries) {
    // The 1 × 1 layer names its dtype: FP32 gradInput of 1 × 1 layers takes other paths.
    const bool own_dtype = std::string(g).find("_dt") != std::string::npos;
    for (const std::string &p : own_dtype ? std::vector<std::string>{""} : precisions) {
      const std::string text = std::string(g) + p + "_mask100";
      const ConvCase c = parse_case(text, Data::kRandom, 18);
      CaseTensors batch(c);
      const aclnn_cpu::conv_bwd::Plan plan =
          aclnn_cpu::conv_bwd::make_plan(build_problem(c, batch), aclnn_cpu::conv_bwd::current_plan_context());
      if (own_choice) {
        EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(plan).find("_samples_per_tile"), std::string::npos)
            << text << ": " << aclnn_cpu::conv_bwd::describe_plan(plan);
      }
      std::string error;
      ASSERT_EQ(run_direct(c, batch, &error), 0) << error;
      const int64_t samples = batch.t[kGradOutput].shape()[0];
      const std::string one = "mb1" + text.substr(text.find('_'));
      for (int64_t n = 0; n < samples; ++n) {
        const ConvCase c1 = parse_case(one, Data::kRandom, 18);
        CaseTensors alone(c1);
        for (int slot : {kGradOutput, kInput}) {
          const int64_t per = alone.t[slot].numel();
          for (int64_t i = 0; i < per; ++i) alone.t[slot].set(i, batch.t[slot].get(n * per + i));
        }
        for (int64_t i = 0; i < alone.t[kWeight].numel(); ++i) alone.t[kWeight].set(i, batch.t[kWeight].get(i));
        ASSERT_EQ(run_direct(c1, alone, &error), 0) << error;
        const int64_t per = alone.t[kGradInput].numel();
        const size_t bytes = element_bytes(alone.t[kGradInput].dtype());
        int64_t differ = 0;
        for (int64_t i = 0; i < per; ++i) {
          differ += std::memcmp(alone.t[kGradInput].element(i), batch.t[kGradInput].element(n * per + i), bytes) != 0;
        }
        EXPECT_EQ(differ, 0) << text << ": sample " << n << "'s gradInput differs from the sample alone's in " << differ
                             << " of " << per << " elements";
      }
    }
  }
}

class ConformanceFastPathsDeterminism : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = aclnn_cpu::settings().num_threads; }
  void TearDown() override { aclnn_cpu::set_num_threads(saved_); }

 private:
  int saved_ = 0;
};

TEST_F(ConformanceFastPathsDeterminism, PartialSumsAndItemHandOutDoNotChangeBits) {
  for (const char *g :
       {kGeometries[0], kGeometries[2], kGeometries[4], kGeometries[7], kGeometries[10], kGeometries[13],
        kGeometries[15], kGeometries[17], kGeometries[22], kGeometries[23], "mb1_g1_ic1oc20_iw3000_kw10_sw5_pw2",
        "mb2_g1_ic3oc4_ih40iw40_kh3kw3_sh2sw2_ph1pw1", "mb1_g1_ic2oc40_ih12iw12_kh5kw5_ph2pw2"}) {
    const ConvCase c = parse_case(std::string(g) + "_dtf32_cmt0", Data::kRandom, 15);
    std::vector<unsigned char> first;
    for (int threads : {1, 2, 3, 2, 1}) {
      aclnn_cpu::set_num_threads(threads);
      CaseTensors t(c);
      std::string error;
      ASSERT_EQ(run_direct(c, t, &error), 0) << error;
      std::vector<unsigned char> out;
      for (int s = kGradInput; s < kSlots; ++s) out.insert(out.end(), t.t[s].bytes().begin(), t.t[s].bytes().end());
      if (first.empty()) {
        first = out;
      } else {
        EXPECT_EQ(first, out) << g << " with " << threads << " threads";
      }
    }
  }
}

}  // namespace
}  // namespace conformance
