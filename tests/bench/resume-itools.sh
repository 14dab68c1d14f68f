#!/bin/bash
# resume-itools.sh: lifeboat's resume side by side with initramfs-tools' on
# the same hibernated disks. For each tool, M times: boot 1 (lifeboat's
# generic image) hibernates the test root; boot 2 with that tool's image and
# resume=UUID= of the swap must continue boot 1. Reported: the time from the
# kernel's "Run /init" to the kernel starting to read the image ("PM: Using
# N thread(s) for decompression", printed by the kernel for either tool right
# after the write to /sys/power/resume), median of M, from the guest's own
# timestamps. Uses the generic image of a boot test run:
#   JOBS=1 WORK=build/boot-x tests/boot/run.sh resume_plain_swap
#   WORK=build/boot-x tests/bench/resume-itools.sh [M]
set -u
source "$(dirname "$0")/../boot/lib.sh"
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
IMG_GENERIC=$WORK/generic.img
M=${1:-3}
CASE_DIR=$WORK/bench-resume-itools
source "$(dirname "$0")/../boot/cases.sh"
source "$(dirname "$0")/../boot/cases-resume.sh"

mkdir -p "$CASE_DIR"
[ -r "$IMG_GENERIC" ] || { echo "no $IMG_GENERIC: run the boot tests with this WORK first"; exit 1; }
command -v mkinitramfs >/dev/null || { echo "no mkinitramfs: apt-get install initramfs-tools"; exit 1; }

# initramfs-tools with MODULES=most (the swap is on virtio-scsi, which a
# MODULES=dep image of this build host would not carry) and RESUME= naming
# the swap, in a private copy of its configuration.
conf=$CASE_DIR/conf-itools
rm -rf "$conf"
cp -a /etc/initramfs-tools "$conf"
sed -i 's/^MODULES=.*/MODULES=most/' "$conf/initramfs.conf"
echo "RESUME=UUID=$UUID_HIBSWAP" > "$conf/conf.d/resume"
mkinitramfs -d "$conf" -o "$CASE_DIR/itools.img" "$KVER" || exit 1

# Seconds from "Run /init" to the kernel's first line of reading the image.
run_init_to_read() {
	tr -d '\r' < "$1" | sed -n 's/^\[ *\([0-9.]*\)\] \(Run \/init\|PM: Using [0-9]* thread\).*/\1/p' |
		head -n 2 | awk 'NR == 1 { s = $1 } NR == 2 { printf "%.3f\n", $1 - s }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One hibernate (lifeboat) + resume (IMAGE) pair; prints the delay.
resume_pair() {
	local image=$1 tag=$2 token root=$CASE_DIR/root.img swap=$CASE_DIR/swap.img
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" && hib_swap "$swap" "$UUID_HIBSWAP" || return 1
	hib_boot "$CASE_DIR/$tag-1.log" "root=UUID=$UUID_HIBROOT rw lbtest.hibernate=1 lbtest.swap=/dev/sda lbtest.token=$token" "$root" "$swap"
	assert_hibernated "$CASE_DIR/$tag-1.log" 1 "$token" "$swap" >&2 || return 1
	IMG_GENERIC=$image hib_boot "$CASE_DIR/$tag-2.log" \
		"root=UUID=$UUID_HIBROOT resume=UUID=$UUID_HIBSWAP printk.time=1" "$root" "$swap"
	grep -q "HIB-TEST: RESUMED 1 $token" "$CASE_DIR/$tag-2.log" ||
		{ echo "$tag: boot 2 did not resume (see $CASE_DIR/$tag-2.log)" >&2; return 1; }
	run_init_to_read "$CASE_DIR/$tag-2.log"
}

for tool in lifeboat itools; do
	image=$IMG_GENERIC
	[ $tool = itools ] && image=$CASE_DIR/itools.img
	for i in $(seq "$M"); do
		resume_pair "$image" "$tool-$i"
	done > "$CASE_DIR/$tool.times"
	echo "$tool: Run /init -> kernel reads the image, median $(median < "$CASE_DIR/$tool.times") s" \
		"(runs: $(tr '\n' ' ' < "$CASE_DIR/$tool.times"); image $(stat -c %s "$image") bytes)"
done
