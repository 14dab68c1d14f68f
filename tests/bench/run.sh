#!/bin/bash
# run.sh: lifeboat against initramfs-tools, dracut and tiny-initramfs, side by
# side in one run, on the same kernel and the same qemu VM. A benchmark, not a
# test: it measures and prints, it asserts nothing.
#
# Usage (as root, from the top of the tree; ~20 minutes at the defaults):
#     make all build/test-init && tests/bench/fetch-tools.sh && tests/bench/run.sh
# Environment:
#     N=5           builds of each image; the median wall-clock time is reported
#     N_SLOW=3      builds of the dracut --no-hostonly image (about a minute each)
#     M=3           qemu boots of each image, in rounds of one boot each;
#                   medians are reported
#     KVER=...      kernel version (default: the newest in /boot, as the boot tests)
#     TOOLS="..."   a subset of the rows below, by id (for trial runs)
#     SMP=1         guest CPUs (with 2, a host-only image's root filesystem
#                   module loads while the devices probe: wall clock only)
#     ICOUNT=1      boot with qemu's -icount shift=0,sleep=on: the guest's
#                   clock counts the instructions it ran (1 ns each) and
#                   follows real time only while it idles, so the host's
#                   load drops out and one boot says what five would
# Output: the table on stdout and in build/bench/results.md; images, build
# logs and console logs in build/bench/{img,logs}.
#
# Rows (id: what the tool is asked to make):
#   lifeboat-generic   lifeboat build --config /dev/null --generic
#   lifeboat-host      lifeboat build --config /dev/null --host-only
#   itools-most        mkinitramfs, Debian's /etc/initramfs-tools with MODULES=most
#   itools-dep         the same with MODULES=dep
#   dracut-generic     dracut --no-hostonly, the package's dracut.conf only
#   dracut-host        dracut --hostonly --no-hostonly-cmdline
#                      --add-drivers virtio_blk, the same configuration (see
#                      gen_dracut-host for why the two options)
#   tirfs              mktirfs with the package defaults (modules of the host's
#                      root device; it is host-only by design)
#   lifeboat-gzip, lifeboat-zstd, lifeboat-xz, lifeboat-none
#                      lifeboat --generic with --compress gzip|zstd|xz|none (not
#                      in the default set; lifeboat-generic is lz4). E.g.
#                      TOOLS="lifeboat-generic lifeboat-gzip lifeboat-zstd
#                      lifeboat-xz lifeboat-none" N=3 M=5 tests/bench/run.sh
#   lifeboat-ref       lifeboat --generic made by another build of lifeboat,
#                      REF_BUILD=DIR (its build/ directory: DIR/lifeboat and
#                      the init beside it), to measure a change side by side
#                      with the commit before it (not in the default set)
#   lifeboat-host-ref  the same for --host-only
# Every image boots the same VM (boot_qemu from tests/boot/lib.sh: TCG, 512 MB,
# virtio-blk, -snapshot so each boot sees the same pristine disk) with the same
# kernel command line:
#     root=UUID=<uuid> ro printk.time=1 fsck.mode=skip rd.skipfsck
# fsck.mode=skip is read by initramfs-tools and by systemd in dracut's image,
# rd.skipfsck by dracut's own scripts; lifeboat and tiny-initramfs never fsck.
# No `quiet`: the kernel must print "Run /init as init process", which is
# measured against the uptime the root's /sbin/init (build/test-init) prints.
set -u
source "$(dirname "$0")/../boot/lib.sh"

BENCH=$BUILD/bench
N=${N:-5}
N_SLOW=${N_SLOW:-3}
M=${M:-3}
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
SMP=${SMP:-1}
ICOUNT_ARGS=()
[ "${ICOUNT:-0}" = 1 ] && ICOUNT_ARGS=(-icount shift=0,sleep=on)
# qemu's icount runs the CPUs in turn on one thread; with SMP > 1 the
# guest does not get past bringing up the second CPU here.
[ "$SMP" != 1 ] && [ "${ICOUNT:-0}" = 1 ] && { echo "bench: ICOUNT=1 needs SMP=1"; exit 1; }
ALL_TOOLS="lifeboat-generic lifeboat-host itools-most itools-dep dracut-generic dracut-host tirfs"
TOOLS=${TOOLS:-$ALL_TOOLS}
ROOT_UUID=6b1e2d3c-4f5a-4b6c-9d7e-8f9a0b1c2d3e
APPEND="root=UUID=$ROOT_UUID ro printk.time=1 fsck.mode=skip rd.skipfsck"
DRACUT_ROOT=$BENCH/root-dracut-core
MKTIRFS=$BENCH/root-tiny-initramfs-core/usr/sbin/mktirfs.local

# One row per tool: kind (the lifeboat row it is compared with) and label.
declare -A KIND=([lifeboat-generic]=generic [lifeboat-host]=host-only
	[itools-most]=generic [itools-dep]=host-only [dracut-generic]=generic
	[dracut-host]=host-only [tirfs]=host-only [lifeboat-zstd]=generic
	[lifeboat-xz]=generic [lifeboat-gzip]=generic [lifeboat-none]=generic
	[lifeboat-ref]=generic [lifeboat-host-ref]=host-only)
declare -A LABEL=([lifeboat-generic]="lifeboat --generic"
	[lifeboat-host]="lifeboat --host-only" [itools-most]="mkinitramfs MODULES=most"
	[itools-dep]="mkinitramfs MODULES=dep" [dracut-generic]="dracut --no-hostonly"
	[dracut-host]="dracut --hostonly" [tirfs]="tiny-initramfs (mktirfs)"
	[lifeboat-zstd]="lifeboat --generic --compress zstd"
	[lifeboat-xz]="lifeboat --generic --compress xz"
	[lifeboat-gzip]="lifeboat --generic --compress gzip"
	[lifeboat-none]="lifeboat --generic --compress none"
	[lifeboat-ref]="lifeboat --generic, REF_BUILD"
	[lifeboat-host-ref]="lifeboat --host-only, REF_BUILD")
declare -A GEN_MED SIZE BOOT_MED UPTIME_MED RUNS BOOTS_OK

# gen_ID OUT: make one image. Output goes to the caller's log.
gen_lifeboat-generic() { "$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$1"; }
gen_lifeboat_compressed() { "$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --compress "$2" -o "$1"; }
gen_lifeboat-zstd() { gen_lifeboat_compressed "$1" zstd; }
gen_lifeboat-xz() { gen_lifeboat_compressed "$1" xz; }
gen_lifeboat-gzip() { gen_lifeboat_compressed "$1" gzip; }
gen_lifeboat-none() { gen_lifeboat_compressed "$1" none; }
gen_lifeboat-ref() { "$REF_BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$1"; }
gen_lifeboat-host-ref() { "$REF_BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" -o "$1"; }
gen_lifeboat-host() { "$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" -o "$1"; }
gen_itools-most() { mkinitramfs -d "$BENCH/conf-itools-most" -o "$1" "$KVER"; }
gen_itools-dep() { mkinitramfs -d "$BENCH/conf-itools-dep" -o "$1" "$KVER"; }
dracut_run() {
	# dracutbasedir is dracut's documented way to use modules from elsewhere.
	dracutbasedir=$DRACUT_ROOT/usr/lib/dracut "$DRACUT_ROOT/usr/bin/dracut" \
		--conf "$DRACUT_ROOT/etc/dracut.conf" --confdir "$BENCH/conf-dracut.d" \
		--force "$@" "$KVER"
}
gen_dracut-generic() { dracut_run --no-hostonly "$1"; }
# This build machine's kernel has no loadable modules (no /proc/modules), so
# dracut's host-only scan misses the root disk's driver, and it would store
# the host's root mount options: name the driver, keep the command line ours.
gen_dracut-host() { dracut_run --hostonly --no-hostonly-cmdline --add-drivers virtio_blk "$1"; }
gen_tirfs() { "$MKTIRFS" -o "$1" "$KVER"; }

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2]
		else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

now() { date +%s.%N; }

check_setup() {
	[ -r "$KERNEL" ] || { echo "no kernel at $KERNEL"; return 1; }
	[ -x "$TEST_INIT" ] || { echo "no $TEST_INIT: make build/test-init"; return 1; }
	[ -x "$BUILD/lifeboat" ] || { echo "no $BUILD/lifeboat: make"; return 1; }
	case " $TOOLS " in *" lifeboat-ref "* | *" lifeboat-host-ref "*)
		[ -x "${REF_BUILD:-}/lifeboat" ] || { echo "lifeboat-ref: REF_BUILD=DIR, DIR/lifeboat built"; return 1; }
	esac
	# The other tools only when a row of theirs is asked for.
	case " $TOOLS " in *" tirfs "* | *" dracut-"*)
		[ -x "$MKTIRFS" ] && [ -d "$DRACUT_ROOT" ] || { echo "run tests/bench/fetch-tools.sh first"; return 1; }
	esac
	case " $TOOLS " in *" itools-"*)
		command -v mkinitramfs >/dev/null || { echo "no mkinitramfs: apt-get install initramfs-tools"; return 1; }
	esac
}

# Private configurations: initramfs-tools' from /etc with MODULES= set; an
# empty drop-in directory for dracut (the package's dracut.conf is used).
make_configs() {
	local m
	for m in most dep; do
		rm -rf "$BENCH/conf-itools-$m"
		cp -a /etc/initramfs-tools "$BENCH/conf-itools-$m"
		sed -i "s/^MODULES=.*/MODULES=$m/" "$BENCH/conf-itools-$m/initramfs.conf"
	done
	rm -rf "$BENCH/conf-dracut.d"
	mkdir -p "$BENCH/conf-dracut.d"
}

# The root disk: the boot tests' tree plus an os-release (systemd's
# switch-root in dracut's image refuses a root without one) and an fstab.
make_root_disk() {
	local tree=$BENCH/tree
	make_root_tree "$tree"
	printf 'ID=lifeboat-bench\nNAME="lifeboat bench root"\n' > "$tree/etc/os-release"
	printf 'UUID=%s / ext4 ro 0 0\n' "$ROOT_UUID" > "$tree/etc/fstab"
	mkfs_image ext4 "$BENCH/root.img" 32 "$tree" lbbench "$ROOT_UUID"
}

bench_generation() {
	local id=$1 n=$2 img=$BENCH/img/$1.img i t0 t1
	: > "$BENCH/logs/$id.gen-times"
	for ((i = 1; i <= n; i++)); do
		t0=$(now)
		if ! "gen_$id" "$img" > "$BENCH/logs/$id.gen.log" 2>&1; then
			echo "bench: $id: generation failed (log: $BENCH/logs/$id.gen.log)" >&2
			return 1
		fi
		t1=$(now)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> "$BENCH/logs/$id.gen-times"
	done
	RUNS[$id]=$n
	GEN_MED[$id]=$(median < "$BENCH/logs/$id.gen-times")
	SIZE[$id]=$(stat -c %s "$img")
	echo "bench: $id: generation $(tr '\n' ' ' < "$BENCH/logs/$id.gen-times")s -> median ${GEN_MED[$id]} s, ${SIZE[$id]} bytes"
}

# The kernel's "Run /init" timestamp and the root init's uptime from a log;
# prints "RUN UPTIME" or nothing when the boot did not reach the root.
boot_times() {
	local log=$1 run up
	run=$(tr -d '\r' < "$log" | sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' | head -n 1)
	up=$(tr -d '\r' < "$log" | sed -n 's/^LIFEBOAT-TEST: uptime \([0-9.]*\) .*/\1/p' | head -n 1)
	[ -n "$run" ] && [ -n "$up" ] && echo "$run $up"
}

# Boot i of image id; the times go to the id's boot-times file.
boot_once() {
	local id=$1 i=$2 img=$BENCH/img/$1.img log times
	log=$BENCH/logs/$id.boot$i.log
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$img" "$APPEND" $(disk_args virtio-blk "$BENCH/root.img") -snapshot \
		-smp "$SMP" "${ICOUNT_ARGS[@]}"
	if times=$(boot_times "$log"); then
		echo "$times" >> "$BENCH/logs/$id.boot-times"
	else
		echo "bench: $id: boot $i did not reach the root's init (log: $log)" >&2
	fi
}

boot_summary() {
	local id=$1
	BOOTS_OK[$id]=$(wc -l < "$BENCH/logs/$id.boot-times")
	BOOT_MED[$id]=$(awk '{ printf "%.3f\n", $2 - $1 }' "$BENCH/logs/$id.boot-times" | median)
	UPTIME_MED[$id]=$(awk '{ print $2 }' "$BENCH/logs/$id.boot-times" | median)
	echo "bench: $id: boots (Run /init, uptime at root init): $(tr '\n' ';' < "$BENCH/logs/$id.boot-times") -> median ${BOOT_MED[$id]} s, uptime ${UPTIME_MED[$id]} s"
}

# Round i boots every image once: a host that slows down for a while
# slows every row alike.
bench_boots() {
	local id i
	for id in $TOOLS; do
		[ -s "$BENCH/img/$id.img" ] && : > "$BENCH/logs/$id.boot-times"
	done
	for ((i = 1; i <= M; i++)); do
		for id in $TOOLS; do
			[ -s "$BENCH/img/$id.img" ] && boot_once "$id" "$i"
		done
	done
	for id in $TOOLS; do
		[ -s "$BENCH/img/$id.img" ] && boot_summary "$id"
	done
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.1f×\n", a / b }'
}

# The table: ratios are this row's figure over lifeboat's of the same kind.
table() {
	local id base mb
	echo "| tool | kind | generation, median s (runs) | × lifeboat | size MB | × lifeboat | Run /init → root init, median s (boots) | uptime at root init, median s |"
	echo "|---|---|---|---|---|---|---|---|"
	for id in $TOOLS; do
		base=lifeboat-generic
		[ "${KIND[$id]}" = host-only ] && base=lifeboat-host
		mb=$(awk -v s="${SIZE[$id]:-}" 'BEGIN { if (s == "") print "-"; else printf "%.2f\n", s / 1e6 }')
		printf '| %s | %s | %s (%s) | %s | %s | %s | %s (%s/%s) | %s |\n' \
			"${LABEL[$id]}" "${KIND[$id]}" "${GEN_MED[$id]:--}" "${RUNS[$id]:-0}" \
			"$(ratio "${GEN_MED[$id]:-}" "${GEN_MED[$base]:-}")" "$mb" \
			"$(ratio "${SIZE[$id]:-}" "${SIZE[$base]:-}")" \
			"${BOOT_MED[$id]:--}" "${BOOTS_OK[$id]:-0}" "$M" "${UPTIME_MED[$id]:--}"
	done
}

main() {
	local id n start=$SECONDS
	check_setup || exit 1
	mkdir -p "$BENCH/img" "$BENCH/logs"
	rm -f "$BENCH"/img/*.img "$BENCH"/logs/*
	make_configs
	make_root_disk || exit 1
	echo "bench: kernel $KVER, $(nproc) cores, N=$N (dracut --no-hostonly: $N_SLOW), M=$M"
	echo "bench: command line: $APPEND"
	for id in $TOOLS; do
		n=$N
		[ "$id" = dracut-generic ] && n=$N_SLOW
		bench_generation "$id" "$n"
	done
	bench_boots
	{
		echo "Kernel $KVER; $(nproc) cores; qemu TCG${ICOUNT_ARGS:+ ${ICOUNT_ARGS[*]}}, $SMP CPU(s), 512 MB, virtio-blk ext4 root;" \
			"N=$N builds (dracut --no-hostonly: $N_SLOW), M=$M boots; $(date -u +%Y-%m-%d)."
		echo "Kernel command line: \`$GUEST_APPEND $APPEND\`."
		echo
		table
	} > "$BENCH/results.md"
	echo
	cat "$BENCH/results.md"
	echo
	echo "bench: done in $((SECONDS - start)) s; table in $BENCH/results.md"
}

main
