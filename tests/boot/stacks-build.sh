#!/usr/bin/sh
# stacks-build.sh: the /sbin/init of the stack builder's root (run by
# tests/boot/cases-stacks.sh in a qemu guest, as the host kernel has no
# device-mapper). Makes the stacked test disks on the empty virtio disks
# named by their virtio serial from the parameters in /stacks.env, prints a
# marker and powers off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
. /stacks.env
fail() { echo "STACKS-BUILD: FAILED: $*"; sync; poweroff -f; }
# A filesystem holding the test root (/stackroot: /sbin/init is test-init).
mkroot() { mke2fs.e2fs -q -F -t ext4 -L "$2" -U "$3" -d /stackroot "$1" || fail "mke2fs $1"; }
luks() {
	printf '%s' "$LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --uuid "$2" --key-file=- "$1" || fail "luksFormat $1"
	printf '%s' "$LUKS_PW" | cryptsetup open --key-file=- "$1" "$3" || fail "open $1"
}
lvroot() {
	lvm pvcreate -q "$1" && lvm vgcreate -q "$2" "$1" &&
	lvm lvcreate -q -y -n root -l 100%FREE "$2" || fail "lvm on $1"
	mkroot "/dev/$2/root" "$3" "$4"
	lvm vgchange -q -an "$2" || fail "deactivating $2"
}
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /run/lock /run/cryptsetup /tmp
# The disk whose virtio serial is $1 (probe order is not the command line's).
disk() {
	for s in /sys/block/vd*/serial; do
		[ "$(cat "$s")" = "$1" ] && { d=${s%/serial}; echo "/dev/${d##*/}"; return; }
	done
	fail "no disk with serial $1"
}
# 1. root on LUKS
luks $(disk luks) "$UUID_LUKS" lbluks
mkroot /dev/mapper/lbluks lbluksfs "$UUID_LUKS_FS"
cryptsetup close lbluks || fail "close lbluks"
# 2. root on LVM
lvroot $(disk lvm) lbvg lblvmfs "$UUID_LVM_FS"
# 3. LVM on LUKS
luks $(disk lvmluks) "$UUID_LUKS_LVM" lbcrypt
lvroot /dev/mapper/lbcrypt lbcvg lbcvgfs "$UUID_LUKS_LVM_FS"
cryptsetup close lbcrypt || fail "close lbcrypt"
# 4. md RAID1, two members
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 \
	--uuid="$UUID_MD" --assume-clean $(disk md-a) $(disk md-b) || fail "mdadm --create"
mkroot /dev/md0 lbmdfs "$UUID_MD_FS"
mdadm --stop /dev/md0 || fail "mdadm --stop"
sync
echo "STACKS-BUILD: done"
poweroff -f
