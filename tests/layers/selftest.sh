#!/bin/bash
# selftest.sh: check-layers must fail on each kind of break it exists for.
# Plants one break at a time in a scratch copy of the tree and expects
# check-layers.py to refuse it with the right words; prints "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/tests/layers/check-layers.py
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0

# fresh: the copy of the sources and the rules (without build/ and .git) as
# the tree has them. The tree is copied once; after that only what the last
# plant changed or added (newer than the stamp) is put back, as copying the
# whole tree for every plant was most of this test's time.
fresh() {
	if [ ! -d "$scratch/pristine" ]; then
		mkdir "$scratch/pristine"
		(cd "$top" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -C "$scratch/pristine" -xf -
		cp -a "$scratch/pristine" "$scratch/t"
	else
		(cd "$scratch/t" && find . -type f -newer "$scratch/stamp") | while read -r f; do
			if [ -e "$scratch/pristine/$f" ]; then cp -p "$scratch/pristine/$f" "$scratch/t/$f"; else rm -f "$scratch/t/$f"; fi
		done
	fi
	# A second back: a plant in the same clock tick as the stamp is newer still.
	touch -d "@$(($(date +%s) - 1))" "$scratch/stamp"
}

expect() {   # expect NAME WORDS [ARGS]: check-layers ARGS fails on the copy and says WORDS
	local out
	if out=$("$check" "${@:3}" "$scratch/t" 2>&1); then
		echo "FAIL $1: check-layers passed"; failed=$((failed + 1))
	elif ! grep -qF -- "$2" <<<"$out"; then
		echo "FAIL $1: no '$2' in: $out"; failed=$((failed + 1))
	else
		echo "PASS $1"; passed=$((passed + 1))
	fi
}

fresh
if "$check" "$scratch/t" >/dev/null; then
	echo "PASS the tree as it is"; passed=$((passed + 1))
else
	echo "FAIL the tree as it is: $("$check" "$scratch/t" | tail -n 3)"; failed=$((failed + 1))
fi

fresh   # a component including init/ (upward)
echo '#include "init/mountroot.h"' >> "$scratch/t/net/dhcp4/dhcp.c"
expect upward 'net/dhcp4/dhcp.c: #include "init/mountroot.h": net/dhcp4/ may not use init/'

fresh   # a component including another it may not (across)
echo '#include "kdump/capture.h"' >> "$scratch/t/resume/resume.c"
expect across 'resume/ may not use kdump/'

fresh   # the library including a component
echo '#include "blockstack/blockstack.h"' >> "$scratch/t/bootlib/devwait.c"
expect library 'bootlib/ may not use blockstack/'

fresh   # an include that does not name its folder
echo '#include "log.h"' >> "$scratch/t/bootlib/devwait.c"
expect unprefixed '#include "log.h" does not name a file'

fresh   # a base name used twice
cp "$scratch/t/net/dhcp4/dhcp.h" "$scratch/t/blockstack/dhcp.h"
expect basename 'base name dhcp.h used 2 times'

fresh   # rules that allow a cycle, and includes that make one
sed -i 's|^bootlib  *may use:.*|& net/dhcp4|' "$scratch/t/docs/architecture.md"
echo '#include "net/dhcp4/dhcp.h"' >> "$scratch/t/bootlib/log.c"
expect cycle 'include cycle between folders'

fresh   # a header of the tree's own included with angle brackets
echo '#include <init/boot_plan.h>' >> "$scratch/t/net/dhcp4/dhcp.c"
expect angle '#include <init/boot_plan.h> is one of the tree'"'"'s own headers'

fresh   # a path through ".." that would name init/ as net/
echo '#include "net/../init/boot_plan.h"' >> "$scratch/t/net/dhcp4/dhcp.c"
expect dotdot '#include "net/../init/boot_plan.h" does not name a file'

fresh   # a function of init/ declared by hand in net/: no include, only the linker sees it
mkdir -p "$scratch/obj/init" "$scratch/obj/net"
echo 'int init_callee(void) { return 1; }' > "$scratch/t/init/lt_callee.c"
printf 'int init_callee(void);\nint net_caller(void) { return init_callee(); }\n' > "$scratch/t/net/lt_caller.c"
cc -c -o "$scratch/obj/init/lt_callee.o" "$scratch/t/init/lt_callee.c" &&
cc -c -o "$scratch/obj/net/lt_caller.o" "$scratch/t/net/lt_caller.c"
expect link 'net/lt_caller.o uses init_callee of init/: net/ may not use init/' --objects "$scratch/obj"

fresh   # inside the generator: a lower room of gen/ including the command layer
echo '#include "gen/cmd/build.h"' >> "$scratch/t/gen/archive/cpio.c"
expect gen-rooms 'gen/archive/cpio.c: #include "gen/cmd/build.h": gen/archive/ may not use gen/cmd/'

fresh   # a source file that no feature of the map names
echo 'int net_orphan(void) { return 0; }' > "$scratch/t/net/lt_orphan.c"
expect unmapped 'net/lt_orphan.c is in no feature: add it to a line "FEATURE code ..."'

fresh   # a new unit test: the message names the features of the code it tests
echo 'int main(void) { return 0; }' > "$scratch/t/tests/unit/test_dhcp6pkt_more.c"
expect unmapped-hint 'tests/unit/test_dhcp6pkt_more.c is in no feature: add it to a line "FEATURE unit ..." of docs/architecture.md'"'"'s ```features block (the files with the nearest names are in: ipv6)'

fresh   # a feature naming a file that is not there (removed, or renamed)
sed -i 's|^# FEATURE .*|&\nlt_feature     code  net/lt_missing.c|' "$scratch/t/docs/architecture.md"
expect missing 'feature lt_feature names net/lt_missing.c, which matches no file'

fresh   # a glob that matches nothing
sed -i 's|^# FEATURE .*|&\nlt_feature     code  net/lt_*.[ch]|' "$scratch/t/docs/architecture.md"
expect glob 'feature lt_feature names net/lt_*.[ch], which matches no file'

fresh   # a unit test named as a fuzz target
sed -i 's|^# FEATURE .*|&\nlt_feature     fuzz  tests/unit/test_cmdline.c|' "$scratch/t/docs/architecture.md"
expect kind-place 'names tests/unit/test_cmdline.c as fuzz, whose files are under tests/fuzz/'

fresh   # a line whose kind is none of the map's
sed -i 's|^# FEATURE .*|&\nlt_feature     source net/dhcp4/dhcp.c|' "$scratch/t/docs/architecture.md"
expect kind 'kind "source" is none of'

fresh   # a new boot case file in no feature
echo 'case_lt_orphan() { return 0; }' > "$scratch/t/tests/boot/cases-lt.sh"
expect unmapped-case 'tests/boot/cases-lt.sh is in no feature: add it to a line "FEATURE boot ..."'

fresh   # a comment naming a file that moved away
echo '/* the table is in net/lt_gone.c */' >> "$scratch/t/net/dhcp4/dhcp.c"
expect stale-path "net/dhcp4/dhcp.c:$(wc -l < "$scratch/t/net/dhcp4/dhcp.c") names net/lt_gone.c, which is not in the tree"

fresh   # a comment naming a folder's file without its extension, after the file moved
echo '/* see gen/lt_gone for why */' >> "$scratch/t/gen/gen_report.c"
expect stale-stem 'names gen/lt_gone, which is not in the tree'

fresh   # a comment naming a page's section that is not there (renamed, moved)
echo '/* measured in docs/kdump.md, "No such section here" */' >> "$scratch/t/net/dhcp4/dhcp.c"
expect stale-section 'names the section "No such section here" of docs/kdump.md, which has no heading'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
