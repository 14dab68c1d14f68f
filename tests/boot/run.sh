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
	local name=$1 reason rc
	CASE_DIR=$WORK/cases/$name
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	export CASE_DIR
	reason=$("case_$name" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "PASS" > "$CASE_DIR/result"
		echo "boot: PASS $name"
	else
		echo "FAIL $reason" > "$CASE_DIR/result"
		echo "boot: FAIL $name: $reason (console log: $CASE_DIR/console.log)"
	fi
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
printf '%s\n' "${cases[@]}" | xargs -P "$JOBS" -I{} "$0" --case {}
passed=0 failed=0
for c in "${cases[@]}"; do
	if [ "$(cat "$WORK/cases/$c/result" 2>/dev/null)" = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
