# cases-debian.sh: a real Debian 12 root with systemd booted by lifeboat's
# images (sourced by run.sh): systemd's handshakes with an initramfs that
# is not systemd (docs/distributions.md). The root is made once per run
# by tests/boot/debian-root.sh; its report unit prints LIFEBOAT-DEB: lines.
# The LVM and LUKS-on-md layouts are built once per input in a guest
# (debian-build.sh: 81 s here). Each case boots the root in about 40 s
# (multi-user 18 to 31 s after the kernel starts, under TCG).

source "$TOP/tests/boot/debian-root.sh"

# debroot_plain_boot APPEND: the Debian root on one virtio disk, its fstab
# as the installer writes it (the root by UUID, pass 1), booted read-only
# (as Debian's boot entries do: systemd-fsck-root checks only a root that
# is not writable yet) by the generic image.
debroot_plain_boot() {
	local root=$CASE_DIR/root.img
	debroot_copy "$root" &&
	debroot_fstab "$root" "UUID=$DEBROOT_UUID / ext4 errors=remount-ro 0 1" || return 1
	debroot_boot "$CASE_DIR/console.log" "$IMG_GENERIC" "root=UUID=$DEBROOT_UUID ro rd.timeout=60 $1" \
		$(disk_args virtio-blk "$root")
}

# fsck_root_prop LOG NAME: systemd-fsck-root.service's property NAME as
# the report printed it.
fsck_root_prop() {
	debroot_value "$1" fsck-root | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# debroot_fsck_case APPEND RESULT: the Debian root boots clean with APPEND,
# and systemd-fsck-root's condition gave RESULT (yes: it ran the checker,
# no: skipped, never started).
debroot_fsck_case() {
	local log=$CASE_DIR/console.log result started
	debroot_plain_boot "$1" && debroot_assert_clean "$log" || return 1
	result=$(fsck_root_prop "$log" ConditionResult)
	started=$(fsck_root_prop "$log" ExecMainStartTimestampMonotonic)
	case $result:$started in
	no:0) [ "$2" = no ] ;;
	yes:[1-9]*) [ "$2" = yes ] ;;
	*) false ;;
	esac ||
		{ echo "systemd-fsck-root: ConditionResult=$result ExecMainStartTimestampMonotonic=$started, expected ConditionResult=$2"; return 1; }
}

# lifeboat checked the root: it left /run/initramfs/fsck-root, so the real
# root's systemd-fsck-root.service is skipped (its condition fails, it
# never starts); the boot reaches multi-user with no failed unit.
case_debian_systemd_fsck_skipped() {
	debroot_fsck_case "" no
}

# rd.fsck=0: lifeboat does not check and leaves no stamp, so the real
# root's systemd-fsck-root.service checks the root.
case_debian_systemd_fsck_runs() {
	debroot_fsck_case rd.fsck=0 yes
}

# The installer's layouts (issue 29): the root, a swap and a data volume in
# one volume group, on a disk or inside LUKS on md RAID1; fstab names the
# root and the swap by /dev/mapper names and data by its filesystem's UUID.
DEB_VG=lbdeb
DEB_CVG=lbdebc
DEB_MVG=lbdebm
DEB_MDL_UUID=1b2c3d4e-00d6-4a5b-8c6d-7e8f9a0b1c2d
DEB_MD_UUID=1b2c3d4e-00d4-4a5b-8c6d-7e8f9a0b1c2d
DEB_LUKS_UUID=1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d
DEB_SWAP_UUID=1b2c3d4e-00d2-4a5b-8c6d-7e8f9a0b1c2d
DEB_DATA_UUID=1b2c3d4e-00d3-4a5b-8c6d-7e8f9a0b1c2d
# The mapping's name is the installer's (its crypttab).
DEB_CRYPT=md0_crypt

debian_env() {
	local v
	for v in DEB_VG DEB_CVG DEB_MVG DEB_MD_UUID DEB_MDL_UUID DEB_LUKS_UUID DEB_SWAP_UUID DEB_DATA_UUID; do
		echo "$v=${!v}"
	done
	echo "DEB_ROOT_MB=$DEBROOT_SIZE_MB"
	echo "DEB_LUKS_PW=$LUKS_PW"
}

# debian_layout_root IMAGE VG [CRYPTTAB]: the Debian root for the layout
# of group VG: its fstab, /data, and the crypttab line if given.
debian_layout_root() {
	local img=$1 vg=$2
	debroot_copy "$img" &&
	debroot_fstab "$img" "/dev/mapper/$vg-root / ext4 errors=remount-ro 0 1" \
		"/dev/mapper/$vg-swap none swap sw 0 0" "UUID=$DEB_DATA_UUID /data ext4 defaults 0 2" &&
	debugfs -w -R "mkdir /data" "$img" >/dev/null 2>&1 || return 1
	[ -z "${3:-}" ] || debroot_write "$img" /etc/crypttab "# <target name> <source device> <key file> <options>" "$3"
}

# The builder's root (lifeboat's image tree with the stack tools, as
# cases-stacks.sh's) and the two Debian roots.
debian_builder() {
	local dir=$1 tree=$1/tree
	builder_tree "$dir" tests/boot/debian-build.sh --add-binaries "$STACK_TOOLS" || return 1
	install -m 0755 /usr/sbin/mkswap "$tree/usr/sbin/mkswap.util" &&
	mkdir -p "$tree/etc/lvm" && stacks_lvm_conf > "$tree/etc/lvm/lvm.conf" &&
	debian_env > "$tree/debian.env" &&
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbbuilder "$UUID_EXT4" &&
	debian_layout_root "$dir/debroot.img" "$DEB_VG" &&
	debian_layout_root "$dir/debroot2.img" "$DEB_CVG" "$DEB_CRYPT UUID=$DEB_LUKS_UUID none luks,discard" &&
	debian_layout_root "$dir/debroot3.img" "$DEB_MVG"
}

# serial_disk FILE SERIAL [OPTS]: qemu options for a virtio disk the builder
# finds by its serial.
serial_disk() {
	echo "-drive file=$1,format=raw,if=none,id=$2${3:+,$3} -device virtio-blk-pci,drive=$2,serial=$2"
}

# DEBDISKS: the layouts' disks (deblvm.img, debmd-a.img, debmd-b.img,
# debmdl-a.img, debmdl-b.img), made
# in a guest once per input (the builder, the Debian root's image, the
# layouts, the kernel).
debian_disks() {
	local key dir size=$((DEBROOT_SIZE_MB + 64 + 32 + 32))M
	debroot_image || return 1
	key=$( (cat "$TOP/tests/boot/debian-build.sh" "$TOP/tests/boot/builder-lib.sh";
		basename "$DEBROOT_IMG"; debian_env; declare -f debian_layout_root) |
		sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache debian-disks "$key")
	DEBDISKS=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		debian_builder "$dir" || { echo "making the Debian disk builder failed"; exit 1; }
		for d in deblvm debmd-a debmd-b debmdl-a debmdl-b; do
			rm -f "$dir/$d.img" && truncate -s "$size" "$dir/$d.img"
		done
		QEMU_TIMEOUT=500 boot_qemu "$dir/build.log" "$KERNEL" "$IMG_GENERIC" \
			"root=LABEL=lbbuilder rw rd.driver.pre=dm_mod,dm_crypt,raid1,xts,aes_generic,sha256_generic,algif_skcipher" \
			-drive "file=$dir/builder-root.img,format=raw,if=virtio" \
			$(serial_disk "$dir/debroot.img" debroot readonly=on) \
			$(serial_disk "$dir/debroot2.img" debroot2 readonly=on) \
			$(serial_disk "$dir/deblvm.img" deblvm) \
			$(serial_disk "$dir/debroot3.img" debroot3 readonly=on) \
			$(serial_disk "$dir/debmd-a.img" debmd-a) $(serial_disk "$dir/debmd-b.img" debmd-b) \
			$(serial_disk "$dir/debmdl-a.img" debmdl-a) $(serial_disk "$dir/debmdl-b.img" debmdl-b)
		grep -q 'DEBIAN-BUILD: done' "$dir/build.log" ||
			{ echo "the Debian disk builder failed (see $dir/build.log)"; exit 1; }
		rm -rf "$dir/tree" "$dir/builder.cpio" "$dir/builder-root.img" "$dir"/debroot*.img
		touch "$dir/done"
	) 9>"$dir.lock"
}

# debian_copies NAME...: the case's own copies of the layouts' disks
# NAME.img (after debian_disks), as qemu options for virtio disks in order.
debian_copies() {
	local d
	for d in "$@"; do
		cp --sparse=always "$DEBDISKS/$d.img" "$CASE_DIR/$d.img" || return 1
		echo "-drive file=$CASE_DIR/$d.img,format=raw,if=virtio"
	done
}

# debian_assert_volumes LOG VG: what the real root's systemd made of the
# group: the swap on, /data mounted by UUID, no volume left not ready and
# no wait for a device.
debian_assert_volumes() {
	local log=$1 vg=$2 swaps
	debroot_assert_clean "$log" || return 1
	swaps=$(debroot_value "$log" swaps)
	[ -n "$swaps" ] || { echo "the swap volume is not on"; return 1; }
	# swapon resolves fstab's /dev/mapper name: to /dev/dm-N when it is
	# udev's link; a device node left by libdevmapper shows its own path.
	case $swaps in
	/dev/dm-*) ;;
	*) echo "the swap is on as '$swaps': its /dev/mapper name is no link to ../dm-N"; return 1 ;;
	esac
	assert_log "$log" "$DEBROOT_MARK: mount /data /dev/mapper/$vg-data ext4" &&
	assert_log "$log" "$DEBROOT_MARK: udev dm-.*DM_NAME=$vg-swap" &&
	assert_not_log "$log" "$DEBROOT_MARK: udev .*SYSTEMD_READY=0" &&
	assert_not_log "$log" 'A start job is running for /dev/'
}

# Debian 12 on LVM as the installer lays it out, booted by the generic
# --block-stacks image: the real root's udev, replaying "add" for the
# volumes lifeboat activated, finds device-mapper's flags in the database
# lifeboat left (blockstack/udevdb.c), so systemd gets the volumes.
case_debian_systemd_lvm() {
	local disks
	debian_disks && stacks_image && disks=$(debian_copies deblvm) || return 1
	debroot_boot "$CASE_DIR/console.log" "$IMG_STACKS" "root=/dev/mapper/$DEB_VG-root ro rd.timeout=90" \
		$disks
	debian_assert_volumes "$CASE_DIR/console.log" "$DEB_VG"
}

# The installer's encrypted layout: LVM inside LUKS on md RAID1, the
# container named by its crypttab (md0_crypt), the passphrase typed on the
# console. The real root's systemd-cryptsetup finds the mapping open, and
# the volumes, the mapping and the array are all ready for systemd.
case_debian_systemd_luks_md_lvm() {
	local disks log=$CASE_DIR/console.log
	debian_disks && stacks_image && disks=$(debian_copies debmd-a debmd-b) || return 1
	LUKS_BOOT_TIMEOUT=480 luks_boot "$log" "$IMG_STACKS" \
		"root=/dev/mapper/$DEB_CVG-root ro rd.luks.name=$DEB_LUKS_UUID=$DEB_CRYPT rd.timeout=120" \
		"UUID=$DEB_LUKS_UUID; opens as /dev/mapper/$DEB_CRYPT" "$DEBROOT_MARK: end" -m 1024 $disks ||
		return 1
	debian_assert_volumes "$log" "$DEB_CVG" &&
	assert_log "$log" "$DEBROOT_MARK: udev dm-.*DM_NAME=$DEB_CRYPT" &&
	assert_log "$log" "$DEBROOT_MARK: udev md[0-9]"
}

# LVM on md RAID1: the array holds the physical volume, so 69-lvm.rules
# reads LVM_MD_PV_ACTIVATED from the array's entry (lifeboat wrote it) and
# keeps the array ready; the volumes on it are ready too.
case_debian_systemd_md_lvm() {
	local disks
	debian_disks && stacks_image && disks=$(debian_copies debmdl-a debmdl-b) || return 1
	debroot_boot "$CASE_DIR/console.log" "$IMG_STACKS" "root=/dev/mapper/$DEB_MVG-root ro rd.timeout=90" \
		$disks
	debian_assert_volumes "$CASE_DIR/console.log" "$DEB_MVG" &&
	assert_log "$CASE_DIR/console.log" "$DEBROOT_MARK: udev md[0-9]"
}
