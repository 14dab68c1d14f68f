# kdump-common.sh: what kdump.sh and kdump-large.sh share (sourced from
# the checkout's top): the boot tests' helpers, the kernel, qemu's
# -icount, the writer's driver, the two images, the median.
source tests/boot/lib.sh
source tests/boot/cases-kdump.sh
source tests/boot/cases-rescue.sh
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER

# kdump_bench_icount SCRIPT: ICOUNT_ARGS, qemu's -icount when ICOUNT=1,
# so that the guest's clock counts its instructions and a busy host does
# not move it; it needs CPUS=1 (qemu's icount hangs bringing up a second).
kdump_bench_icount() {
	ICOUNT_ARGS=()
	[ "${ICOUNT:-0}" = 1 ] || return 0
	[ "${CPUS:-1}" = 1 ] || { echo "$1: ICOUNT=1 needs CPUS=1 (qemu's icount hangs bringing up a second CPU)" >&2; exit 1; }
	ICOUNT_ARGS=(-icount shift=0,sleep=on)
}

# kdump_bench_save SRC OUT: the capture's writer in a driver
# (tests/bench/kdump-save.c) from the kdump/ code of the checkout SRC; the
# files an older checkout lacks are left out.
kdump_bench_save() {
	(cd "$1" && cc -std=gnu11 -Wall -Wextra -O2 -D_GNU_SOURCE -I. -o "$2" tests/bench/kdump-save.c \
		kdump/elfcore.c kdump/vmcoreinfo.c kdump/kvmem.c kdump/pagefilter.c kdump/dumpsink.c \
		kdump/diskdump.c kdump/elfdump.c kdump/pagecomp.c kdump/pagecomp_lzo.c kdump/pagepool.c \
		kdump/vmcoreinfo_check.c common/kdumpconf.c common/kdumptarget.c \
		$(ls kdump/threadsize.c kdump/pagecomp_zstd.c common/fileread.c common/filewrite.c 2>/dev/null) \
		-lz -pthread)
}

# kdump_bench_images WORK BINARIES SCRIPT: WORK/generic.img, the first
# kernel's, and WORK/capture.img: host-only --kdump with a shell
# (action=shell) on the dump disk LABEL=kdbench, carrying BINARIES (comma
# separated) and SCRIPT as /bench.sh. Logs in WORK/build.log.
kdump_bench_images() {
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$1/generic.img" 2>"$1/build.log" &&
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4 --rescue busybox --kdump \
		--kdump-target LABEL=kdbench --kdump-options action=shell,compress=lzo \
		--add-binaries "$2" --add-files "$3:/bench.sh" -o "$1/capture.img" 2>>"$1/build.log"
}

# An awk function: median(tool, field) over the rows whose name[] is tool,
# of val[row, field].
KDUMP_BENCH_MEDIAN='
	function median(tool, field,   n, i, j, t, v) {
		n = 0
		for (i = 1; i <= NR; i++) if (name[i] == tool) v[++n] = val[i, field]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}'
