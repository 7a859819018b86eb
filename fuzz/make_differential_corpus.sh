#!/usr/bin/env bash
# Writes the seed corpus of differential_fuzz (fuzz/corpus/differential/) in the input encoding documented at the top
# of fuzz/differential_fuzz.cpp. The generated files are committed; re-run this after changing the encoding.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/corpus/differential"
mkdir -p "$out"

# emit NAME HEXBYTES...: writes the bytes (spaces ignored) to $out/NAME.
emit() {
  local name=$1; shift
  local hex; hex=$(echo "$*" | tr -d ' \n')
  printf "$(echo "$hex" | sed 's/\(..\)/\\x\1/g')" > "$out/$name"
}

# Header: shape groups cx cy mask dtypes precision run data seed_lo seed_hi [2 dtype bytes for modes 3-5],
# then D, H, W (kernel/stride/dilation, pads, size/outputPadding), then 6 layout bytes, then specials.

# CANN's documentation sample: [2,2,7,7] x [2,2,1,1], cubeMathType 1 (HF32), 910B; random data.
emit sample_2d \
  01 00 02 02 07 00 01 00 00 01 00   00 00 00  00 00 06  00 00 06   00 00 00 00 00 00

# 1-D, groups 2, 3 -> 4 channels per group, kernel 3 stride 2 dilation 2, pad 1, integers, 2 threads for R.
emit conv1d_groups_strided \
  00 03 04 06 07 00 00 10 01 07 00   00 00 00  00 00 00  26 01 05   00 00 00 00 00 00

# 2-D asymmetric pads (4-value padding), kernel 3x2, stride 2x1, FP16, cubeMathType 2, AVX2 cap.
emit conv2d_asym_pads_fp16 \
  22 00 03 04 07 01 02 01 00 02 00   00 00 00  02 21 05  01 10 04   00 00 00 00 00 00

# 3-D, kernel 2, stride 2, dilation 1, BF16 on Ascend950, scalar cap, mask 101.
emit conv3d_bf16_950 \
  02 00 02 03 05 02 08 02 00 03 00   05 01 02  05 00 03  05 01 01   00 00 00 00 00 00

# Transposed 2-D, stride 2, outputPadding 1, groups 2, mixed dtypes on 910B, HF32 cubeMathType 3.
emit transposed_2d_mixed \
  04 03 02 02 07 03 03 00 00 04 00   24 39   00 00 00  04 01 12  04 01 13   00 00 00 00 00 00

# Depthwise 2-D (groups 4, one channel each), permuted + gapped + offset views of every tensor.
emit depthwise_strided_views \
  01 0e 00 06 07 00 01 04 00 05 00   00 00 00  02 01 04  02 01 05   23 47 6b 87 a3 0f

# Empty: mb 0, 2-D, everything requested.
emit empty_batch \
  19 00 02 02 07 00 00 00 00 06 00   00 00 00  01 00 02  01 00 02   00 00 00 00 00 00

# HIFLOAT8 transposed gradInput + gradWeight (FLOAT) on the 950.
emit hif8_transposed \
  04 00 02 02 03 06 08 00 00 07 00   00 00 00  01 00 02  05 01 02   00 00 00 00 00 00

# FLOAT8_E4M3FN gradInput only, saturating, 2-D kernel 3.
emit e4m3_grad_input \
  01 00 02 03 01 16 08 00 00 08 00   00 00 00  02 01 03  02 01 03   00 00 00 00 00 00

# Legacy product (Ascend910, FP16 cube), 1-D long row, gradWeight only with gradInput left out.
emit legacy_weight_only \
  00 00 05 05 0a 01 0e 00 00 09 00   00 00 00  00 00 00  02 01 0e   00 00 00 00 00 00

# NaN and Inf in the inputs, integers, 2-D.
emit nan_inf_integers \
  01 00 02 02 07 00 00 00 11 0a 00   00 00 00  02 01 03  02 01 03   00 00 00 00 00 00   00 03 00  01 07 01

# Wide channels (17 -> 16 per group) through the microkernel remainders, 1-D.
emit wide_channels_1d \
  00 00 0c 0b 07 00 00 00 00 0b 00   00 00 00  00 00 00  01 00 03   00 00 00 00 00 00

# Regression (found by a 360 s campaign, -seed=7): one gradInput element, 16 HF32 products of mixed sign that cancel;
# the fp32 result was within its element bound but 1.7e-5 off in relative l2, which the harness then checked on a
# single element (it now needs 16).
emit regression_l2_one_cancelling_element \
  61 77 61 4b a5 a5 a5 6f 00 00 7a 00 00 00 00 00 00 00 1f 0e 81 00 05 00 00 00 00 00 29 4f 2c fd ff

# Extreme attributes (groups bit4): each dim's bytes seed decode_extreme_dim. 2-D: H a stride at INT64_MAX, W a
# dilation of 10^18 with the pads that cancel it; 1-D transposed a stride of 2^62 with pads; 3-D pairs on a line
# (stride 10^18, dilation 10^18 − 1..3) in W; 2-D asymmetric pads with a stride of 10^18.
emit extreme_2d_stride_dilation \
  01 10 02 03 07 00 00 00 00 0b 00   00 00 00  1e 05 11  32 07 23   00 00 00 00 00 00
emit extreme_1d_transposed_stride \
  04 10 02 02 07 00 00 00 00 0c 00   00 00 00  00 00 00  55 03 1a   00 00 00 00 00 00
emit extreme_3d_line \
  02 10 02 02 07 02 00 00 00 0d 00   00 00 00  00 01 02  71 09 2b   00 00 00 00 00 00
emit extreme_2d_asymmetric_pads \
  21 10 02 02 07 00 00 00 01 0e 00   00 00 00  52 33 09  51 a7 31   00 00 00 00 00 00

# Regression (found by a 300 s campaign, -seed=13, the day dy rows were first read in place): 3-D gradWeight with
# gradOutput 2 × 1 × 1 — one row per depth, but its q-space row is 2 wide (junk at ow = 1), so dy is not its q-space;
# gemm_weight_shifted read it in place and got gradWeight element 0 wrong.
emit regression_dy_rows_in_place_3d \
  23 07 37 0b 23 00 0c 2c 00 00 00 0b 00 02 00 00 00 01 00 00 00 00 77 2a 24 00 30 60 40 00 0c 0b 00
