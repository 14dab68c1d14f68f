#!/bin/bash
# kdump.sh: lifeboat's dump writer (zlib and LZO pages) against
# makedumpfile -c -d 31 and -l -d 31, in ONE capture kernel boot, on the
# same /proc/vmcore. A qemu guest
# (512 MB, crashkernel=128M, as the kdump boot cases) crashes; its capture
# image (lifeboat build --kdump, action=shell) also carries makedumpfile, the
# capture's writer in a small driver (tests/bench/kdump-save.c, the same
# kdump/ code) and tests/bench/kdump-capture-bench.sh, which this script
# types into the capture's shell. Each tool runs RUNS times (default 3),
# interleaved, writing to an ext4 disk and syncing; GNU time gives the wall
# time and the peak RSS. Output: the runs, then a Markdown table of medians
# with ratios to makedumpfile. Needs: qemu, makedumpfile, busybox, time.
# Usage: tests/bench/kdump.sh   (RUNS=N per boot, BOOTS=N crash and capture
# boots, the medians over all; CPUS=N: the guest's CPUs and the capture
# kernel's nr_cpus=, default 1; COPY=1 adds a plain copy; REF_SRC=DIR, a
# checkout of another commit, adds its writer with LZO pages as
# lifeboat-ref-lzo; ICOUNT=1 (with CPUS=1): qemu's -icount shift=0,sleep=on,
# so the guest's clock counts its instructions and a busy host does not
# move it; WORK=DIR, KVER=VERSION)
set -eu
cd "$(dirname "$0")/../.."
TOP=$PWD
work=$TOP/${WORK:-build/bench-kdump}
RUNS=${RUNS:-3}
BOOTS=${BOOTS:-1}
CPUS=${CPUS:-1}
COPY=${COPY:-}
REF_SRC=${REF_SRC:-}
ICOUNT_ARGS=()
if [ "${ICOUNT:-0}" = 1 ]; then
	[ "$CPUS" = 1 ] || { echo "kdump.sh: ICOUNT=1 needs CPUS=1 (qemu's icount hangs bringing up a second CPU)" >&2; exit 1; }
	ICOUNT_ARGS=(-icount shift=0,sleep=on)
fi
mkdir -p "$work"
# build_save SRC OUT: the writer's driver from the kdump/ code of SRC.
build_save() {
	(cd "$1" && cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -o "$2" tests/bench/kdump-save.c \
		kdump/elfcore.c kdump/vmcoreinfo.c kdump/kvmem.c kdump/pagefilter.c kdump/dumpsink.c \
		kdump/diskdump.c kdump/elfdump.c kdump/pagecomp.c kdump/pagecomp_lzo.c kdump/pagepool.c $(ls kdump/threadsize.c kdump/pagecomp_zstd.c 2>/dev/null) \
		kdump/vmcoreinfo_check.c common/kdumpconf.c common/kdumptarget.c $(ls common/fileread.c common/filewrite.c 2>/dev/null) -lz -pthread)
}
build_save "$TOP" "$work/kdump-save"
binaries=/usr/bin/makedumpfile,/usr/bin/time,$work/kdump-save
if [ -n "$REF_SRC" ]; then
	build_save "$REF_SRC" "$work/kdump-save-ref"
	binaries=$binaries,$work/kdump-save-ref
fi

source tests/boot/lib.sh
source tests/boot/cases-kdump.sh
source tests/boot/cases-rescue.sh
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
CASE_DIR=$work/run
QEMU_TIMEOUT=1200
rm -rf "$CASE_DIR"
mkdir -p "$CASE_DIR/empty"

"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$work/generic.img" 2>"$work/build.log"
"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
	--add-modules virtio_pci,virtio_blk,ext4 --rescue busybox --kdump \
	--kdump-target LABEL=kdbench --kdump-options action=shell,compress=lzo \
	--add-binaries "$binaries" \
	--add-files "$TOP/tests/bench/kdump-capture-bench.sh:/bench.sh" -o "$work/capture.img" 2>>"$work/build.log"
kdump_root_tree "$CASE_DIR/root" "$work/capture.img" bench "nr_cpus=$CPUS"
mkfs_image ext4 "$CASE_DIR/root.img" 96 "$CASE_DIR/root" kdroot 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b11

# capture_boot N: one crash and capture; its console log is console-N.log.
capture_boot() {
	local rc=0
	rm -f "$CASE_DIR"/serial.* "$CASE_DIR"/monitor.*
	: >"$CASE_DIR/console.log"   # expect reads it before the console reader starts
	mkfs_image ext4 "$CASE_DIR/bench.img" 1500 "$CASE_DIR/empty" kdbench 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b12
	rescue_start "$work/generic.img" "root=LABEL=kdroot crashkernel=$KDUMP_CRASHKERNEL" \
		-drive "file=$CASE_DIR/root.img,format=raw,if=virtio" \
		-drive "file=$CASE_DIR/bench.img,format=raw,if=virtio" -smp "$CPUS" "${ICOUNT_ARGS[@]}"
	expect "kdump: starting a shell" 600 >&2 || rc=1
	[ $rc -ne 0 ] || { sleep 2; type_line "COPY=$COPY REF=${REF_SRC:+$work/kdump-save-ref} sh /bench.sh $RUNS $work/kdump-save; busybox poweroff -f"; }
	[ $rc -ne 0 ] || expect "BENCH-DONE|BENCH-FAIL" 1200 >&2 || rc=1
	rescue_stop $rc || true   # its wait reports the killed console readers
	mv "$CASE_DIR/console.log" "$CASE_DIR/console-$1.log"
	grep -a "BENCH-FAIL" "$CASE_DIR/console-$1.log" >&2 && rc=1
	[ $rc -eq 0 ] || { echo "kdump.sh: capture boot $1 failed; see $CASE_DIR/console-$1.log" >&2; exit 1; }
	echo "Boot $1: load average $(cut -d' ' -f1-3 /proc/loadavg) after it; the capture's own save (init, level 31, same disk):"
	grep -a -o -E "kdump: (dump saved as|pages compressed with) .*" "$CASE_DIR/console-$1.log" | tr -d '\r' | sed 's/^/    /'
	grep -a -o "BENCH-CPUS .*" "$CASE_DIR/console-$1.log" | tr -d '\r' | sed 's/^/    /'
	grep -a "^BENCH [a-z]" "$CASE_DIR/console-$1.log" | tr -d '\r' >>"$CASE_DIR/runs"
}

echo "Capture kernel $KVER, $(nproc) host cores, $CPUS guest CPU(s)${ICOUNT_ARGS:+, ${ICOUNT_ARGS[*]}}; $BOOTS boot(s) of $RUNS runs each"
for ((b = 1; b <= BOOTS; b++)); do
	capture_boot "$b"
done
echo "Runs (tool, run, wall s, peak RSS KiB, output bytes):"
sed 's/^BENCH /    /' "$CASE_DIR/runs"
echo
awk '
	function median(tool, field,   n, i, j, t, v) {
		n = 0
		for (i = 1; i <= NR; i++) if (name[i] == tool) v[++n] = val[i, field]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{ name[NR] = $2; val[NR, 1] = $4; val[NR, 2] = $5; val[NR, 3] = $6 }
	END {
		n = split("makedumpfile-c makedumpfile-l lifeboat-zlib lifeboat-lzo lifeboat-ref-lzo copy", tools, " ")
		label["makedumpfile-c"] = "makedumpfile -c -d 31"
		label["makedumpfile-l"] = "makedumpfile -l -d 31"
		label["lifeboat-zlib"] = "lifeboat -d 31, zlib"
		label["lifeboat-lzo"] = "lifeboat -d 31, lzo"
		label["lifeboat-ref-lzo"] = "REF_SRC'"'"'s lifeboat -d 31, lzo"
		label["copy"] = "plain copy (busybox cp)"
		lt = median("makedumpfile-l", 1); cs = median("makedumpfile-c", 3)
		print "| tool | wall time (median) | output | peak RSS | time vs -l | size vs -c |"
		print "|---|---|---|---|---|---|"
		for (k = 1; k <= n; k++) {
			t = tools[k]
			for (i = 1; i <= NR && name[i] != t; i++);
			if (i > NR) continue
			printf "| %s | %.2f s | %.1f MB | %.1f MiB | %.2f | %.3f |\n", label[t], median(t, 1),
				median(t, 3) / 1e6, median(t, 2) / 1024, median(t, 1) / lt, median(t, 3) / cs
		}
	}' "$CASE_DIR/runs"
