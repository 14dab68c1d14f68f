# tests_timeline.sh: `lifeboat timeline` on a timeline recorded from a qemu
# boot (tests/dist/data/timeline). Sourced by run.sh.

test_timeline_table() {
	local out
	out=$("$LB" timeline "$TOP/tests/dist/data/timeline") || { echo "exit $?"; return 1; }
	echo "$out" | grep -q '^ *3.254939s *0.455996s *modules *11 loaded by coldplug$' ||
		{ echo "no modules row with its time and duration:"; echo "$out"; return 1; }
	echo "$out" | grep -q 'the init took 1.096023s, from start to exec' ||
		{ echo "no total line:"; echo "$out"; return 1; }
}

test_timeline_svg_parses() {
	local svg=$T/boot.svg n
	"$LB" timeline "$TOP/tests/dist/data/timeline" --svg "$svg" || { echo "exit $?"; return 1; }
	xmllint --noout "$svg" || { echo "xmllint rejects $svg"; return 1; }
	# One bar a phase, named in the picture.
	n=$(xmllint --xpath 'count(//*[local-name()="rect" and @y])' "$svg")
	[ "$n" = 5 ] || { echo "$n bars, want 5"; return 1; }
	xmllint --xpath '//*[local-name()="text"]/text()' "$svg" | grep -q 'mounted (/dev/vda ext4)' ||
		{ echo "no label for the mounted phase"; return 1; }
	ls "$T" | grep -q tmp && { echo "a temporary file was left: $(ls "$T")"; return 1; }
	return 0
}

test_timeline_errors() {
	local out
	printf '1.0 start\ngarbage here\n' > "$T/bad"
	out=$("$LB" timeline "$T/bad" 2>&1) && { echo "a bad file was accepted"; return 1; }
	echo "$out" | grep -q "$T/bad:2: not a timeline line" || { echo "message: $out"; return 1; }
	out=$("$LB" timeline "$T/none" 2>&1) && { echo "a missing file was accepted"; return 1; }
	echo "$out" | grep -q "cannot read timeline $T/none" || { echo "message: $out"; return 1; }
	out=$("$LB" timeline "$TOP/tests/dist/data/timeline" --svg "$T/no/such/dir.svg" 2>&1) &&
		{ echo "writing into a missing directory succeeded"; return 1; }
	echo "$out" | grep -q "cannot write picture $T/no/such/dir.svg" || { echo "message: $out"; return 1; }
	return 0
}

# The example in docs/ is what the generator draws today from the recording.
test_timeline_docs_example() {
	"$LB" timeline "$TOP/tests/dist/data/timeline" --svg "$T/example.svg" &&
	cmp -s "$T/example.svg" "$TOP/docs/timeline-example.svg" ||
		{ echo "docs/timeline-example.svg is stale: build/lifeboat timeline tests/dist/data/timeline --svg docs/timeline-example.svg"; return 1; }
}
