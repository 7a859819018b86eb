#!/usr/bin/env bash
# Builds and runs every test, one CMake workflow preset after the other:
#   release  GoogleTest suites, CANN-compatibility tests (install, exports, headers, link lines, dlsym), examples
#   asan     the same, built with ASan + UBSan (LeakSanitizer included)
#   fuzz     clang libFuzzer targets under ASan + UBSan, each run with a fixed seed and a fixed number of runs
#   tsan     the threaded suites (runtime, executors, compute pool, determinism, concurrency, faults, soak) under
#            clang's ThreadSanitizer
#   aarch64  the cross build for aarch64 Linux; its tests labelled qemu (conformance under each ISA cap, kernels,
#            CANN compatibility, examples) under qemu-aarch64
# Usage: scripts/test.sh [preset...]   (default: release asan fuzz tsan aarch64; on an aarch64 host, where release
# is the native aarch64 build, without the cross one). Build trees: build/<preset>.
# First installs the Debian packages the tests need when they are missing (as root; otherwise it prints the command
# and stops before building): scripts/packages.txt.
# Ends with one line "summary: N passed, M failed" over all presets; exits non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/packages.sh test

presets=("$@")
if [[ ${#presets[@]} -eq 0 ]]; then
  presets=(release asan fuzz tsan)
  [[ $HOSTTYPE == aarch64 ]] || presets+=(aarch64)
fi

mkdir -p build/logs
passed=0
failed=0
broken=()
for preset in "${presets[@]}"; do
  echo "=== aclnn-cpu: workflow preset '${preset}' (configure, build, test) ==="
  log="build/logs/${preset}.log"
  start=$SECONDS
  if ! cmake --workflow --preset "${preset}" 2>&1 | tee "${log}"; then
    broken+=("${preset}")
  fi
  # ctest's own closing line: "NN% tests passed, F tests failed out of T".
  result=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "${log}" | tail -n 1 || true)
  if [[ -n ${result} ]]; then
    total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"${result}")
    bad=$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"${result}")
    passed=$((passed + total - bad))
    failed=$((failed + bad))
  fi
  echo "=== aclnn-cpu: '${preset}' took $((SECONDS - start)) s"
done

if [[ ${#broken[@]} -gt 0 ]]; then
  echo "failed presets (configure, build or tests): ${broken[*]}"
fi
echo "summary: ${passed} passed, ${failed} failed"
[[ ${#broken[@]} -eq 0 ]]
