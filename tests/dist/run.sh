#!/bin/bash
# run.sh: the distribution-fit tests (no qemu): the timeline table and
# picture, modules trees laid out as distributions do, early microcode, man
# pages, bash completion, the kernel-install plugin and Debian's kernel hooks.
# Usage: tests/dist/run.sh [TEST...]      prints "N passed, N failed" last
# Everything happens in a scratch directory; nothing on the system changes.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
LB=$BUILD/lifeboat
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/lifeboat-dist.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
passed=0 failed=0

source "$TOP/tests/dist/layout_lib.sh"
# Each test_NAME function returns non-zero with a reason on stdout.
for f in "$TOP"/tests/dist/tests_*.sh; do
	# shellcheck disable=SC1090
	source "$f"
done

run_test() {
	local name=$1 reason
	T=$SCRATCH/$name
	mkdir -p "$T"
	if reason=$("test_$name" 2>&1); then
		echo "dist: PASS $name"
		passed=$((passed + 1))
	else
		echo "dist: FAIL $name: $reason" | head -n 20
		failed=$((failed + 1))
	fi
}

tests=("$@")
[ ${#tests[@]} -gt 0 ] || mapfile -t tests < <(declare -F | sed -n 's/^declare -f test_//p')
for t in "${tests[@]}"; do
	run_test "$t"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
