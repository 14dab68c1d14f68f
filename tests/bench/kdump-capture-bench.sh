#!/bin/sh
# [COPY=1] [REF=KDUMP_SAVE_REF] kdump-capture-bench.sh RUNS KDUMP_SAVE:
# runs inside the capture kernel, in the capture image's shell
# (tests/bench/kdump.sh packs it as /bench.sh and types the command). On
# the same /proc/vmcore, RUNS times in turn: lifeboat's writer (KDUMP_SAVE,
# the capture's kdump/ code in a small driver) with zlib pages and with LZO
# pages, on every CPU the capture kernel has, makedumpfile -c -d 31 and
# makedumpfile -l -d 31 (with REF, another commit's writer with LZO pages;
# with COPY=1, a plain copy), each writing to the ext4 disk labelled
# kdbench and synced before the clock stops. GNU time (/usr/bin/time,
# added to the image) measures: busybox 1.35's time reports the peak RSS
# four times too large (it takes ru_maxrss, already in KiB, for a count of
# pages). Prints one "BENCH tool run wall_s maxrss_kib bytes" line per run,
# then BENCH-DONE.
runs=$1
save=$2
bb=busybox
echo "BENCH-CPUS $($bb nproc)"

dev=$($bb findfs LABEL=kdbench) || { echo "BENCH-FAIL no disk labelled kdbench"; exit 1; }
$bb mkdir -p /mnt/bench
$bb mount -t ext4 "$dev" /mnt/bench || { echo "BENCH-FAIL mounting $dev"; exit 1; }
$bb rm -f /mnt/bench/out

# measure NAME RUN COMMAND...: wall time and peak RSS (of the command or
# the sh around it, whichever is larger) until the output is on disk.
measure() {
	name=$1 run=$2
	shift 2
	$bb sync
	echo 3 > /proc/sys/vm/drop_caches
	if ! /usr/bin/time -f "%e %M" -o /tmp/time sh -c "$* >/tmp/out.log 2>&1 && $bb sync"; then
		echo "BENCH-FAIL $name run $run: $($bb tail -n 2 /tmp/out.log)"
		return 1
	fi
	echo "BENCH $name $run $($bb cat /tmp/time) $($bb stat -c %s /mnt/bench/out)"
	$bb rm -f /mnt/bench/out
}

i=1
while [ "$i" -le "$runs" ]; do
	measure lifeboat-zlib "$i" "$save" /proc/vmcore /mnt/bench/out 31 zlib || exit 1
	measure makedumpfile-c "$i" makedumpfile -c -d 31 /proc/vmcore /mnt/bench/out || exit 1
	measure lifeboat-lzo "$i" "$save" /proc/vmcore /mnt/bench/out 31 lzo || exit 1
	measure makedumpfile-l "$i" makedumpfile -l -d 31 /proc/vmcore /mnt/bench/out || exit 1
	[ -z "${REF:-}" ] || measure lifeboat-ref-lzo "$i" "$REF" /proc/vmcore /mnt/bench/out 31 lzo || exit 1
	[ -z "${COPY:-}" ] || measure copy "$i" $bb cp /proc/vmcore /mnt/bench/out || exit 1
	i=$((i + 1))
done
$bb umount /mnt/bench
echo BENCH-DONE
