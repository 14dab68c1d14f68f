#!/bin/bash
# kdump-core.sh CORE [RUNS]: the page writers on a saved ELF core (the
# vmcore.elf a kdump boot case leaves, e.g.
# build/boot-tests/cases/kdump_nfs/vmcore.elf), natively on this machine:
# lifeboat's writer (tests/bench/kdump-save.c) with zlib and LZO pages on
# 0, 1 and 2 compressing threads, and makedumpfile -c and -l, all at
# -d 31, output to /dev/shm. Reports per tool the medians of the CPU time
# (user + sys, which a loaded machine disturbs less than the wall time),
# the wall time and the output's size. Not a timed test. RUNS default 5.
set -eu
cd "$(dirname "$0")/../.."
core=$1
runs=${2:-5}
save=build/bench-kdump/kdump-save
out=/dev/shm/kdump-core-bench.$$
mkdir -p build/bench-kdump
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -o "$save" tests/bench/kdump-save.c \
	kdump/elfcore.c kdump/vmcoreinfo.c kdump/kvmem.c kdump/pagefilter.c kdump/dumpsink.c \
	kdump/diskdump.c kdump/elfdump.c kdump/pagecomp.c kdump/pagecomp_lzo.c kdump/pagepool.c \
	kdump/vmcoreinfo_check.c common/kdumpconf.c common/kdumptarget.c -lz -pthread
tools=("lifeboat-zlib-t0|$save $core $out 31 zlib 0"
	"lifeboat-zlib-t2|$save $core $out 31 zlib 2"
	"makedumpfile-c|makedumpfile -c -d 31 $core $out"
	"lifeboat-lzo-t0|$save $core $out 31 lzo 0"
	"lifeboat-lzo-t2|$save $core $out 31 lzo 2"
	"makedumpfile-l|makedumpfile -l -d 31 $core $out")
trap 'rm -f "$out" "$out.time"' EXIT
for ((i = 1; i <= runs; i++)); do
	for t in "${tools[@]}"; do
		rm -f "$out"
		/usr/bin/time -f "%U %S %e" -o "$out.time" ${t#*|} >/dev/null 2>&1
		read -r u s e <"$out.time"
		echo "${t%%|*} $i $(echo "$u + $s" | bc) $e $(stat -c %s "$out")"
	done
done | tee /dev/stderr | awk '
	{ n[$1]++; cpu[$1, n[$1]] = $3; wall[$1, n[$1]] = $4; size[$1] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
	function med(a, t,   i, j, m, v, x) {
		m = n[t]; for (i = 1; i <= m; i++) v[i] = a[t, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	END {
		print "| tool | CPU s (median) | wall s (median) | output bytes |"
		print "|---|---|---|---|"
		for (i = 1; i <= k; i++) printf "| %s | %.2f | %.2f | %d |\n", order[i], med(cpu, order[i]), med(wall, order[i]), size[order[i]]
	}'
