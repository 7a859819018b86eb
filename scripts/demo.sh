#!/usr/bin/env bash
# The main job: builds the release preset and runs the demo driver on its default set (CANN's documentation
# sample problem, expecting gradInput 2, gradWeight 98, gradBias 98, then ResNet-like, 1-D, 3-D, depthwise,
# transposed, dilated and 8-bit layers), each checked against an independent fp64 reference.
# Installs the Debian packages it needs when they are missing (as root; otherwise it prints the command and stops).
# Arguments are passed to the driver, e.g. scripts/demo.sh mb8_g1_ic64oc64_ih56iw56_kh3kw3_sh1sw1_ph1pw1 --cmt=3
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/packages.sh demo
cmake --preset release >/dev/null
cmake --build --preset release --target aclnn_cpu_demo
exec build/release/driver/aclnn_cpu_demo "$@"
