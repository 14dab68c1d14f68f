#!/bin/bash
# kdump-large-minck.sh: the smallest crashkernel= that captures a large
# guest, for lifeboat and for makedumpfile. For each reservation in SIZES
# (largest first), one crash and capture boot of tests/bench/kdump-large.sh
# (its own qemu lock hold): lifeboat has captured when the capture image
# saved the dump itself ("kdump: dump saved as") and its writer ran again
# from the shell (lifeboat-lzo); makedumpfile when makedumpfile -l -d 31
# wrote its file in the same boot. Stops after a size where both failed.
# Usage: tests/bench/kdump-large-minck.sh
# Environment: SIZES="512M 256M 192M 160M 128M", MEM=8G, FILL="0 0 0 0"
#   (the contents change which pages are kept, not what the writers
#   allocate: pass kdump-large.sh's default to check a size full), and
#   kdump-large.sh's BUILD, CPUS, ICOUNT, BOOT_TIMEOUT (default 400 here).
set -u
cd "$(dirname "$0")/../.."
SIZES=${SIZES:-512M 256M 192M 160M 128M}
export MEM=${MEM:-8G} FILL=${FILL:-0 0 0 0} BOOT_TIMEOUT=${BOOT_TIMEOUT:-400} DISK_MB=${DISK_MB:-6144}
export TOOLS="lifeboat-lzo makedumpfile-l"
base=${WORK:-build/bench-kdump-minck}
mkdir -p "$base"
echo "| crashkernel= | capture kernel MemTotal | lifeboat (capture's own save) | lifeboat writer again | makedumpfile -l -d 31 |"
echo "|---|---|---|---|---|"
for size in $SIZES; do
	work=$base/$size
	WORK=$work CRASHKERNEL=$size tests/bench/kdump-large.sh >"$base/$size.log" 2>&1
	log=$work/run/console-1.log
	total=$(tr -d '\r' <"$log" 2>/dev/null | sed -n 's/^BENCH-MEM MemTotal: *\([0-9]*\) kB/\1/p' | head -n 1)
	saved=$(tr -d '\r' <"$log" 2>/dev/null | grep -a -o "dump saved as .* KiB" | head -n 1)
	lb=no mdf=no
	grep -aq "^BENCH lifeboat-lzo" "$log" 2>/dev/null && lb=yes
	grep -aq "^BENCH makedumpfile-l" "$log" 2>/dev/null && mdf=yes
	grep -aq "BENCH-OOM lifeboat" "$log" 2>/dev/null && lb="out of memory"
	grep -aq "BENCH-OOM makedumpfile" "$log" 2>/dev/null && mdf="out of memory"
	echo "| $size | ${total:+$((total / 1024)) MiB} | ${saved:-no} | $lb | $mdf |"
	[ -z "$saved" ] && [ "$lb" != yes ] && [ "$mdf" != yes ] && break
done
exit 0
