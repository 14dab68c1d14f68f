#!/bin/sh
# Run every libFuzzer target matching PREFIX* for SECONDS each, from its seed corpus.
# Usage: tests/run-fuzz.sh PREFIX SECONDS
prefix=$1
seconds=$2
status=0
for f in "$prefix"*; do
	[ -x "$f" ] || continue
	name=$(basename "$f")
	corpus=build/fuzz/corpus/$name
	mkdir -p "$corpus"
	seeds=tests/fuzz/seeds/$name
	echo "fuzz: $name for ${seconds}s"
	if [ -d "$seeds" ]; then
		"$f" -max_total_time="$seconds" -print_final_stats=0 "$corpus" "$seeds" 2>&1 | tail -n 3 || status=1
	else
		"$f" -max_total_time="$seconds" -print_final_stats=0 "$corpus" 2>&1 | tail -n 3 || status=1
	fi
done
exit $status
