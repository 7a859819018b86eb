#!/usr/bin/env bash
# Builds the release preset and runs the CANN documentation sample problem (examples/conv_backward_sample.cpp):
# aclnnConvolutionBackward on [2,2,7,7] x [2,2,1,1], all ones; expects gradInput 2, gradWeight 98, gradBias 98.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release --target conv_backward_sample
exec build/release/examples/conv_backward_sample
