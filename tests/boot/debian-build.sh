#!/usr/bin/sh
# debian-build.sh: the /sbin/init of the Debian disk builder (run by
# tests/boot/cases-debian.sh in a qemu guest, as the host kernel has no
# device-mapper). It makes the installer's layouts named by DEB_LAYOUTS
# with the values of /debian.env: lukslvm, on the empty disk "debluks" a
# LUKS2 container and a volume group inside; luksmd, on "debmd-a" and
# "debmd-b" an md RAID1, a LUKS2 container on it and a volume group inside;
# mdlvm, on "debmdl-a" and "debmdl-b" an md RAID1 holding a volume group;
# md, on "debmdr-a" and "debmdr-b" an md RAID1 holding the root's
# filesystem itself (from the disk "debroot4"). Each group has root (a
# Debian root's filesystem copied in, from the disk "debroot", "debroot2"
# or "debroot3"), swap and data (ext4). Then it prints a marker and powers
# off.
BUILDER=DEBIAN-BUILD
. /builder-lib.sh
. /debian.env
# volumes PV VG ROOTDISK: the group on PV, its volumes, the root copied in.
volumes() {
	lvm pvcreate -q "$1" && lvm vgcreate -q "$2" "$1" &&
		lvm lvcreate -q -y -n root -L "${DEB_ROOT_MB}M" "$2" &&
		lvm lvcreate -q -y -n swap -L 64M "$2" &&
		lvm lvcreate -q -y -n data -l 100%FREE "$2" || fail "lvm on $1"
	# Only the blocks the root's filesystem uses (through dm-crypt the
	# rest would cost as much); e2image -ra writes its zero blocks too
	# when the target is a device.
	e2image -ra "$(disk "$3")" "/dev/$2/root" && sync || fail "copying the root into $2"
	mkswap.util -U "$DEB_SWAP_UUID" -L lbdebswap "/dev/$2/swap" || fail "mkswap in $2"
	mke2fs.e2fs -q -F -t ext4 -L lbdebdata -U "$DEB_DATA_UUID" "/dev/$2/data" || fail "mke2fs in $2"
	lvm vgchange -q -an "$2" || fail "deactivating $2"
}
# luks DEV UUID NAME: a LUKS2 container on DEV, opened as NAME.
luks() {
	printf '%s' "$DEB_LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --uuid "$2" --key-file=- "$1" || fail "luksFormat $1"
	printf '%s' "$DEB_LUKS_PW" | cryptsetup open --key-file=- "$1" "$3" || fail "opening $1"
}
# LVM on LUKS on the disk
layout_lukslvm() {
	luks "$(disk debluks)" "$DEB_LUKS2_UUID" "$DEB_CRYPT2"
	volumes "/dev/mapper/$DEB_CRYPT2" "$DEB_VG" debroot
	cryptsetup close "$DEB_CRYPT2" || fail "close $DEB_CRYPT2"
}
# LVM on LUKS on md RAID1
layout_luksmd() {
	mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 --uuid="$DEB_MD_UUID" \
		--assume-clean "$(disk debmd-a)" "$(disk debmd-b)" || fail "mdadm --create"
	luks /dev/md0 "$DEB_LUKS_UUID" "$DEB_CRYPT"
	volumes "/dev/mapper/$DEB_CRYPT" "$DEB_CVG" debroot2
	cryptsetup close "$DEB_CRYPT" || fail "close $DEB_CRYPT"
	mdadm --stop /dev/md0 || fail "mdadm --stop"
}
# LVM on md RAID1
layout_mdlvm() {
	mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --metadata=1.2 --uuid="$DEB_MDL_UUID" \
		--assume-clean "$(disk debmdl-a)" "$(disk debmdl-b)" || fail "mdadm --create md1"
	volumes /dev/md1 "$DEB_MVG" debroot3
	mdadm --stop /dev/md1 || fail "mdadm --stop md1"
}
# The root's filesystem on md RAID1
layout_md() {
	mdadm --create /dev/md2 --run --level=1 --raid-devices=2 --metadata=1.2 --uuid="$DEB_MDR_UUID" \
		--assume-clean "$(disk debmdr-a)" "$(disk debmdr-b)" || fail "mdadm --create md2"
	e2image -ra "$(disk debroot4)" /dev/md2 && sync || fail "copying the root onto md2"
	mdadm --stop /dev/md2 || fail "mdadm --stop md2"
}
for layout in $DEB_LAYOUTS; do
	"layout_$layout"
done
sync
echo "DEBIAN-BUILD: done"
poweroff -f
