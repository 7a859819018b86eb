#!/usr/bin/env bash
# Writes the seed corpus of validator_fuzz (fuzz/corpus/validator/) in the input encoding documented at the top of
# fuzz/validator_fuzz.cpp. The generated files are committed; re-run this after changing the encoding.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/corpus/validator"
mkdir -p "$out"

# emit NAME HEXBYTES...: writes the bytes (spaces ignored) to $out/NAME.
emit() {
  local name=$1; shift
  local hex; hex=$(echo "$*" | tr -d ' \n')
  printf "$(echo "$hex" | sed 's/\(..\)/\\x\1/g')" > "$out/$name"
}

# Header: soc flags(bit0 strict, bit1 transposed, bit2 phase 2, bit3 fit gradOutput) deterministic cubeMathType
# groups.
# Tensor: kind rank dtype format dims... offset   (kind 01: our buffer, 41: aclrtMalloc, 81: short aclrtMalloc,
#         09: explicit strides; dtype 00 FLOAT, 01 FLOAT16, 03 HIFLOAT8; format 00 NCHW, 01 ND, 02 NCL, 03 NCDHW).
# Int array: 01 count values...; bool array: 01 count bits. Numbers 0-7 are themselves, 8-55 are B8+n, B0-BF the
# cancelling values near the int64 limits (B0 = 10^18), F4 INT64_MAX.

# The CANN documentation sample: [2,2,7,7] x [2,2,1,1], cubeMathType 1, 910B, run.
emit seed_sample_2d \
  00 04 00 01 01 \
  41 04 00 00 02 02 07 07 00   41 04 00 00 02 02 07 07 00   41 04 00 00 02 02 01 01 00 \
  01 04 00 00 02 02 07 07 00   01 04 00 00 02 02 01 01 00   01 01 00 01 02 00 \
  01 01 02   01 02 01 01   01 02 00 00   01 02 01 01   01 02 00 00   01 03 07

# 1-D: gradOutput [4,2,3], input [4,2,9], weight [2,2,3], stride 3, NCL, cubeMathType 0.
emit conv1d_stride3 \
  00 04 00 00 01 \
  41 03 00 02 04 02 03 00   41 03 00 02 04 02 C1 00   41 03 00 02 02 02 03 00 \
  41 03 00 02 04 02 C1 00   41 03 00 02 02 02 03 00   41 01 00 01 02 00 \
  01 01 02   01 01 03   01 01 00   01 01 01   01 01 00   01 03 07

# 3-D: [2,2,7,7,7] x [2,2,1,1,1], NCDHW.
emit conv3d_pointwise \
  00 04 00 01 01 \
  41 05 00 03 02 02 07 07 07 00   41 05 00 03 02 02 07 07 07 00   41 05 00 03 02 02 01 01 01 00 \
  41 05 00 03 02 02 07 07 07 00   41 05 00 03 02 02 01 01 01 00   41 01 00 01 02 00 \
  01 01 02   01 03 01 01 01   01 03 00 00 00   01 03 01 01 01   01 03 00 00 00   01 03 07

# Transposed 2-D: input [1,2,3,3], weight [2,3,2,2] -> gradOutput [1,3,4,4].
emit transposed_2d \
  00 06 00 00 01 \
  41 04 00 00 01 03 04 04 00   41 04 00 00 01 02 03 03 00   41 04 00 00 02 03 02 02 00 \
  41 04 00 00 01 02 03 03 00   41 04 00 00 02 03 02 02 00   41 01 00 01 03 00 \
  01 01 03   01 02 01 01   01 02 00 00   01 02 01 01   01 02 00 00   01 03 07

# Empty batch: N = 0 takes the empty-tensor path.
emit empty_batch \
  00 04 00 01 01 \
  41 04 00 00 00 02 07 07 00   41 04 00 00 00 02 07 07 00   41 04 00 00 02 02 01 01 00 \
  41 04 00 00 00 02 07 07 00   41 04 00 00 02 02 01 01 00   41 01 00 01 02 00 \
  01 01 02   01 02 01 01   01 02 00 00   01 02 01 01   01 02 00 00   01 03 07

# FLOAT16, groups 2, gradWeight not requested (mask 1,0,1 and NULL gradWeight), deterministic on.
emit fp16_groups2_mask101 \
  00 04 01 00 02 \
  41 04 01 00 01 04 05 05 00   41 04 01 00 01 04 05 05 00   41 04 01 00 04 02 01 01 00 \
  41 04 01 00 01 04 05 05 00   00                           41 01 01 01 04 00 \
  01 01 04   01 02 01 01   01 02 00 00   01 02 01 01   01 02 00 00   01 03 05

# Strict mode on Ascend950 with HIFLOAT8 tensors, kernel 3, padding 1, stride 2, dilation 2.
emit strict_950_hifloat8 \
  02 05 00 00 01 \
  41 04 03 00 01 03 02 02 00   41 04 03 00 01 02 06 06 00   41 04 03 00 03 02 03 03 00 \
  41 04 03 00 01 02 06 06 00   41 04 00 00 03 02 03 03 00   41 01 03 01 03 00 \
  01 01 03   01 02 02 02   01 02 01 01   01 02 02 02   01 02 00 00   01 03 07

# Overflowing and absurd values: dims INT64_MAX and 2^40, huge offset, NULL arrays, wrong mask length.
emit absurd_values \
  01 00 02 FF F4 \
  41 04 00 00 F4 F8 07 07 F3   81 04 00 00 02 F9 F9 F9 00   01 04 00 00 F0 02 01 01 00 \
  00   00   00 \
  00   02 05   01 02 F3 F4   01 02 FA FA   03 00   01 05 1F

# Strided input view (explicit strides and offset) in an allocation it overruns; gradBias in NCHW.
emit strided_view_overrun \
  03 04 01 03 01 \
  41 04 00 00 02 02 07 07 00   89 04 00 00 02 02 07 07 C9 C1 01 02 05   41 04 00 00 02 02 01 01 00 \
  41 04 00 00 02 02 07 07 00   41 04 00 00 02 02 01 01 00   41 01 00 00 02 00 \
  01 01 02   01 02 01 01   01 02 00 00   01 02 01 01   01 02 00 00   01 03 07
# Fitted gradOutput (flags bit3) with attributes from the far end of the range, run in phase 2. The report's call:
# input [2,3,6,6], weight [4,3,3,3], stride [INT64_MAX, 1].
emit fitted_stride_int64_max \
  00 0c 00 00 01 \
  41 04 00 00 02 04 01 04 00   41 04 00 00 02 03 06 06 00   41 04 00 00 04 03 03 03 00 \
  41 04 00 00 02 03 06 06 00   41 04 00 00 04 03 03 03 00   41 01 00 01 04 00 \
  01 01 04   01 02 F4 01   01 02 00 00   01 02 01 01   01 02 00 00   01 03 07

# 1-D: stride and padding 10^18 (only the middle output position reads input); dilation and padding 10^18.
emit fitted_1d_stride_pad_1e18 \
  00 0c 00 00 01 \
  41 03 00 02 01 03 03 00   41 03 00 02 01 02 06 00   41 03 00 02 03 02 03 00 \
  41 03 00 02 01 02 06 00   41 03 00 02 03 02 03 00   41 01 00 01 03 00 \
  01 01 03   01 01 B0   01 01 B0   01 01 01   01 01 00   01 03 07
emit fitted_1d_dilation_pad_1e18 \
  00 0c 00 00 01 \
  41 03 00 02 01 03 06 00   41 03 00 02 01 02 06 00   41 03 00 02 03 02 03 00 \
  41 03 00 02 01 02 06 00   41 03 00 02 03 02 03 00   41 01 00 01 03 00 \
  01 01 03   01 01 01   01 01 B0   01 01 B0   01 01 00   01 03 07

# Transposed 1-D: input [1,2,4], weight [2,3,3], dilation and padding 10^18: gradOutput [1,3,4].
emit fitted_transposed_dilation_pad_1e18 \
  00 0e 00 00 01 \
  41 03 00 02 01 03 04 00   41 03 00 02 01 02 04 00   41 03 00 02 02 03 03 00 \
  41 03 00 02 01 02 04 00   41 03 00 02 02 03 03 00   41 01 00 01 03 00 \
  01 01 03   01 01 01   01 01 B0   01 01 B0   01 01 00   01 03 07

echo "wrote $(ls "$out" | wc -l) seeds to $out"
