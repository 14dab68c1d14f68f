#!/usr/bin/sh
# stacks-build.sh: the /sbin/init of the stack builder's root (run by
# tests/boot/cases-stacks.sh in a qemu guest, as the host kernel has no
# device-mapper). Makes the stacked test disks on the empty virtio disks
# named by their virtio serial from the parameters in /stacks.env, prints a
# marker and powers off.
BUILDER=STACKS-BUILD
. /builder-lib.sh
. /stacks.env
# A filesystem holding a test root: /stackroot (/sbin/init is test-init),
# or the tree given as $4.
mkroot() { mke2fs.e2fs -q -F -t ext4 -L "$2" -U "$3" -d "${4:-/stackroot}" "$1" || fail "mke2fs $1"; }
luks() {
	printf '%s' "$LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --uuid "$2" --key-file=- "$1" || fail "luksFormat $1"
	printf '%s' "$LUKS_PW" | cryptsetup open --key-file=- "$1" "$3" || fail "open $1"
}
# lvroot PV VG LABEL UUID [TREE]: VG on PV, LV root filling it, a root on it.
lvroot() {
	lvm pvcreate -q "$1" && lvm vgcreate -q "$2" "$1" &&
	lvm lvcreate -q -y -n root -l 100%FREE "$2" || fail "lvm on $1"
	mkroot "/dev/$2/root" "$3" "$4" "${5:-}"
	lvm vgchange -q -an "$2" || fail "deactivating $2"
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
# 5. swap on LUKS (for resume), the swap's own UUID fixed
luks $(disk luksswap) "$UUID_LUKS_SWAP" lbswap
mkswap.util -U "$UUID_LUKS_SWAP_INNER" -L lbcswap /dev/mapper/lbswap || fail "mkswap in lbswap"
cryptsetup close lbswap || fail "close lbswap"
# 6. LUKS on LVM: the container is the LV lbovg/crypt
lvm pvcreate -q $(disk lukslvm) && lvm vgcreate -q lbovg $(disk lukslvm) &&
	lvm lvcreate -q -y -n crypt -l 100%FREE lbovg || fail "lvm on lukslvm"
luks /dev/lbovg/crypt "$UUID_LVM_LUKS" lbolv
mkroot /dev/mapper/lbolv lblvmluksfs "$UUID_LVM_LUKS_FS"
cryptsetup close lbolv || fail "close lbolv"
lvm vgchange -q -an lbovg || fail "deactivating lbovg"
# 7. LVM on md RAID1
mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --metadata=1.2 \
	--uuid="$UUID_MD_LVM" --assume-clean $(disk mdlvm-a) $(disk mdlvm-b) || fail "mdadm --create md1"
lvroot /dev/md1 lbmvg lbmdlvmfs "$UUID_MD_LVM_FS"
mdadm --stop /dev/md1 || fail "mdadm --stop md1"
# 8. LVM on LUKS holding /hostroot: the root that runs the host-only generator
luks $(disk hostonly) "$UUID_HOST_LUKS" lbhcrypt
lvroot /dev/mapper/lbhcrypt lbhvg lbhostfs "$UUID_HOST_FS" /hostroot
cryptsetup close lbhcrypt || fail "close lbhcrypt"
# 9. LVM on md RAID1 holding /hostroot, too
mdadm --create /dev/md2 --run --level=1 --raid-devices=2 --metadata=1.2 \
	--uuid="$UUID_MDHOST" --assume-clean $(disk mdhost-a) $(disk mdhost-b) || fail "mdadm --create md2"
lvroot /dev/md2 lbdvg lbmdhostfs "$UUID_MDHOST_FS" /hostroot
mdadm --stop /dev/md2 || fail "mdadm --stop md2"
# 10. LUKS holding /hostroot directly
luks $(disk hostluks) "$UUID_HLUKS" lbhl
mkroot /dev/mapper/lbhl lbhlfs "$UUID_HLUKS_FS" /hostroot
cryptsetup close lbhl || fail "close lbhl"
# 11. LUKS on LVM holding /hostroot: the container is the LV lbhovg/crypt
lvm pvcreate -q $(disk hostlukslvm) && lvm vgcreate -q lbhovg $(disk hostlukslvm) &&
	lvm lvcreate -q -y -n crypt -l 100%FREE lbhovg || fail "lvm on hostlukslvm"
luks /dev/lbhovg/crypt "$UUID_HLVLUKS" lbhov
mkroot /dev/mapper/lbhov lbhovfs "$UUID_HLVLUKS_FS" /hostroot
cryptsetup close lbhov || fail "close lbhov"
lvm vgchange -q -an lbhovg || fail "deactivating lbhovg"
# 12. LVM with a snapshot merge pending (cases-stacks-resume.sh): root and
# swap (room for a hibernation image), linear; data, whose snapshot's merge
# was asked while data was open, so it waits for data's next activation,
# when the kernel starts copying the snapshot's blocks back. data's first
# block says AFTER-SNAPSHOT (the snapshot kept BEFORE-SNAPSHOT): the merge
# makes that word leave the disk.
block() { { printf '%s' "$1"; head -c $((4096 - ${#1})) /dev/zero; } |
	dd of=/dev/lbsvg/data bs=4096 count=1 conv=notrunc,fsync 2>/dev/null || fail "writing $1"; }
lvm pvcreate -q $(disk lvmmerge) && lvm vgcreate -q lbsvg $(disk lvmmerge) &&
	lvm lvcreate -q -y -n root -L 32M lbsvg && lvm lvcreate -q -y -n swap -L 160M lbsvg &&
	lvm lvcreate -q -y -n data -L 8M lbsvg || fail "lvm on lvmmerge"
mkroot /dev/lbsvg/root lbsvgfs "$UUID_SNAP_FS"
mkswap.util -U "$UUID_SNAP_SWAP" -L lbsvgswap /dev/lbsvg/swap || fail "mkswap on lbsvg/swap"
block BEFORE-SNAPSHOT
lvm lvcreate -q -y -s -n snap -L 4M lbsvg/data || fail "snapshot of lbsvg/data"
block AFTER-SNAPSHOT
exec 3</dev/lbsvg/data
lvm lvconvert -y --merge lbsvg/snap || fail "lvconvert --merge lbsvg/snap"
exec 3<&-
lvm vgchange -q -an lbsvg || fail "deactivating lbsvg"
lvm lvs -a -o lv_name,lv_attr,lv_layout,lv_role,lv_merging,lv_allocation_locked lbsvg
case $(lvm lvs --noheadings -o lv_attr lbsvg/data) in
*O*) ;;
*) fail "the merge into lbsvg/data is not pending" ;;
esac
sync
echo "STACKS-BUILD: done"
poweroff -f
