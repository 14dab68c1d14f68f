#!/usr/bin/sh
# debian-build.sh: the /sbin/init of the Debian LVM disk builder (run by
# tests/boot/cases-debian.sh in a qemu guest, as the host kernel has no
# device-mapper). On the empty disk "deblvm" it makes the volume group of
# an installer's LVM layout: root (the Debian root's image, from the disk
# "debroot", copied in), swap and data (ext4), each with the UUID of
# /debian.env; then prints a marker and powers off.
BUILDER=DEBIAN-BUILD
. /builder-lib.sh
. /debian.env
pv=$(disk deblvm)
lvm pvcreate -q "$pv" && lvm vgcreate -q "$DEB_VG" "$pv" &&
	lvm lvcreate -q -y -n root -L "${DEB_ROOT_MB}M" "$DEB_VG" &&
	lvm lvcreate -q -y -n swap -L 64M "$DEB_VG" &&
	lvm lvcreate -q -y -n data -l 100%FREE "$DEB_VG" || fail "lvm on $pv"
dd if="$(disk debroot)" of="/dev/$DEB_VG/root" bs=1M conv=fsync 2>/dev/null || fail "copying the root"
mkswap.util -U "$DEB_SWAP_UUID" -L lbdebswap "/dev/$DEB_VG/swap" || fail "mkswap"
mke2fs.e2fs -q -F -t ext4 -L lbdebdata -U "$DEB_DATA_UUID" "/dev/$DEB_VG/data" || fail "mke2fs data"
lvm vgchange -q -an "$DEB_VG" || fail "deactivating $DEB_VG"
sync
echo "DEBIAN-BUILD: done"
poweroff -f
