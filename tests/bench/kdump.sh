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
mkdir -p "$work"
source tests/bench/kdump-common.sh
kdump_bench_icount kdump.sh
kdump_bench_save "$TOP" "$work/kdump-save"
binaries=/usr/bin/makedumpfile,/usr/bin/time,$work/kdump-save
if [ -n "$REF_SRC" ]; then
	kdump_bench_save "$REF_SRC" "$work/kdump-save-ref"
	binaries=$binaries,$work/kdump-save-ref
fi
CASE_DIR=$work/run
QEMU_TIMEOUT=1200
rm -rf "$CASE_DIR"
mkdir -p "$CASE_DIR/empty"

kdump_bench_images "$work" "$binaries" "$TOP/tests/bench/kdump-capture-bench.sh"
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
awk "$KDUMP_BENCH_MEDIAN"'
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
