#!/bin/sh
# Run every libFuzzer target matching PREFIX* for SECONDS each, from its seed
# corpus (tests/fuzz/seeds/NAME) and with its dictionary where it has one
# (tests/fuzz/dicts/NAME.dict, NAME without fuzz_); a crash or a sanitizer
# report fails the run.
# Usage: tests/run-fuzz.sh PREFIX SECONDS
prefix=$1
seconds=$2
status=0
mkdir -p build/fuzz/logs
for f in "$prefix"*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	name=$(basename "$f")
	corpus=build/fuzz/corpus/$name
	seeds=tests/fuzz/seeds/$name
	mkdir -p "$corpus"
	[ -d "$seeds" ] || seeds=
	dict=tests/fuzz/dicts/${name#fuzz_}.dict
	[ -f "$dict" ] && dict=-dict=$dict || dict=
	log=build/fuzz/logs/$name.log
	if "$f" -max_total_time="$seconds" -print_final_stats=1 $dict "$corpus" $seeds > "$log" 2>&1; then
		runs=$(grep -m1 -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$")
		echo "fuzz: $name ran ${seconds}s clean ($runs runs, $((runs / seconds))/s)"
	else
		echo "fuzz: $name FAILED; see $log"
		tail -n 30 "$log"
		status=1
	fi
done
exit $status
