#!/bin/bash
# kdump.sh VMCORE: lifeboat's dump writer against makedumpfile on the same
# ELF core (a /proc/vmcore saved by a capture run, e.g. vmcore.elf from the
# kdump_disk boot case): time, output size and peak memory for
# makedumpfile -c -d 31, lifeboat -d 31 (zlib, same format), and a plain copy.
# Each is run 3 times; the best time is kept. Output: a Markdown table.
set -eu
cd "$(dirname "$0")/../.."
core=$1
work=${WORK:-build/bench-kdump}
mkdir -p "$work"
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon -o "$work/kdump-save" tests/bench/kdump-save.c \
	kdump/elfcore.c kdump/vmcoreinfo.c kdump/kvmem.c kdump/pagefilter.c kdump/dumpsink.c \
	kdump/diskdump.c -lz

# best TIME and its peak RSS over 3 runs of a command; OUT is the file it makes
measure() {
	local out=$1 best= rss= t m
	shift
	for _ in 1 2 3; do
		rm -f "$out"
		sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
		/usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1
		read -r t m < "$work/time"
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t rss=$m; fi
	done
	printf '| %s | %s s | %s | %s MB |\n' "$name" "$best" "$(stat -c %s "$out" | awk '{ printf "%.1f MB", $1 / 1e6 }')" "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')"
}

echo "| tool | time | output | peak memory (RSS) |"
echo "|---|---|---|---|"
name="makedumpfile -c -d 31" measure "$work/mdf.kdump" makedumpfile -c -d 31 "$core" "$work/mdf.kdump"
name="lifeboat -d 31 (zlib)" measure "$work/lb.kdump" "$work/kdump-save" "$core" "$work/lb.kdump" 31
name="lifeboat -d 31, flattened" measure "$work/lb.flat" "$work/kdump-save" "$core" "$work/lb.flat" 31 flat
name="plain copy (cp)" measure "$work/copy" cp "$core" "$work/copy"
rm -f "$work/mdf.kdump" "$work/lb.kdump" "$work/lb.flat" "$work/copy"
