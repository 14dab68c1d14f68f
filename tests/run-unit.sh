#!/bin/sh
# Run every cmocka unit test binary in DIR; print one "N passed, N failed" line.
# Usage: tests/run-unit.sh DIR [summary-file]
# The per-case counts come from cmocka's own "[  PASSED  ]"/"[  FAILED  ]" lines;
# a binary that dies without them counts as one failure.
dir=$1
summary=${2:-}
passed=0
failed=0
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	out=$(cd "$(dirname "$0")/.." && "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
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
