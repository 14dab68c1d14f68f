#!/bin/sh
# Run every cmocka unit test binary in DIR, several at a time; print their
# output in name order and one "N passed, N failed" line.
# Usage: tests/run-unit.sh DIR [summary-file]
# The per-case counts come from cmocka's own "[  PASSED  ]"/"[  FAILED  ]" lines;
# a binary that dies without them counts as one failure. Most binaries wait
# more than they compute (child processes, timeouts), so twice as many run
# as there are CPUs (UNIT_JOBS overrides).
dir=$1
summary=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jobs=${UNIT_JOBS:-$(( $(nproc) * 2 ))}
passed=0
failed=0

# One binary: its output and exit status into $out/NAME.
for t in "$dir"/test_*; do
	[ -x "$t" ] && [ -f "$t" ] && printf '%s\n' "$t"
done | xargs -r -P "$jobs" -I{} sh -c 'cd "$1" && "$2" > "$3/$(basename "$2").out" 2>&1; echo $? > "$3/$(basename "$2").rc"' _ "$top" {} "$out"

for t in "$dir"/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	name=$(basename "$t")
	cat "$out/$name.out"
	rc=$(cat "$out/$name.rc")
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out/$name.out" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out/$name.out" | tail -n 1)
	if [ -z "$p" ]; then
		echo "unit: $t produced no cmocka summary (exit $rc): counted as a failure"
		failed=$((failed + 1))
		continue
	fi
	passed=$((passed + p))
	failed=$((failed + ${f:-0}))
	if [ "$rc" -ne 0 ] && [ -z "$f" ]; then
		echo "unit: $t exited $rc: counted as a failure"
		failed=$((failed + 1))
	fi
done
[ -n "$summary" ] && echo "$passed $failed" > "$summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
