#!/usr/bin/env bash
# Makes sure the Debian packages that scripts/packages.txt lists for one need are installed:
#   demo  what scripts/demo.sh needs
#   test  what scripts/test.sh and .ci/run need (the demo's packages included; "cross" ones unless the host is
#         aarch64, by bash's HOSTTYPE)
# When they all are, it prints nothing and costs one dpkg-query call, so the scripts can run it every time.
# Otherwise, as root, it installs the missing ones with apt-get, non-interactively (CI runs it without stdin);
# as anyone else it prints the command that would and exits 1, before anything is built.
# Without dpkg-query (not Debian) it checks nothing and says so.
# Besides dpkg-query, apt-get and id it uses bash builtins only, so its test can run it with a PATH of fakes.
# Usage: scripts/packages.sh demo|test
set -euo pipefail

need=${1:-}
if [[ $need != demo && $need != test ]]; then
  echo "usage: scripts/packages.sh demo|test" >&2
  exit 2
fi
here=${BASH_SOURCE[0]%/*}
[[ $here != "${BASH_SOURCE[0]}" ]] || here=.
list=${here}/packages.txt

wanted=()
line=0
while read -r package package_need _; do
  line=$((line + 1))
  [[ -n $package && $package != \#* ]] || continue
  case $package_need in
    demo) wanted+=("$package") ;;
    test) [[ $need == demo ]] || wanted+=("$package") ;;
    cross) [[ $need == demo || $HOSTTYPE == aarch64 ]] || wanted+=("$package") ;;
    *) echo "aclnn-cpu: ${list}:${line}: need '${package_need}' of ${package} is not demo, test or cross" >&2; exit 2 ;;
  esac
done <"$list"

if ! command -v dpkg-query >/dev/null; then
  echo "aclnn-cpu: no dpkg-query (not Debian?): not checking for the packages of ${list}" >&2
  exit 0
fi

# Sets `absent` to the wanted packages dpkg does not report as installed. A removed package whose configuration
# files remain is listed with another status, and one dpkg never heard of is not listed at all.
find_absent() {
  local -A installed=()
  local report name status
  # dpkg-query exits 1 when some name is unknown to it; those are simply absent from the report.
  # shellcheck disable=SC2016  # the format's ${...} are dpkg-query's fields, not the shell's
  report=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${wanted[@]}" 2>/dev/null || true)
  while read -r name status; do
    [[ $status != installed ]] || installed[$name]=1
  done <<<"$report"
  absent=()
  for name in "${wanted[@]}"; do
    [[ -n ${installed[$name]:-} ]] || absent+=("$name")
  done
}

find_absent
[[ ${#absent[@]} -gt 0 ]] || exit 0

if [[ $(id -u) != 0 ]]; then
  {
    echo "aclnn-cpu: these Debian packages are missing (${list}, '${need}'): ${absent[*]}"
    echo "Install them (or run this script as root, which installs them itself):"
    echo "  sudo apt-get update && sudo apt-get install --no-install-recommends ${absent[*]}"
  } >&2
  exit 1
fi

echo "aclnn-cpu: installing the missing Debian packages: ${absent[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q </dev/null
apt-get install -y -q --no-install-recommends "${absent[@]}" </dev/null
# A name that apt-get resolves to another package (a virtual one) would never show as installed, and every run
# would call apt-get again: refuse it now.
find_absent
if [[ ${#absent[@]} -gt 0 ]]; then
  echo "aclnn-cpu: still not installed after apt-get: ${absent[*]} (is the name in ${list} right?)" >&2
  exit 1
fi
