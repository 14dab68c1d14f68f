# cases-debian.sh: a real Debian 12 root with systemd booted by lifeboat's
# images (sourced by run.sh): systemd's handshakes with an initramfs that
# is not systemd (docs/distributions.md). The root is made once per run
# by tests/boot/debian-root.sh; its report unit prints LIFEBOAT-DEB: lines.

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

# The installer's LVM layout (issue 29): the root, a swap and a data
# volume in one volume group; fstab names the root and the swap by
# /dev/mapper names and data by its filesystem's UUID.
DEB_VG=lbdeb
DEB_SWAP_UUID=1b2c3d4e-00d2-4a5b-8c6d-7e8f9a0b1c2d
DEB_DATA_UUID=1b2c3d4e-00d3-4a5b-8c6d-7e8f9a0b1c2d
DEB_LVM_FSTAB=("/dev/mapper/$DEB_VG-root / ext4 errors=remount-ro 0 1"
	"/dev/mapper/$DEB_VG-swap none swap sw 0 0"
	"UUID=$DEB_DATA_UUID /data ext4 defaults 0 2")

debian_env() {
	echo "DEB_VG=$DEB_VG"
	echo "DEB_ROOT_MB=$DEBROOT_SIZE_MB"
	echo "DEB_SWAP_UUID=$DEB_SWAP_UUID"
	echo "DEB_DATA_UUID=$DEB_DATA_UUID"
}

# The builder's root (lifeboat's image tree with the stack tools, as
# cases-stacks.sh's) and the Debian root with the layout's fstab.
debian_builder() {
	local dir=$1 tree=$1/tree
	builder_tree "$dir" tests/boot/debian-build.sh --add-binaries "$STACK_TOOLS" || return 1
	install -m 0755 /usr/sbin/mkswap "$tree/usr/sbin/mkswap.util" &&
	mkdir -p "$tree/etc/lvm" && stacks_lvm_conf > "$tree/etc/lvm/lvm.conf" &&
	debian_env > "$tree/debian.env" &&
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbbuilder "$UUID_EXT4" || return 1
	debroot_copy "$dir/debroot.img" &&
	debroot_fstab "$dir/debroot.img" "${DEB_LVM_FSTAB[@]}" &&
	debugfs -w -R "mkdir /data" "$dir/debroot.img" >/dev/null 2>&1
}

# DEBLVM: the layout's disk, made in a guest once per input (the builder,
# the Debian root's image, the layout, the kernel).
debian_lvm_disk() {
	local key dir
	debroot_image || return 1
	key=$( (cat "$TOP/tests/boot/debian-build.sh" "$TOP/tests/boot/builder-lib.sh";
		basename "$DEBROOT_IMG"; debian_env; printf '%s\n' "${DEB_LVM_FSTAB[@]}") |
		sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache debian-disks "$key")
	DEBLVM=$dir/deblvm.img
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		debian_builder "$dir" || { echo "making the Debian LVM builder failed"; exit 1; }
		rm -f "$DEBLVM" && truncate -s $((DEBROOT_SIZE_MB + 64 + 32 + 8))M "$DEBLVM"
		QEMU_TIMEOUT=300 boot_qemu "$dir/build.log" "$KERNEL" "$IMG_GENERIC" \
			"root=LABEL=lbbuilder rw rd.driver.pre=dm_mod" \
			-drive "file=$dir/builder-root.img,format=raw,if=virtio" \
			-drive "file=$dir/debroot.img,format=raw,if=none,id=debroot,readonly=on" \
			-device virtio-blk-pci,drive=debroot,serial=debroot \
			-drive "file=$DEBLVM,format=raw,if=none,id=deblvm" \
			-device virtio-blk-pci,drive=deblvm,serial=deblvm
		grep -q 'DEBIAN-BUILD: done' "$dir/build.log" ||
			{ echo "the Debian LVM builder failed (see $dir/build.log)"; exit 1; }
		rm -rf "$dir/tree" "$dir/builder.cpio" "$dir/builder-root.img" "$dir/debroot.img"
		touch "$dir/done"
	) 9>"$dir.lock"
}

# Debian 12 on LVM as the installer lays it out, booted by the generic
# --block-stacks image: the real root's udev, replaying "add" for the
# volumes lifeboat activated, finds device-mapper's flags in the
# database lifeboat left (blockstack/udevdb.c), so systemd gets the
# volumes: the swap is on, /data mounted by UUID, every volume ready,
# no unit failed and no 90 s wait for a device.
case_debian_systemd_lvm() {
	local disk=$CASE_DIR/deblvm.img log=$CASE_DIR/console.log swaps
	debian_lvm_disk && stacks_image || return 1
	cp --sparse=always "$DEBLVM" "$disk" || return 1
	debroot_boot "$log" "$IMG_STACKS" "root=/dev/mapper/$DEB_VG-root ro rd.timeout=90" \
		$(disk_args virtio-blk "$disk")
	debroot_assert_clean "$log" || return 1
	swaps=$(debroot_value "$log" swaps)
	case $swaps in
	/dev/dm-*) ;;
	*) echo "the swap volume is not on: swaps '$swaps'"; return 1 ;;
	esac
	assert_log "$log" "$DEBROOT_MARK: mount /data /dev/mapper/$DEB_VG-data ext4" &&
	assert_not_log "$log" "$DEBROOT_MARK: udev dm-.*SYSTEMD_READY=0" &&
	assert_log "$log" "$DEBROOT_MARK: udev dm-.*DM_NAME=$DEB_VG-swap" &&
	assert_not_log "$log" 'A start job is running for /dev/'
}
