#!/usr/bin/env bash
# Tests scripts/packages.sh, and that demo.sh and test.sh stop before building when it does, with fake
# dpkg-query, apt-get, id and cmake. packages.sh runs with the fakes alone on PATH, so whatever it does, no
# real package is installed or removed. The fake dpkg database is a file of "package status" lines, filled
# from scripts/packages.txt; the fake apt-get logs each call and adds what it installs to it.
# Usage: tests/scripts/packages_test.sh CASE   (each case is one ctest: tests/CMakeLists.txt)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
case=${1:?usage: packages_test.sh CASE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fakes=$work/bin
mkdir "$fakes"

fake() {
  { echo '#!/bin/bash'; echo 'PATH=/usr/bin:/bin'; cat; } >"$fakes/$1"
  chmod +x "$fakes/$1"
}
fake id <<'EOF'
[[ $1 == -u ]] && echo "$FAKE_UID"
EOF
fake cmake <<'EOF'
echo "cmake $*" >>"$FAKE_DIR/cmake.log"
EOF
# packages.sh parses this exact format: a different one must fail the test rather than pass by luck.
fake dpkg-query <<'EOF'
[[ $1 == -W && $2 == '-f=${Package} ${db:Status-Status}\n' ]] || { echo "fake dpkg-query: unexpected $*" >&2; exit 99; }
shift 2
rc=0
for name; do
  line=$(grep -m 1 "^$name " "$FAKE_DIR/status") || { echo "dpkg-query: no packages found matching $name" >&2; rc=1; continue; }
  echo "$line"
done
exit $rc
EOF
fake apt-get <<'EOF'
echo "DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-} stdin=$(readlink /proc/$$/fd/0) $*" >>"$FAKE_DIR/apt.log"
if [[ $1 == install && -z ${FAKE_APT_INSTALLS_NOTHING:-} ]]; then
  for arg; do
    [[ $arg == install || $arg == -* ]] || { sed -i "/^$arg /d" "$FAKE_DIR/status"; echo "$arg installed" >>"$FAKE_DIR/status"; }
  done
fi
EOF

# The fake database: every package of the list installed, then `forget` (never installed) and `set_status`.
: >"$work/status"
while read -r package _; do
  [[ -z $package || $package == \#* ]] || echo "$package installed" >>"$work/status"
done <"$repo/scripts/packages.txt"
forget() {
  local name
  for name; do sed -i "/^$name /d" "$work/status"; done
}
set_status() {
  forget "$1"
  echo "$1 $2" >>"$work/status"
}

fail() {
  echo "FAIL ($case): $*" >&2
  for f in out err apt.log cmake.log; do
    [[ ! -f $work/$f ]] || { echo "--- $f:" >&2; cat "$work/$f" >&2; }
  done
  exit 1
}

# run PATH UID COMMAND...: sets rc; stdout and stderr go to $work/out and $work/err. Stdin is a file, so that
# apt-get's stdin shows whether the script detached it.
: >"$work/stdin"
run() {
  local path=$1 uid=$2
  shift 2
  rc=0
  env -i PATH="$path" FAKE_DIR="$work" FAKE_UID="$uid" ${FAKE_APT_INSTALLS_NOTHING:+FAKE_APT_INSTALLS_NOTHING=1} \
    ${FAKE_HOSTTYPE:+HOSTTYPE=$FAKE_HOSTTYPE} \
    "$@" >"$work/out" 2>"$work/err" <"$work/stdin" || rc=$?
}
packages() { run "$fakes" "$1" "$BASH" "$repo/scripts/packages.sh" "$2"; }

expect_rc() { [[ $rc == "$1" ]] || fail "exit status $rc, expected $1"; }
expect_no_apt() { [[ ! -e $work/apt.log ]] || fail "apt-get was called"; }
expect_line() {
  grep -qxF -- "$2" "$work/$1" || fail "no line '$2' in $1"
}
expect_apt_log() {
  printf '%s\n' "$@" | diff - "$work/apt.log" >&2 || fail "apt-get calls differ (- expected, + actual)"
}
sudo_line() { echo "  sudo apt-get update && sudo apt-get install --no-install-recommends $*"; }

case $case in
  all_present)
    packages 0 test
    expect_rc 0
    expect_no_apt
    [[ ! -s $work/out && ! -s $work/err ]] || fail "it printed something"
    ;;
  missing_root)
    # A package removed with its configuration files kept is not installed either.
    forget ninja-build python3-torch
    set_status libgtest-dev config-files
    packages 0 test
    expect_rc 0
    expect_apt_log "DEBIAN_FRONTEND=noninteractive stdin=/dev/null update -q" \
      "DEBIAN_FRONTEND=noninteractive stdin=/dev/null install -y -q --no-install-recommends ninja-build libgtest-dev python3-torch"
    expect_line out "aclnn-cpu: installing the missing Debian packages: ninja-build libgtest-dev python3-torch"
    ;;
  missing_nonroot)
    forget ninja-build python3-torch
    set_status libgtest-dev config-files
    packages 1000 test
    expect_rc 1
    expect_no_apt
    expect_line err "$(sudo_line ninja-build libgtest-dev python3-torch)"
    ;;
  demo_only)
    # The demo does not need the test packages ...
    forget clang python3-torch
    packages 0 demo
    expect_rc 0
    expect_no_apt
    # ... and asks for its own only.
    forget ninja-build
    packages 1000 demo
    expect_rc 1
    expect_line err "$(sudo_line ninja-build)"
    ;;
  cross_on_aarch64)
    # The cross build's packages are wanted on other hosts only: an aarch64 host builds natively.
    forget g++-aarch64-linux-gnu qemu-user
    FAKE_HOSTTYPE=aarch64 packages 0 test
    expect_rc 0
    expect_no_apt
    packages 1000 test
    expect_rc 1
    expect_line err "$(sudo_line g++-aarch64-linux-gnu qemu-user)"
    ;;
  apt_leaves_missing)
    forget python3-torch
    FAKE_APT_INSTALLS_NOTHING=1 packages 0 test
    expect_rc 1
    expect_line err "aclnn-cpu: still not installed after apt-get: python3-torch (is the name in $repo/scripts/packages.txt right?)"
    ;;
  not_debian)
    rm "$fakes/dpkg-query"
    packages 0 test
    expect_rc 0
    expect_no_apt
    grep -q "no dpkg-query" "$work/err" || fail "it did not say that it checks nothing"
    ;;
  real_dpkg_query)
    # The real dpkg-query, on a list of dpkg (always installed on Debian) and a name no package has: only the
    # latter may reach (the fake) apt-get, which leaves it missing.
    real=$(command -v dpkg-query) || { echo "ACLNN_CPU_TEST_SKIPPED: no dpkg-query"; exit 0; }
    rm "$fakes/dpkg-query"
    mkdir "$work/scripts"
    cp "$repo/scripts/packages.sh" "$work/scripts/"
    printf '%s\n' "dpkg demo the package manager" "aclnn-cpu-no-such-package demo a name no package has" \
      >"$work/scripts/packages.txt"
    run "$fakes:${real%/*}" 0 "$BASH" "$work/scripts/packages.sh" demo
    expect_rc 1
    expect_apt_log "DEBIAN_FRONTEND=noninteractive stdin=/dev/null update -q" \
      "DEBIAN_FRONTEND=noninteractive stdin=/dev/null install -y -q --no-install-recommends aclnn-cpu-no-such-package"
    ;;
  demo_sh | test_sh)
    # Not root and a package missing: the command is printed and nothing is configured or built.
    forget ninja-build
    if [[ $case == demo_sh ]]; then
      run "$fakes:$PATH" 1000 "$repo/scripts/demo.sh"
    else
      run "$fakes:$PATH" 1000 "$repo/scripts/test.sh" release
    fi
    [[ $rc != 0 ]] || fail "exit status 0 with ninja-build missing"
    expect_no_apt
    expect_line err "$(sudo_line ninja-build)"
    [[ ! -e $work/cmake.log ]] || fail "cmake ran: $(<"$work/cmake.log")"
    ;;
  *)
    echo "packages_test.sh: unknown case '$case'" >&2
    exit 2
    ;;
esac
echo "ok: $case"
