#!/bin/sh
# [TOOLS="..."] [THREADS=N] [MDF_THREADS=N] kdump-large-capture.sh KDUMP_SAVE:
# runs in the capture kernel's shell (tests/bench/kdump-large.sh packs it
# as /bench.sh and types the command). On the same /proc/vmcore, each of
# TOOLS in turn (default: lifeboat-lzo makedumpfile-l lifeboat-zlib
# makedumpfile-c; also lifeboat-zstd, and makedumpfile-z and
# makedumpfile13-l with MDF_ZSTD, a makedumpfile built with zstd):
# lifeboat's writer (KDUMP_SAVE, the capture's kdump/
# code in a small driver; THREADS compressing threads besides the writer,
# default the capture's own choice from its CPUs and free memory) with
# LZO or zlib pages, and makedumpfile -l / -c -d 31 (with
# --num-threads MDF_THREADS when set), each writing to the ext4 disk
# labelled kdbench and synced before the clock stops. GNU time gives the
# wall time and the tool's peak RSS; a sampler reads MemAvailable every
# second, so "low" is the least the capture kernel had left during the run.
# KEEP=1 keeps each file as /mnt/bench/TOOL (to read it back on the host).
# Prints "BENCH tool 1 wall_s maxrss_kib bytes avail_before_kib
# avail_low_kib" per tool (or BENCH-OOM / BENCH-FAIL), then BENCH-DONE.
save=$1
bb=busybox
TOOLS=${TOOLS:-lifeboat-lzo makedumpfile-l lifeboat-zlib makedumpfile-c}
echo "BENCH-CPUS $($bb nproc)"
$bb grep -E "^(MemTotal|MemFree|MemAvailable):" /proc/meminfo | $bb tr -s ' ' | $bb sed 's/^/BENCH-MEM /'

dev=$($bb findfs LABEL=kdbench) || { echo "BENCH-FAIL no disk labelled kdbench"; exit 1; }
$bb mkdir -p /mnt/bench
$bb mount -t ext4 "$dev" /mnt/bench || { echo "BENCH-FAIL mounting $dev"; exit 1; }
$bb rm -rf /mnt/bench/out /mnt/bench/var

avail() { $bb awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }

# The lowest MemAvailable until /tmp/sampling goes away, into /tmp/low.
sampler() {
	low=$(avail)
	while [ -e /tmp/sampling ]; do
		a=$(avail)
		[ "$a" -lt "$low" ] && low=$a
		echo "$low" > /tmp/low
		$bb sleep 1
	done
}

measure() {
	name=$1
	shift
	$bb sync
	echo 3 > /proc/sys/vm/drop_caches
	before=$(avail)
	: > /tmp/sampling
	echo "$before" > /tmp/low
	sampler &
	spid=$!
	/usr/bin/time -f "%e %M" -o /tmp/time sh -c "$* >/tmp/out.log 2>&1 && $bb sync"
	rc=$?
	$bb rm -f /tmp/sampling
	wait $spid
	if [ $rc -ne 0 ]; then
		if $bb dmesg | $bb tail -n 40 | $bb grep -q -i "out of memory\|oom-kill"; then
			echo "BENCH-OOM $name: $($bb tail -n 1 /tmp/out.log)"
		else
			echo "BENCH-FAIL $name: $($bb tail -n 2 /tmp/out.log)"
		fi
		$bb rm -f /mnt/bench/out
		return 0
	fi
	# lifeboat's page counts; makedumpfile's table of excluded pages.
	$bb grep -E "pages|Pages|Original|Total" /tmp/out.log | $bb sed 's/^/    /' 
	echo "BENCH $name 1 $($bb cat /tmp/time) $($bb stat -c %s /mnt/bench/out) $before $($bb cat /tmp/low)"
	if [ -n "${KEEP:-}" ]; then $bb mv /mnt/bench/out "/mnt/bench/$name"; else $bb rm -f /mnt/bench/out; fi
}

mdf_threads=
[ -n "${MDF_THREADS:-}" ] && mdf_threads="--num-threads $MDF_THREADS"
for tool in $TOOLS; do
	case $tool in
	lifeboat-lzo) measure "$tool" "$save" /proc/vmcore /mnt/bench/out 31 lzo ${THREADS:-} ;;
	lifeboat-zlib) measure "$tool" "$save" /proc/vmcore /mnt/bench/out 31 zlib ${THREADS:-} ;;
	makedumpfile-l) measure "$tool" makedumpfile -l -d 31 $mdf_threads /proc/vmcore /mnt/bench/out ;;
	makedumpfile-c) measure "$tool" makedumpfile -c -d 31 $mdf_threads /proc/vmcore /mnt/bench/out ;;
	lifeboat-zstd) measure "$tool" "$save" /proc/vmcore /mnt/bench/out 31 zstd ${THREADS:-} ;;
	makedumpfile-z) measure "$tool" "$MDF_ZSTD" -z -d 31 $mdf_threads /proc/vmcore /mnt/bench/out ;;
	makedumpfile13-l) measure "$tool" "$MDF_ZSTD" -l -d 31 $mdf_threads /proc/vmcore /mnt/bench/out ;;
	*) echo "BENCH-FAIL unknown tool $tool" ;;
	esac
done
$bb umount /mnt/bench
echo BENCH-DONE
