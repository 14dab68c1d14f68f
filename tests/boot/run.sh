#!/bin/bash
# run.sh: the qemu boot tests. Prepares the images and disks once, then boots
# every case in cases.sh, two at a time (the machines have 2 cores).
# Usage: tests/boot/run.sh [CASE...]     prints "N passed, N failed" last
# Internal: tests/boot/run.sh --case NAME
set -u
source "$(dirname "$0")/lib.sh"
# The cases: every case_NAME function of cases.sh and of each cases-TOPIC.sh
# beside it; a new file is found by itself (tests/README.md).
source "$(dirname "$0")/cases.sh"
for f in "$(dirname "$0")"/cases-*.sh; do
	source "$f"
done

JOBS=${JOBS:-2}
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
IMG_GENERIC=$WORK/generic.img
IMG_HOST=$WORK/host-only.img
IMG_CMDLINE=$WORK/cmdline.img
DISKS=$WORK/disks
export KVER KERNEL IMG_GENERIC IMG_HOST IMG_CMDLINE DISKS WORK

prepare() {
	local tree=$WORK/tree
	mkdir -p "$DISKS"
	[ -r "$KERNEL" ] || { echo "no kernel at $KERNEL: install linux-image-amd64"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$IMG_GENERIC" || return 1
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" -o "$IMG_HOST" || return 1
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" \
		--cmdline "root=LABEL=lbext4 rd.timeout=60 virtio_blk.num_request_queues=1" \
		-o "$IMG_CMDLINE" || return 1
	make_root_tree "$tree"
	mkfs_image ext4 "$DISKS/ext4.img" 32 "$tree" lbext4 "$UUID_EXT4" &&
	mkfs_image xfs "$DISKS/xfs.img" 320 "$tree" lbxfs "$UUID_XFS" &&
	mkfs_image btrfs "$DISKS/btrfs.img" 128 "$tree" lbbtrfs "$UUID_BTRFS" &&
	mkfs_image ext4 "$WORK/gpt-fs.img" 32 "$tree" lbgptfs "$UUID_GPT_FS" &&
	make_gpt_disk "$DISKS/gpt.img" "$WORK/gpt-fs.img" "$DISKID_GPT" "$PARTUUID_GPT" lbroot
}

run_case() {
	local name=$1 reason rc start=$SECONDS secs
	CASE_DIR=$WORK/cases/$name
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	export CASE_DIR
	reason=$("case_$name" 2>&1)
	rc=$?
	secs=$((SECONDS - start))
	echo "$secs" > "$CASE_DIR/seconds"
	if [ $rc -eq 0 ]; then
		echo "PASS" > "$CASE_DIR/result"
		echo "boot: PASS $name (${secs}s)"
	else
		echo "FAIL $reason" > "$CASE_DIR/result"
		echo "boot: FAIL $name (${secs}s): $reason (console log: $CASE_DIR/console.log)"
	fi
}

# slow_first NAME...: the names in the order they run: first the cases
# that take longest (a Debian root to make, servers late on purpose:
# SLOW_CASES, from the times run.sh prints), one of each kind in turn, so
# that the second job does not wait on the lock of the root the first is
# making, and the two jobs end together instead of one finishing a long
# case alone; then the others.
SLOW_CASES='debian_* itools_* kdump_* tang_late_*'
slow_first() {
	local c p i more=1 groups=() rest=()
	for c in "$@"; do
		i=0
		for p in $SLOW_CASES; do
			# shellcheck disable=SC2053 # p is a pattern
			[[ $c == $p ]] && { groups[i]+=" $c"; continue 2; }
			i=$((i + 1))
		done
		rest+=("$c")
	done
	while [ $more = 1 ]; do
		more=0
		for i in "${!groups[@]}"; do
			read -r c p <<<"${groups[i]}"
			[ -n "$c" ] || continue
			echo "$c"
			groups[i]=$p more=1
		done
	done
	printf '%s\n' "${rest[@]}"
}

if [ "${1:-}" = "--case" ]; then
	run_case "$2"
	exit 0
fi

cases=("${@#case_}")
[ ${#cases[@]} -gt 0 ] || mapfile -t cases < <(declare -F | sed -n 's/^declare -f case_//p')
# A name that is no case stops here, before the images are made.
for c in "${cases[@]}"; do
	declare -F "case_$c" >/dev/null || {
		echo "boot: no case $c: the cases are the case_* functions of tests/boot/cases*.sh"
		echo "0 passed, ${#cases[@]} failed"
		exit 1
	}
done
rm -rf "$WORK/cases"
if ! prepare; then
	echo "boot: preparing the images and disks failed"
	echo "0 passed, ${#cases[@]} failed"
	exit 1
fi
slow_first "${cases[@]}" | xargs -P "$JOBS" -I{} "$0" --case {}
passed=0 failed=0
for c in "${cases[@]}"; do
	if [ "$(cat "$WORK/cases/$c/result" 2>/dev/null)" = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
for c in "${cases[@]}"; do
	echo "$(cat "$WORK/cases/$c/seconds" 2>/dev/null || echo 0) $c"
done | sort -rn | head -n 12 | awk '{ s = s sep $2 " " $1 "s"; sep = ", " } END { print "boot: slowest: " s }'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
