#!/bin/bash
# kdump-large.sh: kdump on a large guest. A qemu guest of MEM (default 8G)
# fills its memory (tests/bench/kdump-large-fill.c: page cache on tmpfs,
# anonymous pages, zero pages in pipe buffers, kmalloc-4k slab in the
# queues of Unix sockets, FILL="CACHE ANON ZERO SLAB" MiB), prints
# /proc/meminfo, crashes (sysrq c) and boots the capture kernel in
# crashkernel=CRASHKERNEL. The capture image (lifeboat build --kdump,
# action=shell) saves the dump itself first ("kdump: dump saved as ... in
# N s; peak memory ..."), then this script types
# tests/bench/kdump-large-capture.sh into its shell: on the same
# /proc/vmcore, lifeboat's writer (LZO and zlib pages) and makedumpfile -l
# and -c at -d 31, each once per boot, on the same CPUs. A benchmark, not a
# test.
# Each boot takes the qemu lock (/tmp/lifeboat-qemu.lock) for itself only.
# Usage: tests/bench/kdump-large.sh
# Environment: MEM=8G, CRASHKERNEL=512M, FILL="2048 2560 1024 1024",
#   CPUS=1 (guest CPUs and the capture's nr_cpus=), ICOUNT=1 (qemu
#   -icount shift=0,sleep=on: the guest clock counts instructions, 1 ns
#   each; needs CPUS=1), BOOTS=1, TOOLS="..." (kdump-large-capture.sh's),
#   THREADS=N (lifeboat's, default the capture's choice), MDF_THREADS=N
#   (makedumpfile --num-threads), DISK_MB=4096 (the dump disk),
#   MDF_ZSTD=PATH (a makedumpfile built with zstd, e.g. Debian 13's 1.7.6
#   unpacked with dpkg -x: carried with its libraries, libzstd among them,
#   for the makedumpfile-z and lifeboat-zstd tools),
#   BOOT_TIMEOUT=700 (seconds for one boot; a lock hold stays under 12 minutes),
#   KEEP=1 (each file kept on WORK/run/bench.img as /TOOL),
#   BUILD=DIR (built lifeboat), WORK=DIR, KVER=VERSION.
# Output: the console logs in WORK/run/console-N.log, the BENCH lines and
#   a table of medians on stdout.
set -eu
cd "$(dirname "$0")/../.."
TOP=$PWD
work=$TOP/${WORK:-build/bench-kdump-large}
MEM=${MEM:-8G}
CRASHKERNEL=${CRASHKERNEL:-512M}
FILL=${FILL:-2048 2560 1024 1024}
CPUS=${CPUS:-1}
ICOUNT=${ICOUNT:-1}
BOOTS=${BOOTS:-1}
DISK_MB=${DISK_MB:-4096}
LOCK=/tmp/lifeboat-qemu.lock
mkdir -p "$work"
source tests/bench/kdump-common.sh
kdump_bench_icount kdump-large.sh
kdump_bench_save "$TOP" "$work/kdump-save"
cc -std=gnu11 -Wall -Wextra -O2 -static -o "$work/fill" tests/bench/kdump-large-fill.c
CASE_DIR=$work/run
# lib.sh sets its own QEMU_TIMEOUT for the boot cases.
QEMU_TIMEOUT=${BOOT_TIMEOUT:-700}
rm -rf "$CASE_DIR"
mkdir -p "$CASE_DIR/empty"

kdump_bench_images "$work" "/usr/bin/makedumpfile,/usr/bin/time,$work/kdump-save${MDF_ZSTD:+,$MDF_ZSTD}" \
	"$TOP/tests/bench/kdump-large-capture.sh"

# The first kernel's root: the kdump cases' (arm, then crash), with the
# filler run and its memory printed before the crash.
kdump_root_tree "$CASE_DIR/root" "$work/capture.img" bench "nr_cpus=$CPUS"
cp "$work/fill" "$CASE_DIR/root/bin/fill"
mkdir -p "$CASE_DIR/root/tmp"   # the root is mounted read-only
fill_lines="echo 67108864 > /proc/sys/fs/pipe-max-size
busybox mount -t tmpfs tmpfs /tmp
echo \"FILL-START \$(busybox cut -d' ' -f1 /proc/uptime) $FILL\"
/bin/fill $FILL /tmp >/tmp/fill.out 2>&1 &
while ! busybox grep -q 'FILL-DONE\\|kdump-large-fill' /tmp/fill.out; do busybox sleep 1; done
echo \"FILL-END \$(busybox cut -d' ' -f1 /proc/uptime) \$(busybox cat /tmp/fill.out)\"
busybox grep -E '^(MemTotal|MemFree|MemAvailable|Cached|Shmem|AnonPages|Slab|SUnreclaim|PageTables):' /proc/meminfo | busybox sed 's/^/FILL-MEM /'"
awk -v lines="$fill_lines" '/^echo 1 > \/proc\/sys\/kernel\/sysrq/ { print lines } { print }' \
	"$CASE_DIR/root/sbin/init" > "$CASE_DIR/init.new"
install -m 0755 "$CASE_DIR/init.new" "$CASE_DIR/root/sbin/init"
mkfs_image ext4 "$CASE_DIR/root.img" 96 "$CASE_DIR/root" kdroot 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b11

# capture_boot N: one fill, crash and capture, under the qemu lock.
capture_boot() {
	local rc=0
	rm -f "$CASE_DIR"/serial.* "$CASE_DIR"/monitor.*
	: >"$CASE_DIR/console.log"
	mkfs_image ext4 "$CASE_DIR/bench.img" "$DISK_MB" "$CASE_DIR/empty" kdbench 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b12
	rescue_start "$work/generic.img" "root=LABEL=kdroot crashkernel=$CRASHKERNEL" \
		-m "$MEM" -drive "file=$CASE_DIR/root.img,format=raw,if=virtio" \
		-drive "file=$CASE_DIR/bench.img,format=raw,if=virtio" -smp "$CPUS" "${ICOUNT_ARGS[@]}"
	expect "kdump: starting a shell" "$QEMU_TIMEOUT" >&2 || rc=1
	[ $rc -ne 0 ] || { sleep 2; type_line "KEEP=${KEEP:-} MDF_ZSTD=${MDF_ZSTD:-} TOOLS='${TOOLS:-}' THREADS=${THREADS:-} MDF_THREADS=${MDF_THREADS:-} sh /bench.sh $work/kdump-save; busybox poweroff -f"; }
	[ $rc -ne 0 ] || expect "BENCH-DONE" "$QEMU_TIMEOUT" >&2 || rc=1
	rescue_stop $rc || true
	mv "$CASE_DIR/console.log" "$CASE_DIR/console-$1.log"
	echo "Boot $1 (rc $rc): load average $(cut -d' ' -f1-3 /proc/loadavg) after it"
	tr -d '\r' <"$CASE_DIR/console-$1.log" | grep -a -E "FILL-|kdump: (dump saved as|pages compressed with|[0-9]+ of [0-9]+ CPUs)|BENCH-(CPUS|MEM|OOM|FAIL)|Kernel panic|Out of memory" | sed 's/^/    /'
	tr -d '\r' <"$CASE_DIR/console-$1.log" | grep -a "^BENCH [a-z]" >>"$CASE_DIR/runs" || true
}

echo "Kernel $KVER, $(nproc) host cores; guest -m $MEM, $CPUS CPU(s)${ICOUNT_ARGS:+, ${ICOUNT_ARGS[*]}}, crashkernel=$CRASHKERNEL, fill (MiB cache anon zero slab) $FILL; $BOOTS boot(s)"
: >"$CASE_DIR/runs"
for ((b = 1; b <= BOOTS; b++)); do
	exec 9>"$LOCK"
	flock 9
	capture_boot "$b"
	flock -u 9
	exec 9>&-
done
echo "Runs (tool, run, wall s, peak RSS KiB, bytes, MemAvailable KiB before, lowest):"
sed 's/^BENCH /    /' "$CASE_DIR/runs"
echo
awk "$KDUMP_BENCH_MEDIAN"'
	{ name[NR] = $2; for (f = 1; f <= 5; f++) val[NR, f] = $(f + 3) }
	END {
		n = split("lifeboat-lzo makedumpfile-l lifeboat-zlib makedumpfile-c lifeboat-zstd makedumpfile-z makedumpfile13-l", tools, " ")
		label["lifeboat-zstd"] = "lifeboat -d 31, zstd"
		label["makedumpfile-z"] = "makedumpfile 1.7.6 -z -d 31"
		label["makedumpfile13-l"] = "makedumpfile 1.7.6 -l -d 31"
		label["makedumpfile-c"] = "makedumpfile -c -d 31"
		label["makedumpfile-l"] = "makedumpfile -l -d 31"
		label["lifeboat-zlib"] = "lifeboat -d 31, zlib"
		label["lifeboat-lzo"] = "lifeboat -d 31, lzo"
		lt = median("makedumpfile-l", 1); cs = median("makedumpfile-c", 3)
		print "| tool | wall time (median) | output | peak RSS | MemAvailable used at most | time vs -l | size vs -c |"
		print "|---|---|---|---|---|---|---|"
		for (k = 1; k <= n; k++) {
			t = tools[k]
			for (i = 1; i <= NR && name[i] != t; i++);
			if (i > NR) continue
			printf "| %s | %.2f s | %.1f MB | %.1f MiB | %.1f MiB | %s | %s |\n", label[t], median(t, 1),
				median(t, 3) / 1e6, median(t, 2) / 1024, (median(t, 4) - median(t, 5)) / 1024,
				lt ? sprintf("%.2f", median(t, 1) / lt) : "-", cs ? sprintf("%.3f", median(t, 3) / cs) : "-"
		}
	}' "$CASE_DIR/runs"
