#!/usr/bin/env bash
# One-command verification report. Runs, in this order, each stage that is selected:
#   release     configure + build the `release` preset, ctest without the PyTorch cross-check (conformance, unit,
#               CANN-compatibility, examples, the conformance suites under each ISA cap / algorithm list)
#   crosscheck  the PyTorch cross-check ctests (torch_crosscheck*) of the `release` build
#   fuzz        the `fuzz` preset: every libFuzzer target, fixed seed and run count, under ASan+UBSan
#   asan        the `asan` preset: all tests under ASan+UBSan+LSan
#   tsan        the `tsan` preset (ThreadSanitizer), when CMakePresets.json has one
#   bench       bench/aclnn_cpu_bench beside oneDNN (needs libdnnl-dev), geometric-mean ratios to oneDNN
# and writes a Markdown report with the figures of each stage, the machine and the time each stage took.
# Logs of every stage go next to the report (<report dir>/logs/). The exit status is 0 only if every selected
# stage passed (a stage that cannot run here — no tsan preset, no oneDNN, no torch — is reported, not failed).
# Details: docs/verification.md.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

all_stages=(release crosscheck fuzz asan tsan bench)
out=build/report/verification.md
jobs=$(nproc)
bench_args="--burst=8"
nice_level=""
only=""
skip=""

usage() {
  cat <<EOF
usage: scripts/verify_report.sh [options]
  --out=PATH          report file (default build/report/verification.md); logs go to its directory's logs/
  --only=a,b,...      run only these stages (default: all of ${all_stages[*]})
  --skip=a,b,...      leave these stages out
  --no-STAGE          leave STAGE out (e.g. --no-bench, --no-tsan)
  --jobs=N            parallel build and ctest jobs (default: nproc = $(nproc))
  --bench-args="..."  arguments of aclnn_cpu_bench (default "--burst=8"; e.g. "--burst=8 --prec=f32 --threads=2")
  --nice              run every build, test and benchmark under 'nice -n 19' (a shared machine)
EOF
}

for arg in "$@"; do
  case $arg in
    --out=*) out=${arg#--out=} ;;
    --only=*) only=${arg#--only=} ;;
    --skip=*) skip="${skip},${arg#--skip=}" ;;
    --no-*) skip="${skip},${arg#--no-}" ;;
    --jobs=*) jobs=${arg#--jobs=} ;;
    --bench-args=*) bench_args=${arg#--bench-args=} ;;
    --nice) nice_level=19 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "verify_report: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
  esac
done

selected=()
for s in "${all_stages[@]}"; do
  if [[ -n $only && ",$only," != *",$s,"* ]]; then continue; fi
  if [[ ",$skip," == *",$s,"* ]]; then continue; fi
  selected+=("$s")
done
for s in ${only//,/ } ${skip//,/ }; do
  [[ " ${all_stages[*]} " == *" $s "* ]] || { echo "verify_report: unknown stage '$s'" >&2; exit 2; }
done

mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
report_dir=$(dirname "$out")
logs=$report_dir/logs
data=$report_dir/data
rm -rf "$data"
mkdir -p "$logs" "$data"

run() {  # every build, test and benchmark command goes through here
  if [[ -n $nice_level ]]; then nice -n "$nice_level" "$@"; else "$@"; fi
}

# record STAGE KEY VALUE: one figure of a stage, read by the report writer.
record() { printf '%s\t%s\n' "$2" "$3" >>"$data/$1.tsv"; }

# ctest_figures STAGE LOG: total / failed / skipped counts and the failed tests' names from a ctest log.
ctest_figures() {
  local stage=$1 log=$2 line total bad skipped
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
  if [[ -z $line ]]; then
    record "$stage" ctest "no ctest summary (see log)"
    return 1
  fi
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  bad=$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")
  skipped=$(grep -cE '\*\*\*Skipped|\(Skipped\)$' "$log")
  record "$stage" total "$total"
  record "$stage" failed "$bad"
  record "$stage" skipped "$skipped"
  record "$stage" passed "$((total - bad - skipped))"
  record "$stage" test_seconds "$(sed -nE 's/^Total Test time \(real\) = *([0-9.]+) sec.*/\1/p' "$log" | tail -n 1)"
  grep -E '^\s+[0-9]+ - .* \((Failed|Timeout|SEGFAULT|Subprocess aborted|Child aborted|Exception|Not Run)' "$log" |
    sed -E 's/^\s+[0-9]+ - //' | head -n 40 | while read -r t; do record "$stage" failed_test "$t"; done
  return 0
}

# sanitizer_figures STAGE LOG: how many reports of each sanitizer the log holds.
sanitizer_figures() {
  record "$1" asan_reports "$(grep -c 'ERROR: AddressSanitizer' "$2")"
  record "$1" ubsan_reports "$(grep -c 'runtime error:' "$2")"
  record "$1" lsan_reports "$(grep -c 'ERROR: LeakSanitizer' "$2")"
  record "$1" tsan_reports "$(grep -c 'WARNING: ThreadSanitizer' "$2")"
}

has_preset() {
  local list
  list=$(cmake --list-presets=configure 2>/dev/null)
  [[ $list == *"\"$1\""* ]]
}

# build_preset PRESET LOG: configure + build; false on failure.
build_preset() {
  run cmake --preset "$1" >>"$2" 2>&1 && run cmake --build --preset "$1" -j "$jobs" >>"$2" 2>&1
}

stage_release() {
  local log=$logs/release.log
  build_preset release "$log" || { record release status "build failed"; return 1; }
  run ctest --preset release -j "$jobs" -E '^torch_crosscheck' >>"$log" 2>&1
  local rc=$?
  ctest_figures release "$log"
  [[ $rc -eq 0 ]] && record release status passed || record release status failed
  return $rc
}

stage_crosscheck() {
  local log=$logs/crosscheck.log
  build_preset release "$log" || { record crosscheck status "build failed"; return 1; }
  local listed  # (not piped into grep -q: with pipefail, ctest's SIGPIPE would read as "not registered")
  listed=$(cd build/release && ctest -N -R '^torch_crosscheck')
  if [[ $listed != *torch_crosscheck* ]]; then
    record crosscheck status "not run: /usr/bin/python3 cannot import torch and numpy (apt-get install python3-torch)"
    return 0
  fi
  run ctest --preset release -j "$jobs" -V -R '^torch_crosscheck' >>"$log" 2>&1
  local rc=$?
  ctest_figures crosscheck "$log"
  record crosscheck torch "$(/usr/bin/python3 -c 'import torch; print(torch.__version__)' 2>/dev/null)"
  # torch_crosscheck.py's closing line per run: "torch_crosscheck: N configurations, F failed; ...".
  grep -oE 'torch_crosscheck: [0-9]+ configurations.*' "$log" | while read -r l; do record crosscheck line "$l"; done
  [[ $rc -eq 0 ]] && record crosscheck status passed || record crosscheck status failed
  return $rc
}

stage_fuzz() {
  local log=$logs/fuzz.log marker=$data/fuzz.start
  touch "$marker"
  build_preset fuzz "$log" || { record fuzz status "build failed"; return 1; }
  run ctest --preset fuzz -j "$jobs" -V >>"$log" 2>&1
  local rc=$?
  ctest_figures fuzz "$log"
  sanitizer_figures fuzz "$log"
  # Per target (ctest -V prefixes each output line with the test number): runs, execs/s, new units, time.
  python3 - "$log" >>"$data/fuzz.tsv" <<'EOF'
import re, sys
names, figures = {}, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\s*Start\s+(\d+): (\S+)", line)
    if m:
        names[m.group(1)] = m.group(2)
        continue
    m = re.match(r"(\d+): (.*)", line)
    if m:
        n, text = m.groups()
        f = figures.setdefault(n, {})
        d = re.match(r"Done (\d+) runs in (\d+) second", text)
        if d:
            f["runs"], f["seconds"] = d.group(1), d.group(2)
        s = re.match(r"stat::(average_exec_per_sec|new_units_added|peak_rss_mb):\s+(\d+)", text)
        if s:
            f[s.group(1)] = s.group(2)
        if re.search(r"ERROR: libFuzzer|ERROR: AddressSanitizer|runtime error:|MISMATCH|deadly signal", text):
            f["finding"] = text.strip()[:200]
    m = re.search(r"Test\s+#(\d+): (\S+) \.+\**\s*(\w[\w ]*?)\s+([\d.]+) sec", line)
    if m:
        figures.setdefault(m.group(1), {})["result"] = m.group(3)
        figures[m.group(1)]["wall"] = m.group(4)
        names.setdefault(m.group(1), m.group(2))
for n in sorted(figures, key=int):
    f = figures[n]
    cells = [names.get(n, "#" + n)] + [f.get(k, "?") for k in ("runs", "average_exec_per_sec", "new_units_added",
                                                                "wall", "result")] + [f.get("finding", "")]
    print("target\t" + "|".join(cells))
EOF
  # Inputs libFuzzer saved as crash-/leak-/timeout-/oom- files during this run (run_fuzzer.cmake's artifact prefix).
  find build/fuzz -newer "$marker" -type f \( -name '*-crash-*' -o -name '*-leak-*' -o -name '*-timeout-*' \
    -o -name '*-oom-*' \) 2>/dev/null | while read -r f; do record fuzz artifact "$f"; done
  [[ $rc -eq 0 ]] && record fuzz status passed || record fuzz status failed
  return $rc
}

stage_sanitizer() {  # asan or tsan
  local preset=$1 log=$logs/$1.log
  if ! has_preset "$preset"; then
    record "$preset" status "$preset: preset not present"
    return 0
  fi
  build_preset "$preset" "$log" || { record "$preset" status "build failed"; return 1; }
  run ctest --preset "$preset" -j "$jobs" >>"$log" 2>&1
  local rc=$?
  ctest_figures "$preset" "$log"
  sanitizer_figures "$preset" "$log"
  [[ $rc -eq 0 ]] && record "$preset" status passed || record "$preset" status failed
  return $rc
}

stage_asan() { stage_sanitizer asan; }
stage_tsan() { stage_sanitizer tsan; }

stage_bench() {
  local log=$logs/bench.log dir=build/bench
  if ! [[ -f /usr/include/oneapi/dnnl/dnnl.hpp || -f /usr/include/dnnl.hpp ]]; then
    record bench status "not run: oneDNN missing (apt-get install libdnnl-dev)"
    return 0
  fi
  # As bench/README.md builds it: a release build without -march, tests and examples off.
  if ! { run cmake -S . -B "$dir" -G Ninja -DACLNN_CPU_BUILD_BENCH=ON -DCMAKE_BUILD_TYPE=Release \
           -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
           -DACLNN_CPU_BUILD_TESTS=OFF -DACLNN_CPU_BUILD_EXAMPLES=OFF >>"$log" 2>&1 &&
         run cmake --build "$dir" -j "$jobs" --target aclnn_cpu_bench >>"$log" 2>&1; }; then
    record bench status "build failed"
    return 1
  fi
  record bench args "$bench_args"
  [[ -z $nice_level ]] || record bench note "run under nice -n $nice_level: the timings are not representative"
  # shellcheck disable=SC2086  # the arguments are meant to split
  run "$dir/bench/aclnn_cpu_bench" $bench_args >"$logs/bench.txt" 2>>"$log"
  local rc=$?
  cat "$logs/bench.txt" >>"$log"
  record bench header "$(head -n 1 "$logs/bench.txt")"
  # The summary table: "prec thr layers ours/dnn ours_GF dnn_GF ours% dnn%" rows.
  sed -n '/^summary: geometric means/,/^$/p' "$logs/bench.txt" | sed '1,2d' | grep -E '^\S+\s+[0-9]+\s+[0-9]+\s' |
    while read -r l; do record bench row "$l"; done
  grep -E '^(scaling|our cost)' "$logs/bench.txt" | while read -r l; do record bench line "$l"; done
  [[ $rc -eq 0 ]] && record bench status passed ||
    record bench status "failed (exit $rc: a call failed or a check differed)"
  return $rc
}

# The whole run is one function, so that bash has read all of it before anything runs (editing this file
# during a run cannot change what the run does).
main() {
  # --- machine ---------------------------------------------------------------------------------------------------
  {
    printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
    if git rev-parse --git-dir >/dev/null 2>&1; then
      printf 'commit\t%s%s\n' "$(git rev-parse --short=12 HEAD)" \
        "$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    else
      printf 'commit\tunknown (not a git checkout)\n'
    fi
    printf 'branch\t%s\n' "$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo unknown)"
    printf 'cpu\t%s\n' "$(lscpu | sed -n 's/^Model name:\s*//p' | head -n 1)"
    printf 'nproc\t%s\n' "$(nproc)"
    printf 'isa\t%s\n' "$(grep -o -w -E 'avx512f|avx2|fma' /proc/cpuinfo | sort -u | tr '\n' ' ')"
    printf 'memory\t%s\n' "$(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    printf 'os\t%s\n' "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") / $(uname -r)"
    printf 'gcc\t%s\n' "$(g++ --version 2>/dev/null | head -n 1)"
    printf 'clang\t%s\n' "$(clang++ --version 2>/dev/null | head -n 1)"
    printf 'cmake\t%s\n' "$(cmake --version | head -n 1)"
    printf 'onednn\t%s\n' "$(dpkg-query -W -f '${Version}' libdnnl-dev 2>/dev/null || echo 'not installed')"
    printf 'command\t%s\n' "scripts/verify_report.sh$(printf ' %q' "$@")"
  } >"$data/machine.tsv"

  # --- stages ----------------------------------------------------------------------------------------------------
  overall=0
  for s in "${selected[@]}"; do
    echo "=== verify_report: stage '$s' (log: $logs/$s.log)"
    : >"$logs/$s.log"
    start=$SECONDS
    "stage_$s"
    rc=$?
    record "$s" seconds "$((SECONDS - start))"
    printf '%s\n' "$s" >>"$data/stages"
    [[ $rc -eq 0 ]] || overall=1
    echo "=== verify_report: '$s' $(grep -P '^status\t' "$data/$s.tsv" | cut -f2) in $((SECONDS - start)) s"
  done

  python3 "$root/scripts/verify_report_md.py" "$data" "$out"
  echo "verify_report: wrote $out"
  exit $overall
}

main "$@"
