// The plan made at GetWorkspaceSize: algorithm lists with refusal reasons, kernel choice, exact workspace.
#include "conv_bwd/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "conformance_harness.hpp"
#include "conv_bwd/execute.hpp"
#include "core/config.hpp"
#include "core/isa.hpp"

namespace {

using namespace conformance;

using aclnn_cpu::Isa;
using aclnn_cpu::conv_bwd::Algorithm;
using aclnn_cpu::conv_bwd::common_blocking;
using aclnn_cpu::conv_bwd::DataBlocking;
using aclnn_cpu::conv_bwd::ForwardBlocking;
using aclnn_cpu::conv_bwd::make_plan;
using aclnn_cpu::conv_bwd::Plan;
using aclnn_cpu::conv_bwd::PlanContext;
using aclnn_cpu::conv_bwd::ShiftedWeightBlocking;
using aclnn_cpu::conv_bwd::WeightBlocking;

PlanContext context(Isa isa, int threads, bool reference_only = false) {
  PlanContext ctx;
  ctx.isa = isa;
  ctx.threads = threads;
  ctx.reference_only = reference_only;
  return ctx;
}

// Whether this build has `isa`'s kernels: an architecture's own only (kernel_isas.hpp). Tests of plans whose
// expectations name or size another architecture's kernels skip, saying so.
bool built_for(Isa isa) { return aclnn_cpu::conv_bwd::gemm_ukernel(isa).isa == isa; }
#define ACLNN_CPU_SKIP_UNLESS_BUILT(isa) \
  if (!built_for(isa))                   \
  GTEST_SKIP() << "this build has no " << aclnn_cpu::isa_name(isa) << " kernels (another architecture's)"

Plan plan_of(const std::string &desc, const PlanContext &ctx) {
  const ConvCase c = parse_case(desc);
  CaseTensors t(c);
  return make_plan(build_problem(c, t), ctx);
}

TEST(Plan, ReferenceOnlyStagesTheOperandsItReads) {
  // gradInput stages gradOutput [2,6,5,7] and weight [6,2,3,2]: 420 + 72 floats, each block 64-byte aligned.
  const Plan p = plan_of("mb2_g2_ic4oc6_ih7iw8_kh3kw2_mask100", context(Isa::kScalar, 1, true));
  EXPECT_EQ(p.grad_input.algorithm, Algorithm::kReference);
  ASSERT_EQ(p.grad_input.refusals.size(), 5u);
  EXPECT_EQ(p.grad_input.refusals[0], "direct_data: ACLNN_CPU_ALGO=reference");
  EXPECT_EQ(p.grad_input.refusals[1], "gemm_pointwise_data: ACLNN_CPU_ALGO=reference");
  EXPECT_EQ(p.grad_input.refusals[2], "gemm_backward_data: ACLNN_CPU_ALGO=reference");
  EXPECT_EQ(p.grad_weight.algorithm, Algorithm::kNone);
  EXPECT_EQ(p.bytes, 1728u + 320u);
}

TEST(Plan, StridedGradInputIsGemmPlusCol2imWithSlotScratchOnly) {
  // Scalar kernel 4×8: Cx_g 2, Cy_g 3, 6 taps, x plane 56, tile 64 positions, 2 channels per item; y planes of 12
  // positions, so 5 samples share a tile (DataBlocking::samples_per_tile) and an item adds into their planes:
  // A 12·256 + B 64·256 + dcol 2·6·64 + tmp 8·64 (kPackStepBlock steps) + planes 5·2·56 = 21296 floats = 85184
  // bytes, one slot.
  const char *desc = "mb6_g2_ic4oc6_ih7iw8_kh3kw2_sh2sw2_mask100";
  const Plan p = plan_of(desc, context(Isa::kScalar, 1));
  EXPECT_EQ(p.grad_input.algorithm, Algorithm::kGemmBackwardData);
  ASSERT_EQ(p.grad_input.refusals.size(), 2u);
  EXPECT_EQ(p.grad_input.refusals[0],
            "direct_data: 2x3 channels per group: beyond depthwise, takes at most 32 each, at stride 1");
  EXPECT_EQ(p.grad_input.refusals[1],
            "gemm_pointwise_data: not pointwise: needs a 1x1 kernel at stride 1 without padding");
  // Without it, the flipped forward GEMM refuses a stride > 1 and the reference is left.
  PlanContext without = context(Isa::kScalar, 1);
  without.disabled = ",gemm_backward_data,";
  const Plan r = plan_of(desc, without);
  EXPECT_EQ(r.grad_input.algorithm, Algorithm::kReference);
  ASSERT_EQ(r.grad_input.refusals.size(), 5u);
  EXPECT_EQ(r.grad_input.refusals[2], "gemm_backward_data: disabled by ACLNN_CPU_ALGO");
  EXPECT_EQ(r.grad_input.refusals[3],
            "gemm_flipped_forward: stride 1x2x2 is not 1 (the flipped forward relation would read inserted zeros)");
  EXPECT_EQ(p.grad_input.blocking<DataBlocking>().samples_per_tile, 5);
  EXPECT_EQ(common_blocking(p.grad_input.config)->slot_floats, 21296);
  EXPECT_EQ(p.slots, 1);
  // Two runs of samples read each group's weight: its A panels are packed once in the shared area (DataBlocking::
  // shared_weight), 2 groups · round_up(12 rows · 3 steps, 16) = 96 floats, before the slot.
  ASSERT_TRUE(p.grad_input.blocking<DataBlocking>().shared_weight.on());
  EXPECT_EQ(common_blocking(p.grad_input.config)->shared_floats, 96);
  EXPECT_EQ(p.bytes, 384u + 85184u);
  EXPECT_STREQ(p.kernels.nn->name, "gemm_f32_4x8__scalar");
  // Two threads: two slots of the same size, still no staging.
  const Plan q = plan_of(desc, context(Isa::kScalar, 2));
  EXPECT_EQ(q.slots, 2);
  EXPECT_EQ(q.bytes, 384u + 2 * 85184u);
}

TEST(Plan, StrideOneGradInputFallsBackToTheFlippedForwardGemm) {
  // Flipped problem: M = Cx_g 2 (4 with the kernel's MR), K = Cy_g·taps 18, in the shifted layout: dy's padded box
  // 9 × 9 (7 + 2 rows, 8 + 1 columns), q_len 6·9 + 8 = 62 → one tile of 64 positions, last shift 2·9 + 1 = 19.
  // Shared: the weight in A panels, 2 groups · 4 · 18 = 144 floats = 576 bytes. Slot: C 2·64 + windows 3·(64 + 19)
  // + 6 tap offsets (int64: 13 floats with the alignment) = 390 floats (the windows are read in place as B: no B
  // panels).
  PlanContext ctx = context(Isa::kScalar, 1);
  ctx.disabled = ",direct_data,gemm_pointwise_data,gemm_backward_data,";
  const Plan p = plan_of("mb2_g2_ic4oc6_ih7iw8_kh3kw2_mask100", ctx);
  EXPECT_EQ(p.grad_input.algorithm, Algorithm::kGemmFlippedForward);
  ASSERT_EQ(p.grad_input.refusals.size(), 3u);
  EXPECT_TRUE(p.grad_input.blocking<ForwardBlocking>().shifted);
  EXPECT_EQ(p.grad_input.blocking<ForwardBlocking>().tile, 64);
  EXPECT_EQ(common_blocking(p.grad_input.config)->shared_floats, 144);
  EXPECT_EQ(common_blocking(p.grad_input.config)->slot_floats, 390);
  EXPECT_EQ(p.bytes, 576u + 1600u);
  EXPECT_EQ(p.grad_input.blocking<ForwardBlocking>().rows_per_item, 2);
  // Long weight rows are cut into L2-sized items: 600 gradOutput channels · 9 taps = 5400 floats per row, 131072 /
  // 5400 = 24 rows (a multiple of MR 4) per item, so 30 x channels take 2 row chunks.
  const Plan big = plan_of("mb1_g1_ic30oc600_ih6iw6_kh3kw3_ph1pw1_mask100", ctx);
  EXPECT_EQ(big.grad_input.algorithm, Algorithm::kGemmFlippedForward);
  EXPECT_EQ(big.grad_input.blocking<ForwardBlocking>().rows_per_item, 24);
  // A 1×1 kernel has nothing to shift: im2col runs are plain copies there.
  EXPECT_FALSE(plan_of("mb2_g2_ic4oc6_ih7iw8_kh1kw1_mask100", ctx).grad_input.blocking<ForwardBlocking>().shifted);
}

TEST(Plan, GradWeightUsesShiftedRowsAtAnyStride) {
  // Scalar NT kernel 2×2, 1 lane. y 8×8 (x 9×9, pads 1:2 / 0, kernel 3×2, dilation 2×1): padded box Hp 8 + 4 = 12,
  // Wp 8 + 1 = 9; q_len = 7·9 + 8 = 71 (one K block of 71), last shift 4·9 + 1 = 37, window 108 floats.
  // Cy_g 3 (4 rows with MR), Cx_g 2 channels per item (one item per group, so it packs its own dy rows): slot 4·71 +
  // 2·108 + 13 = 513 floats. Partials: 1 part · 2 groups · 3 · (2·6) = 72 floats. (The 13: the 6 taps' row offsets,
  // int64, and their alignment.)
  const char *desc = "mb1_g2_ic4oc6_ih9iw9_kh3kw2_ph1:2pw0_dh2dw1_mask010";
  const Plan p = plan_of(desc, context(Isa::kScalar, 1));
  EXPECT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  ASSERT_EQ(p.grad_weight.refusals.size(), 1u);
  EXPECT_EQ(p.grad_weight.blocking<ShiftedWeightBlocking>().kc, 71);
  EXPECT_EQ(p.grad_weight.blocking<ShiftedWeightBlocking>().k_parts, 1);
  EXPECT_EQ(p.grad_weight.blocking<ShiftedWeightBlocking>().channels_per_item, 2);
  EXPECT_FALSE(p.grad_weight.blocking<ShiftedWeightBlocking>().shared_dy);
  EXPECT_EQ(common_blocking(p.grad_weight.config)->slot_floats, 513);
  EXPECT_EQ(common_blocking(p.grad_weight.config)->shared_floats, 72);
  EXPECT_EQ(p.bytes, 320u + 2112u);  // 72 and 513 floats, each rounded up to 64 bytes
  // 16 x channels on two threads: items of 8 channels (one per thread) read the same K block, so its dy rows
  // (q-space with junk: Wp 9 > 8 columns) are packed once into the shared area: 1 K block · 6 rows · 71 = 426 floats
  // after the partials (1 part · 6 · (16·6) = 576 floats, on a 64-byte boundary). Slot 8·108 + 13 = 877 floats, two
  // slots.
  const Plan ps = plan_of("mb1_g1_ic16oc6_ih9iw9_kh3kw2_ph1:2pw0_dh2dw1_mask010", context(Isa::kScalar, 2));
  EXPECT_EQ(ps.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  EXPECT_EQ(ps.grad_weight.blocking<ShiftedWeightBlocking>().channels_per_item, 8);
  EXPECT_TRUE(ps.grad_weight.blocking<ShiftedWeightBlocking>().shared_dy);
  EXPECT_EQ(common_blocking(ps.grad_weight.config)->slot_floats, 877);
  EXPECT_EQ(common_blocking(ps.grad_weight.config)->shared_floats, 576 + 426);
  EXPECT_EQ(ps.slots, 2);
  EXPECT_EQ(ps.bytes, 4032u + 2 * 3520u);  // 1002 floats, then two slots of 877, each rounded up to 64 bytes
  // A stride splits x into phase boxes: stride 2 in W (y 7×4, kernel 3×2): 2 phases of 9 × 4 (Wp = 4 + 0: both
  // W taps land at offset 0 of their phase), q_len 6·4 + 4 = 28, last shift 2·4 = 8. q-space is y's plane (Wp = 4
  // columns), so each item packs its dy rows (FP32 reads them in place): slot 4·28 + 2 channels · 2 phases ·
  // (28 + 8) + 13 + one x row of 9 (the phase pair's decoded row) = 278 floats.
  const Plan q = plan_of("mb1_g2_ic4oc6_ih9iw9_kh3kw2_sh1sw2_mask010", context(Isa::kScalar, 1));
  EXPECT_EQ(q.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  EXPECT_FALSE(q.grad_weight.blocking<ShiftedWeightBlocking>().shared_dy);
  EXPECT_EQ(q.grad_weight.blocking<ShiftedWeightBlocking>().kc, 28);
  EXPECT_EQ(common_blocking(q.grad_weight.config)->slot_floats, 278);
  // One tap per phase (1×1 stride 2) shares nothing: the im2col GEMM takes it, with the reason.
  const Plan r = plan_of("mb1_g1_ic4oc6_ih9iw9_kh1kw1_sh2sw2_mask010", context(Isa::kScalar, 1));
  EXPECT_EQ(r.grad_weight.algorithm, Algorithm::kGemmWeight);
  ASSERT_EQ(r.grad_weight.refusals.size(), 2u);
  EXPECT_EQ(r.grad_weight.refusals[1],
            "gemm_weight_shifted: stride 1x2x2: 1 taps over 1 stride phases (fewer than 2 per phase: no x value to "
            "share)");
}

TEST(Plan, GradWeightTakesTheRaKernelWhereOutputChannelsFillItsPanelsAndColumnsAreMany) {
  ACLNN_CPU_SKIP_UNLESS_BUILT(Isa::kAvx512);
  // ResNeXt's 14² layer on AVX2: 16 output channels per group fill one panel of 16, 16 x channels × 9 taps = 144
  // columns; q-space 14 rows of 16 = 224 (one K block). One thread: a whole group per item, each transposing its own
  // dy block. Slot: 16 windows of 224 + 34 = 258 floats, the 9-tap table (19), then the RA areas: 16 dy rows (16 ·
  // 224) and the transposed block (16 · 224): 4128 + 19 + 3584 + 3584 = 11315 floats (the kernel stores its tiles
  // into dW's rows transposed).
  const char *rnx = "mb1_g32_ic512oc512_ih14iw14_kh3kw3_ph1pw1_mask010";
  const Plan p = plan_of(rnx, context(Isa::kAvx2, 1));
  EXPECT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  EXPECT_TRUE(p.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_EQ(p.grad_weight.blocking<ShiftedWeightBlocking>().kc, 224);
  EXPECT_EQ(p.grad_weight.blocking<ShiftedWeightBlocking>().channels_per_item, 16);
  EXPECT_FALSE(p.grad_weight.blocking<ShiftedWeightBlocking>().shared_dy);
  EXPECT_EQ(common_blocking(p.grad_weight.config)->slot_floats, 11315);
  EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(p).find("gradWeight=gemm_weight_shifted:gemm_ra_f32_6x16__avx2_fma"),
            std::string::npos);
  // AVX-512's panels are 32 wide, or 16 for 16 channels per group (its narrow kernel); the scalar ISA has no RA
  // kernel.
  const Plan p512 = plan_of(rnx, context(Isa::kAvx512, 1));
  EXPECT_TRUE(p512.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(p512).find("gemm_ra_f32_8x16__avx512f"), std::string::npos);
  EXPECT_FALSE(plan_of(rnx, context(Isa::kScalar, 1)).grad_weight.blocking<ShiftedWeightBlocking>().ra);
  // ResNet's stem at two threads: its 4 K parts split evenly, so an item takes all 3 x channels (4 items, each
  // transposing its own dy blocks) rather than one (12 items streaming dy from the shared area).
  const Plan stem = plan_of("mb1_g1_ic3oc64_ih224iw224_kh7kw7_sh2sw2_ph3pw3_mask010", context(Isa::kAvx2, 2));
  EXPECT_TRUE(stem.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_EQ(stem.grad_weight.blocking<ShiftedWeightBlocking>().k_parts, 4);
  EXPECT_EQ(stem.grad_weight.blocking<ShiftedWeightBlocking>().channels_per_item, 3);
  EXPECT_EQ(common_blocking(stem.grad_weight.config)->items, 4);
  EXPECT_FALSE(stem.grad_weight.blocking<ShiftedWeightBlocking>().shared_dy);
  const Plan wide512 = plan_of("mb1_g1_ic64oc64_ih14iw14_kh3kw3_ph1pw1_mask010", context(Isa::kAvx512, 1));
  EXPECT_TRUE(wide512.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(wide512).find("gemm_ra_f32_8x32__avx512f"), std::string::npos);
  // Items reading the same K block (64 x channels on two threads) share it, transposed once: the shared area holds
  // the partials, then 1 block · 32 rows · kc 80 (8 rows of 8 + 2 columns).
  const Plan shared = plan_of("mb1_g1_ic64oc32_ih8iw8_kh3kw3_ph1pw1_mask010", context(Isa::kAvx2, 2));
  EXPECT_TRUE(shared.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_LT(shared.grad_weight.blocking<ShiftedWeightBlocking>().channels_per_item, 64);
  EXPECT_TRUE(shared.grad_weight.blocking<ShiftedWeightBlocking>().shared_dy);
  EXPECT_EQ(shared.grad_weight.blocking<ShiftedWeightBlocking>().kc, 80);
  EXPECT_EQ(common_blocking(shared.grad_weight.config)->shared_floats, (32 * 64 * 9 + 15) / 16 * 16 + 32 * 80);
  // Long planes in K blocks of about 512: 56 · 58 = 3248 in 7 blocks of 464; at stride 2 too (ResNet's 3×3 s2).
  const Plan wide = plan_of("mb1_g1_ic64oc64_ih56iw56_kh3kw3_ph1pw1_mask010", context(Isa::kAvx2, 1));
  EXPECT_TRUE(wide.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_EQ(wide.grad_weight.blocking<ShiftedWeightBlocking>().kc, 464);
  EXPECT_TRUE(plan_of("mb1_g1_ic128oc128_ih56iw56_kh3kw3_sh2sw2_ph1pw1_mask010", context(Isa::kAvx2, 1))
                  .grad_weight.blocking<ShiftedWeightBlocking>()
                  .ra);
  // Not: rows that do not fill the panels (24 of 16), one tap, fewer than 64 columns (a stem's 3 channels × 9).
  EXPECT_FALSE(plan_of("mb1_g1_ic64oc24_ih14iw14_kh3kw3_ph1pw1_mask010", context(Isa::kAvx2, 1))
                   .grad_weight.blocking<ShiftedWeightBlocking>()
                   .ra);
  EXPECT_FALSE(plan_of("mb1_g1_ic64oc64_ih20iw20_kh1kw1_mask010", context(Isa::kAvx2, 1))
                   .grad_weight.blocking<ShiftedWeightBlocking>()
                   .ra);
  EXPECT_FALSE(plan_of("mb1_g1_ic3oc32_ih56iw56_kh3kw3_sh2sw2_ph1pw1_mask010", context(Isa::kAvx2, 1))
                   .grad_weight.blocking<ShiftedWeightBlocking>()
                   .ra);
}

// Small planes of many channels: one short K block per sample, where gemm_weight's product over every sample's
// positions is faster (kShiftedSmallPlane in gemm_algorithms.hpp); fewer channels or larger planes keep the shifted
// product.
TEST(Plan, GradWeightLeavesSmallPlanesOfManyChannelsToGemmWeight) {
  const Plan p = plan_of("mb8_g1_ic512oc512_ih7iw7_kh3kw3_ph1pw1_mask010", context(Isa::kScalar, 2));
  EXPECT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeight);
  ASSERT_GE(p.grad_weight.refusals.size(), 2u);
  EXPECT_EQ(p.grad_weight.refusals[1],
            "gemm_weight_shifted: planes of 49 positions (at most 100) with 512 x 512 channels per group (from 131072 "
            "pairs): short K blocks");
  EXPECT_EQ(plan_of("mb8_g1_ic512oc256_ih10iw10_kh3kw3_ph1pw1_mask010", context(Isa::kScalar, 2)).grad_weight.algorithm,
            Algorithm::kGemmWeight);
  for (const char *kept :
       {"mb8_g1_ic256oc256_ih7iw7_kh3kw3_ph1pw1_mask010", "mb8_g1_ic512oc512_ih11iw11_kh3kw3_ph1pw1_mask010",
        "mb8_g4_ic1024oc512_ih7iw7_kh3kw3_ph1pw1_mask010"}) {
    EXPECT_EQ(plan_of(kept, context(Isa::kScalar, 2)).grad_weight.algorithm, Algorithm::kGemmWeightShifted) << kept;
  }
}

// ResNet-50's stage-4 1×1 expansion (7² positions: gemm_weight's NN form) has 16 column panels of 32; its dW of 2^20
// floats is summed in one K part, of 7 blocks of 5 samples (the last of 2). From 4 threads on, where the columns give
// fewer than two items per thread, the items also cut dW's rows (evenly, whole MR tiles); at 1-2 threads they keep
// all 2048 rows.
TEST(Plan, GradWeightCutsRowsWhenColumnsGiveTooFewItemsForTheThreads) {
  ACLNN_CPU_SKIP_UNLESS_BUILT(Isa::kAvx512);
  const char *desc = "mb32_g1_ic512oc2048_ih7iw7_kh1kw1_mask010";
  for (int threads : {1, 2, 16, 64}) {
    const Plan p = plan_of(desc, context(Isa::kAvx512, threads));
    ASSERT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeight) << threads;
    const WeightBlocking &b = p.grad_weight.blocking<WeightBlocking>();
    EXPECT_EQ(b.k_parts, 1) << threads;
    EXPECT_EQ(b.samples_per_block, 5) << threads;
    const int64_t column_items = 512 / b.cols_per_item, rows = 2048 / b.rows_per_item;
    EXPECT_EQ(b.items, column_items * rows) << threads;
    EXPECT_EQ(b.rows_per_item % 8, 0) << threads;
    if (threads <= 2) {
      EXPECT_EQ(b.rows_per_item, 2048) << threads;
    } else {
      EXPECT_GE(b.items, 2 * threads) << threads;
    }
  }
  // gemm_weight_shifted likewise, in whole panels of its RA kernel: ResNet's 3 × 3 at 56² has 64 output channels, two
  // panels of 32 (AVX-512).
  for (int threads : {2, 64}) {
    const Plan p = plan_of("mb32_g1_ic64oc64_ih56iw56_kh3kw3_ph1pw1_mask010", context(Isa::kAvx512, threads));
    ASSERT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeightShifted) << threads;
    const ShiftedWeightBlocking &b = p.grad_weight.blocking<ShiftedWeightBlocking>();
    ASSERT_TRUE(b.ra) << threads;
    const int64_t column_items = b.k_parts * ((64 + b.channels_per_item - 1) / b.channels_per_item);
    EXPECT_EQ(b.rows_per_item, threads == 2 ? 64 : 32) << threads;
    EXPECT_EQ(b.items, column_items * (64 / b.rows_per_item)) << threads;
  }
  // Rows cut so that the items' rounds over the threads waste little: ResNet's 3 × 3 512 at 7², mini-batch 32, on 64
  // threads had 48 column chunks × 3 row chunks of 176 rows, 3 rounds for 2.25 items' work (the busiest thread 1.375×
  // the mean).
  for (int threads : {16, 64}) {
    const Plan p = plan_of("mb32_g1_ic512oc512_ih7iw7_kh3kw3_ph1pw1_mask010", context(Isa::kAvx512, threads));
    ASSERT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeight) << threads;
    const WeightBlocking &b = p.grad_weight.blocking<WeightBlocking>();
    const int64_t column_items = b.k_parts * ((512 * 9 + b.cols_per_item - 1) / b.cols_per_item);
    const int64_t row_items = (512 + b.rows_per_item - 1) / b.rows_per_item;
    ASSERT_EQ(b.items, column_items * row_items) << threads;
    const double busiest = static_cast<double>((b.items + threads - 1) / threads * b.rows_per_item);
    const double mean = static_cast<double>(column_items * 512) / threads;
    EXPECT_LE(busiest, 1.1 * mean) << threads << " threads: " << column_items << " column chunks, rows per item "
                                   << b.rows_per_item;
  }
}

TEST(Plan, DepthwiseLayersGetTheDirectRowAlgorithms) {
  // One x channel per group, multiplier 2: both outputs by rows. Stride 1: the shifted layout; gradWeight's slot
  // is x's box (q_len 8·11 + 9 = 97, to whole vectors 112, plus the last shift 2·11 + 2 = 24) + dy's q-space (the
  // whole 11·11 box) + 2·9 taps · 16 lanes.
  const Plan p = plan_of("mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph1pw1", context(Isa::kScalar, 1));
  EXPECT_EQ(p.grad_input.algorithm, Algorithm::kDirectData);
  EXPECT_EQ(p.grad_weight.algorithm, Algorithm::kDepthwiseWeight);
  EXPECT_EQ(common_blocking(p.grad_weight.config)->items, 8);
  EXPECT_EQ(common_blocking(p.grad_weight.config)->slot_floats, 136 + 121 + 2 * 9 * 16);
  EXPECT_STREQ(p.kernels.rows->name, "rows_f32__scalar");
  // A transposed call's gradInput is the forward relation; 16 y channels per group are a GEMM's M.
  const Plan t = plan_of("mb1_g8_ic8oc8_ih6iw6_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1_mask110", context(Isa::kScalar, 1));
  EXPECT_EQ(t.grad_input.algorithm, Algorithm::kGemmForward);
  EXPECT_EQ(t.grad_weight.algorithm, Algorithm::kDepthwiseWeight);
  // Stride 2 (canonical x: the 12·12 gradOutput; y: the 6·6 input; pad 1): x's four phase boxes of 7·7 (q_len
  // 5·7 + 6 = 41, to 48, plus the last shift 7 + 1 = 8) + dy's q-space (the whole 7·7 box) + 9 taps · 16 lanes +
  // the 6 x rows of 12 of one row phase (the phase boxes are packed in pairs across, from decoded rows when not read
  // in place).
  EXPECT_EQ(common_blocking(t.grad_weight.config)->slot_floats, 4 * 56 + 49 + 9 * 16 + 6 * 12);
  // gradInput at stride 2 by x's stride phases (x 9·9, pad 1: taps at u −1 and 0, phase rows Z = 5): dy's boxes of
  // 6·6 for the 2 dy channels (q_len 4·6 + 5 = 29, to 32, plus the last shift 6 + 1 = 7) + 4 phase planes of 32 +
  // the weight rows and the terms' weights (2·9 each) + the dx rows of one row phase (5 of 9).
  const Plan d = plan_of("mb2_g8_ic8oc16_ih9iw9_kh3kw3_sh2sw2_ph1pw1_mask100", context(Isa::kScalar, 1));
  EXPECT_EQ(d.grad_input.algorithm, Algorithm::kDirectData);
  EXPECT_EQ(common_blocking(d.grad_input.config)->slot_floats, 2 * 39 + 4 * 32 + 2 * 2 * 9 + 5 * 9);
  const Plan w = plan_of("mb1_g2_ic2oc32_ih9iw9_kh3kw3_ph1pw1_mask010", context(Isa::kScalar, 1));
  EXPECT_EQ(w.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  ASSERT_FALSE(w.grad_weight.refusals.empty());
  EXPECT_EQ(w.grad_weight.refusals[0], "depthwise_weight: 16 y channels per group, above 8 (a GEMM's M)");
}

// Both depthwise gradients in one pass when the planes keep their size (stride 1, pads adding up to the kernel's
// reach, uneven allowed). The same layer as above: x box 136 + per dy channel a buffer of 136 (q-space 121 after the
// flipped problem's leading pads 11 + 1, and gradInput's box: q 112 + last shift 24) + 2·9 taps · 16 lanes + dx's
// q-space 112 + the terms and weight rows (2·9 each): 844 floats, 3392 bytes with the 64-byte rounding.
TEST(Plan, DepthwiseBothOutputsInOnePassWhenThePlanesKeepTheirSize) {
  const Plan p = plan_of("mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph1pw1", context(Isa::kScalar, 1));
  EXPECT_TRUE(p.depthwise_fused);
  EXPECT_EQ(p.slot_bytes, 3392u);
  EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(p).find(" fused=depthwise_both "), std::string::npos);
  EXPECT_TRUE(
      plan_of("mb1_g3_ic3oc3_ih9iw10_kh4kw3_ph1:2pw1:3_dh1dw2_mask110", context(Isa::kScalar, 1)).depthwise_fused);
  for (const char *other : {"mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph1pw1_mask101",
                            "mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph1pw1_mask011", "mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph0pw1",
                            "mb2_g8_ic8oc16_ih9iw9_kh3kw3_sh2sw2_ph1pw1", "mb2_g4_ic8oc16_ih9iw9_kh3kw3_ph1pw1"}) {
    EXPECT_FALSE(plan_of(other, context(Isa::kScalar, 1)).depthwise_fused) << other;
  }
  PlanContext skip = context(Isa::kScalar, 1);
  skip.disabled = ",depthwise_both,";
  const Plan q = plan_of("mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph1pw1", skip);
  EXPECT_FALSE(q.depthwise_fused);
  EXPECT_EQ(q.grad_input.algorithm, Algorithm::kDirectData);
  EXPECT_EQ(q.grad_weight.algorithm, Algorithm::kDepthwiseWeight);
}

// The fused pass gives the bits of the separate ones, gradBias's included (the same sums in the same order), on every
// ISA here, in FP32 and BF16, with multipliers, dilation, uneven pads, 1-D and 3-D, and channels-last views.
TEST(Plan, DepthwiseFusedPassKeepsTheBitsOfTheSeparatePasses) {
  for (const char *g : {"mb2_g8_ic8oc16_ih9iw9_kh3kw3_ph1pw1", "mb1_g3_ic3oc6_ih11iw13_kh4kw3_ph1:2pw1:3_dh1dw2",
                        "mb2_g4_ic4oc4_iw70_kw5_pw2", "mb1_g3_ic3oc3_id5ih6iw7_kd3kh3kw3_pd1ph1pw1",
                        "mb2_g4_ic4oc4_ih9iw17_kh3kw3_ph1pw1"}) {
    for (const char *dt : {"_dtf32", "_dtbf16"}) {
      for (bool channels_last : {false, true}) {
        ConvCase c = parse_case(std::string(g) + dt, Data::kRandom, 31);
        if (channels_last) {
          const int rank = c.desc.spatial_rank + 2;
          std::vector<int> order(rank);
          order[0] = 0;
          for (int i = 1; i < rank - 1; ++i) order[i] = i + 1;
          order[rank - 1] = 1;
          for (int s : {kGradOutput, kInput, kGradInput}) c.layout[s] = Layout{order, 1, 0};
        }
        for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kNeon}) {
          if (!aclnn_cpu::isa_includes(aclnn_cpu::usable_isa(), isa)) continue;
          std::vector<unsigned char> out[2];
          for (int fused = 0; fused < 2; ++fused) {
            CaseTensors t(c);
            const aclnn_cpu::conv_bwd::Problem p = build_problem(c, t);
            PlanContext ctx = context(isa, 2);
            if (fused == 0) ctx.disabled = ",depthwise_both,";
            const Plan plan = make_plan(p, ctx);
            ASSERT_EQ(plan.depthwise_fused, fused == 1) << g;
            std::vector<unsigned char> ws(plan.bytes);
            ASSERT_EQ(aclnn_cpu::conv_bwd::execute(p, plan, ws.data(), ws.size()), 0) << g;
            for (int s : {kGradInput, kGradWeight, kGradBias}) {
              out[fused].insert(out[fused].end(), t.t[s].bytes().begin(), t.t[s].bytes().end());
            }
          }
          EXPECT_EQ(out[0], out[1]) << g << dt << (channels_last ? " channels-last" : "") << " isa "
                                    << aclnn_cpu::isa_name(isa);
        }
      }
    }
  }
}

// Grouped layers at stride 1 by rows up to 32 channels per group on both sides; above 8, only with two groups or more
// (a group is direct_data's one item). The slot holds dx's q-space for each of the group's x channels.
TEST(Plan, DirectDataTakesUpTo32ChannelsPerGroupAboveEightOnlyWithGroups) {
  const Plan p = plan_of("mb1_g2_ic64oc64_ih9iw9_kh3kw3_ph1pw1_mask100", context(Isa::kScalar, 1));
  EXPECT_EQ(p.grad_input.algorithm, Algorithm::kDirectData);
  // 32 × q (8·11 + 9 = 97, to 112) + 32 dy boxes of 112 + 24 + 32·32·9 terms + 32·9 weights.
  EXPECT_EQ(common_blocking(p.grad_input.config)->slot_floats, 32 * 112 + 32 * 136 + 32 * 32 * 9 + 32 * 9);
  EXPECT_EQ(plan_of("mb1_g1_ic8oc8_ih9iw9_kh3kw3_ph1pw1_mask100", context(Isa::kScalar, 1)).grad_input.algorithm,
            Algorithm::kDirectData);
  const Plan one = plan_of("mb1_g1_ic16oc16_ih9iw9_kh3kw3_ph1pw1_mask100", context(Isa::kScalar, 1));
  EXPECT_NE(one.grad_input.algorithm, Algorithm::kDirectData);
  ASSERT_FALSE(one.grad_input.refusals.empty());
  EXPECT_EQ(one.grad_input.refusals[0],
            "direct_data: 16x16 channels in one group: above 8 each it takes two groups or more (a group is one item)");
  const Plan wide = plan_of("mb1_g2_ic66oc20_ih9iw9_kh3kw3_ph1pw1_mask100", context(Isa::kScalar, 1));
  ASSERT_FALSE(wide.grad_input.refusals.empty());
  EXPECT_EQ(wide.grad_input.refusals[0],
            "direct_data: 33x10 channels per group: beyond depthwise, takes at most 32 each, at stride 1");
}

// gemm_backward_data on fewer than 8 x planes cuts the positions into parts with their own planes in the shared
// area (or its taps, when the positions are one tile), decided by the problem alone: wav2vec's one plane of 16000
// over 13 tiles of 256 → 4 parts at any thread count; 8 planes → one part, planes per item in the slot.
TEST(Plan, FewXPlanesCutTheirPositionsIntoPartsWhateverTheThreads) {
  ACLNN_CPU_SKIP_UNLESS_BUILT(Isa::kAvx512);
  for (int threads : {1, 2, 3}) {
    const Plan p = plan_of("mb1_g1_ic1oc512_iw16000_kw10_sw5_mask100", context(Isa::kAvx512, threads));
    ASSERT_EQ(p.grad_input.algorithm, Algorithm::kGemmBackwardData);
    EXPECT_EQ(p.grad_input.blocking<DataBlocking>().position_parts, 4) << threads;
    EXPECT_EQ(common_blocking(p.grad_input.config)->items, 4) << threads;
    EXPECT_EQ(common_blocking(p.grad_input.config)->shared_floats, 4 * 16000) << threads;
    EXPECT_EQ(p.grad_input.blocking<DataBlocking>().kc, 512)
        << threads;  // 3 or 4 tiles per item: its 10 × 512 weight packed whole
  }
  // ViT's patchify: 196 positions are one tile, so its 3 channels' 256 taps are cut into 4 parts (an even number:
  // 12 items).
  const Plan vit = plan_of("mb1_g1_ic3oc768_ih224iw224_kh16kw16_sh16sw16_mask100", context(Isa::kAvx512, 2));
  ASSERT_EQ(vit.grad_input.algorithm, Algorithm::kGemmBackwardData);
  EXPECT_EQ(vit.grad_input.blocking<DataBlocking>().position_parts, 1);
  EXPECT_EQ(vit.grad_input.blocking<DataBlocking>().tap_parts, 4);
  EXPECT_EQ(common_blocking(vit.grad_input.config)->items, 12);
  EXPECT_EQ(common_blocking(vit.grad_input.config)->shared_floats, 4 * 3 * 224 * 224);
  EXPECT_EQ(vit.grad_input.blocking<DataBlocking>().kc, 256);  // one tile per item: its weight packed block by block
  // An RGB stem: 3 planes in 4 position parts, all 3 channels per item at one thread and at two (4 items).
  for (int threads : {1, 2}) {
    const Plan stem = plan_of("mb1_g1_ic3oc64_ih224iw224_kh7kw7_sh2sw2_ph3pw3_mask100", context(Isa::kAvx2, threads));
    ASSERT_EQ(stem.grad_input.algorithm, Algorithm::kGemmBackwardData);
    EXPECT_EQ(stem.grad_input.blocking<DataBlocking>().position_parts, 4) << threads;
    EXPECT_EQ(stem.grad_input.blocking<DataBlocking>().channels_per_item, 3) << threads;
    EXPECT_EQ(common_blocking(stem.grad_input.config)->items, 4) << threads;
  }
  const Plan many = plan_of("mb1_g1_ic8oc64_ih32iw32_kh3kw3_ph1pw1_mask100", context(Isa::kAvx512, 2));
  ASSERT_EQ(many.grad_input.algorithm, Algorithm::kGemmBackwardData);
  EXPECT_EQ(many.grad_input.blocking<DataBlocking>().position_parts, 1);
  EXPECT_EQ(common_blocking(many.grad_input.config)->shared_floats, 0);
  // A 1×1 layer (dcol is gradInput): 4 position parts whatever the planes and the threads, no x planes anywhere.
  for (int threads : {1, 2}) {
    const Plan one = plan_of("mb1_g1_ic64oc256_ih56iw56_kh1kw1_mask100", context(Isa::kAvx2, threads));
    ASSERT_EQ(one.grad_input.algorithm, Algorithm::kGemmBackwardData);
    EXPECT_EQ(one.grad_input.blocking<DataBlocking>().position_parts, 4) << threads;
    EXPECT_EQ(one.grad_input.blocking<DataBlocking>().channels_per_item, 64) << threads;
    EXPECT_EQ(common_blocking(one.grad_input.config)->shared_floats, 0) << threads;
  }
}

TEST(Plan, GradBiasNeedsItsSumsOnlyAndTheEmptyPathNothing) {
  // 6 channels: 24 bytes, aligned to 64.
  EXPECT_EQ(plan_of("mb2_g2_ic4oc6_ih7iw8_kh3kw2_mask001", context(Isa::kAvx2, 2)).bytes, 64u);
  EXPECT_EQ(plan_of("mb0_g2_ic4oc6_ih7iw8_kh3kw2_mask111", context(Isa::kAvx2, 2)).bytes, 0u);
}

TEST(Plan, TransposedGradInputIsTheForwardGemm) {
  ACLNN_CPU_SKIP_UNLESS_BUILT(Isa::kAvx2);
  const Plan p = plan_of("mb1_g1_ic16oc8_ih6iw6_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1_mask110", context(Isa::kAvx2, 2));
  EXPECT_EQ(p.grad_input.algorithm, Algorithm::kGemmForward);
  ASSERT_EQ(p.grad_input.refusals.size(), 4u);
  EXPECT_EQ(p.grad_input.refusals[0],
            "direct_data: 8x16 channels per group: beyond depthwise, takes at most 32 each, at stride 1");
  EXPECT_EQ(p.grad_input.refusals[1], "gemm_pointwise_data: transposed call: gradInput is the forward relation");
  EXPECT_EQ(p.grad_input.refusals[2], "gemm_backward_data: transposed call: gradInput is the forward relation");
  EXPECT_EQ(p.grad_input.refusals[3], "gemm_flipped_forward: transposed call: gradInput is the forward relation");
  EXPECT_EQ(p.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  EXPECT_STREQ(p.kernels.nn->name, "gemm_f32_6x16__avx2_fma");
  // At stride 2 its B comes from phase windows: two threads cut its 6 × 6 positions into tiles of 32 (two panels);
  // the first ends at (5, 1), q-space 5·7 + 1 = 36 in the 7-wide boxes, and with the largest shift, 8, its windows
  // are 45 floats.
  EXPECT_EQ(p.grad_input.blocking<ForwardBlocking>().tile, 32);
  EXPECT_EQ(p.grad_input.blocking<ForwardBlocking>().phase_window, 45);
  EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(p).find("gradInput=gemm_forward:gemm_f32_6x16__avx2_fma+phases"),
            std::string::npos);
  // Stride 1 keeps the shifted layout, and a 1×1 kernel at stride 2 im2col (one tap: nothing to share).
  EXPECT_EQ(plan_of("mb1_g1_ic16oc8_ih6iw6_kh3kw3_ph1pw1_tr1_mask100", context(Isa::kAvx2, 2))
                .grad_input.blocking<ForwardBlocking>()
                .phase_window,
            0);
  EXPECT_EQ(plan_of("mb1_g1_ic3oc5_ih4iw4_kh1kw1_sh2sw2_tr1_oph1opw1_mask100", context(Isa::kAvx2, 2))
                .grad_input.blocking<ForwardBlocking>()
                .phase_window,
            0);
}

TEST(Plan, OutputsSharingOperandMemoryGetTheReference) {
  const ConvCase c = parse_case("mb1_g1_ic4oc4_ih5iw5_kh1kw1_mask100");
  CaseTensors t(c);
  aclnn_cpu::conv_bwd::Problem p = build_problem(c, t);
  p.grad_input.data = p.grad_output.data;  // in place: same shape [1,4,5,5]
  const Plan plan = make_plan(p, context(Isa::kAvx2, 2));
  EXPECT_EQ(plan.grad_input.algorithm, Algorithm::kReference);
  ASSERT_EQ(plan.grad_input.refusals.size(), 5u);
  EXPECT_NE(plan.grad_input.refusals[1].find("shares memory"), std::string::npos);
  EXPECT_GT(plan.staging.bytes, 0u);
}

TEST(Plan, EveryFastAlgorithmCanBeSkippedByNameAndTyposAreRejected) {
  // The registry also runs this binary with ACLNN_CPU_ALGO set: restore it for the tests that follow.
  const char *saved = std::getenv("ACLNN_CPU_ALGO");
  const std::string saved_value = saved ? saved : "";
  std::string error;
  std::vector<std::string> names = {aclnn_cpu::conv_bwd::kDepthwiseBothName};
  for (Algorithm a : {Algorithm::kDirectData, Algorithm::kDepthwiseWeight, Algorithm::kGemmPointwiseData,
                      Algorithm::kGemmBackwardData, Algorithm::kGemmFlippedForward, Algorithm::kGemmForward,
                      Algorithm::kGemmWeightShifted, Algorithm::kGemmWeight}) {
    names.push_back(aclnn_cpu::conv_bwd::algorithm_name(a));
  }
  for (const std::string &name : names) {
    const std::string value = "-" + name;
    ASSERT_EQ(setenv("ACLNN_CPU_ALGO", value.c_str(), 1), 0);
    EXPECT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << value << ": " << error;
    EXPECT_NE(aclnn_cpu::settings().disabled_algorithms.find("," + value.substr(1) + ","), std::string::npos);
  }
  for (const char *bad : {"-gemm_wieght", "-gemm_weight,", "-gemm_weight,gemm_forward", "-", "gemm_weight"}) {
    ASSERT_EQ(setenv("ACLNN_CPU_ALGO", bad, 1), 0);
    EXPECT_FALSE(aclnn_cpu::load_settings_from_env(&error)) << bad;
    EXPECT_NE(error.find("ACLNN_CPU_ALGO"), std::string::npos) << error;
  }
  if (saved) {
    setenv("ACLNN_CPU_ALGO", saved_value.c_str(), 1);
  } else {
    unsetenv("ACLNN_CPU_ALGO");
  }
  ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
}

TEST(Plan, MisalignedDataGetsTheReference) {
  // Planes of 400 positions: gemm_weight_shifted takes the 1×1 kernel (kShiftedOneTapMinPlane).
  const ConvCase c = parse_case("mb1_g1_ic4oc4_ih20iw20_kh1kw1_mask110");
  CaseTensors t(c);
  aclnn_cpu::conv_bwd::Problem p = build_problem(c, t);
  p.input.data = static_cast<char *>(p.input.data) + 1;  // an FP32 tensor at an odd address (never read here)
  const Plan plan = make_plan(p, context(Isa::kAvx2, 1));
  EXPECT_EQ(plan.grad_weight.algorithm, Algorithm::kReference);
  ASSERT_FALSE(plan.grad_weight.refusals.empty());
  ASSERT_EQ(plan.grad_weight.refusals.size(), 3u);
  EXPECT_EQ(plan.grad_weight.refusals[1], "gemm_weight_shifted: a tensor's data is not aligned to its element size");
  EXPECT_EQ(plan.grad_weight.refusals[2], "gemm_weight: a tensor's data is not aligned to its element size");
}

TEST(Plan, OnlyCallsOfAFewMultiplyAddsRunOnTheCaller) {
  // The seed problem: 2·2·49 gradOutput elements, 2 x channels per group, 1 tap: 392 per output, 196 for gradBias.
  const Plan seed = plan_of("mb2_g1_ic2oc2_ih7iw7_kh1kw1", context(Isa::kScalar, 2));
  EXPECT_EQ(seed.macs, 392.0 + 392.0 + 196.0);
  EXPECT_TRUE(seed.on_caller);
  const Plan dx_only = plan_of("mb2_g1_ic2oc2_ih7iw7_kh1kw1_mask100", context(Isa::kScalar, 2));
  EXPECT_EQ(dx_only.macs, 392.0);
  // 8·8·16·16 = 16 384 gradOutput elements × 8 channels × 9 taps, twice: far past the limit.
  const Plan layer = plan_of("mb1_g1_ic8oc8_ih16iw16_kh3kw3_ph1pw1", context(Isa::kScalar, 2));
  EXPECT_EQ(layer.macs, 2.0 * 2048 * 72 + 2048);
  EXPECT_FALSE(layer.on_caller);
}

TEST(Plan, KernelFollowsTheIsa) {
  using aclnn_cpu::conv_bwd::gemm_ukernel;
  EXPECT_STREQ(gemm_ukernel(Isa::kScalar).name, "gemm_f32_4x8__scalar");
  // Each architecture's own kernels where built; a level of the other architecture runs the portable ones.
  const bool x86 = built_for(Isa::kAvx2), neon = built_for(Isa::kNeon);
  EXPECT_NE(x86, neon) << "one architecture's kernels per build";
  EXPECT_STREQ(gemm_ukernel(Isa::kAvx2).name, x86 ? "gemm_f32_6x16__avx2_fma" : "gemm_f32_4x8__scalar");
  EXPECT_STREQ(gemm_ukernel(Isa::kAvx512).name, x86 ? "gemm_f32_8x32__avx512f" : "gemm_f32_4x8__scalar");
  EXPECT_STREQ(gemm_ukernel(Isa::kNeon).name, neon ? "gemm_f32_6x16__neon" : "gemm_f32_4x8__scalar");
}

// The NEON kernels have AVX2's tiles (6 × 16 NN and RA), so their plans have AVX2's blocking (the numbers of
// GradWeightTakesTheRaKernel... and TransposedGradInputIsTheForwardGemm above) under their own names.
TEST(Plan, NeonPlansHaveTheBlockingOfAvx2sTiles) {
  ACLNN_CPU_SKIP_UNLESS_BUILT(Isa::kNeon);
  const Plan rnx = plan_of("mb1_g32_ic512oc512_ih14iw14_kh3kw3_ph1pw1_mask010", context(Isa::kNeon, 1));
  ASSERT_EQ(rnx.grad_weight.algorithm, Algorithm::kGemmWeightShifted);
  EXPECT_TRUE(rnx.grad_weight.blocking<ShiftedWeightBlocking>().ra);
  EXPECT_EQ(rnx.grad_weight.blocking<ShiftedWeightBlocking>().kc, 224);
  EXPECT_EQ(common_blocking(rnx.grad_weight.config)->slot_floats, 11315);
  EXPECT_NE(aclnn_cpu::conv_bwd::describe_plan(rnx).find("gradWeight=gemm_weight_shifted:gemm_ra_f32_6x16__neon"),
            std::string::npos);
  const Plan tr = plan_of("mb1_g1_ic16oc8_ih6iw6_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1_mask110", context(Isa::kNeon, 2));
  EXPECT_EQ(tr.grad_input.algorithm, Algorithm::kGemmForward);
  EXPECT_STREQ(tr.kernels.nn->name, "gemm_f32_6x16__neon");
  EXPECT_EQ(tr.grad_input.blocking<ForwardBlocking>().tile, 32);
  EXPECT_EQ(tr.grad_input.blocking<ForwardBlocking>().phase_window, 45);
}

}  // namespace

namespace {

using namespace conformance;

// ACLNN_CPU_VERBOSE=1: one line per call with the descriptor, compute format, algorithm:kernel per output,
// workspace and time.
// The ACLNN_CPU_VERBOSE=1 line of one call of `desc` with ACLNN_CPU_MAX_ISA = max_isa ("" for unset), the settings
// restored after.
std::string verbose_line(const char *desc, const char *max_isa) {
  const std::string names[2] = {"ACLNN_CPU_VERBOSE", "ACLNN_CPU_MAX_ISA"};
  std::string saved[2];
  bool had[2];
  for (int i = 0; i < 2; ++i) {
    const char *v = std::getenv(names[i].c_str());
    had[i] = v != nullptr;
    saved[i] = had[i] ? v : "";
  }
  setenv("ACLNN_CPU_VERBOSE", "1", 1);
  if (*max_isa != 0) {
    setenv("ACLNN_CPU_MAX_ISA", max_isa, 1);
  } else {
    unsetenv("ACLNN_CPU_MAX_ISA");
  }
  std::string error;
  EXPECT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  const ConvCase c = parse_case(desc, Data::kRandom, 5);
  CaseTensors t(c);
  ::testing::internal::CaptureStderr();
  const int status = run_direct(c, t, &error);
  const std::string out = ::testing::internal::GetCapturedStderr();
  for (int i = 0; i < 2; ++i) {
    if (had[i]) {
      setenv(names[i].c_str(), saved[i].c_str(), 1);
    } else {
      unsetenv(names[i].c_str());
    }
  }
  EXPECT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  EXPECT_EQ(status, 0) << desc << ": " << error;
  return out;
}

// Ordinary FP32, FP16 and BF16 layers name the kernels of the CPU's best level for every output (NEON's on aarch64),
// and under ACLNN_CPU_MAX_ISA=scalar the portable ones only.
TEST(PlanVerbose, NamesTheKernelsOfTheIsaAndOnlyPortableOnesUnderTheScalarCap) {
  const Isa best = aclnn_cpu::cpu_isa();
  if (best == Isa::kScalar) GTEST_SKIP() << "this CPU runs the portable kernels only";
  const char *suffix = best == Isa::kNeon ? "__neon" : best == Isa::kAvx2 ? "__avx2_fma" : "__avx512";
  for (const char *dt : {"f32", "f16", "bf16"}) {
    const std::string desc = std::string("mb2_g1_ic16oc32_ih14iw14_kh3kw3_ph1pw1_dt") + dt;
    const std::string best_line = verbose_line(desc.c_str(), "");
    EXPECT_NE(best_line.find(std::string("gradInput=")), std::string::npos) << best_line;
    for (const char *output : {"gradInput=", "gradWeight="}) {
      const size_t at = best_line.find(output);
      ASSERT_NE(at, std::string::npos) << output << " missing in " << best_line;
      const std::string field = best_line.substr(at, best_line.find_first_of(" ,", at) - at);
      EXPECT_NE(field.find(suffix), std::string::npos) << field << " in " << best_line;
    }
    EXPECT_EQ(best_line.find("__scalar"), std::string::npos) << best_line;
    const std::string scalar_line = verbose_line(desc.c_str(), "scalar");
    EXPECT_NE(scalar_line.find("__scalar"), std::string::npos) << scalar_line;
    for (const char *other : {"__neon", "__avx"}) {
      EXPECT_EQ(scalar_line.find(other), std::string::npos) << other << " in " << scalar_line;
    }
  }
}

TEST(PlanVerbose, OneLinePerCallNamesWhatRan) {
  const char *saved = std::getenv("ACLNN_CPU_VERBOSE");
  const std::string saved_value = saved ? saved : "";
  std::string error;
  ASSERT_EQ(setenv("ACLNN_CPU_VERBOSE", "1", 1), 0);
  ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  const ConvCase c = parse_case("mb1_g1_ic4oc6_ih9iw9_kh3kw3_ph1pw1_dtf32_cmt1_mask110", Data::kRandom, 3);
  CaseTensors t(c);
  ::testing::internal::CaptureStderr();
  const int status = run_direct(c, t, &error);
  const std::string out = ::testing::internal::GetCapturedStderr();
  if (saved) {
    setenv("ACLNN_CPU_VERBOSE", saved_value.c_str(), 1);
  } else {
    unsetenv("ACLNN_CPU_VERBOSE");
  }
  ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  ASSERT_EQ(status, 0) << error;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_EQ(out.rfind("aclnn_cpu_verbose,exec,mb1_g1_ic4oc6_ih9iw9_oh9ow9_kh3kw3", 0), 0u) << out;
  for (const char *part : {"_dtf32_mask110_cmt1_Ascend910B,", ",compute=hf32-11,", "gradInput=direct_data:rows_f32__",
                           " gradWeight=gemm_weight_shifted:gemm_nt_", " workspace=", ",ok,time_ms="}) {
    EXPECT_NE(out.find(part), std::string::npos) << part << " missing in " << out;
  }
}

}  // namespace
