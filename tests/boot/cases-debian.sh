# cases-debian.sh: a real Debian 12 root with systemd booted by lifeboat's
# images (sourced by run.sh): systemd's handshakes with an initramfs that
# is not systemd (docs/distributions.md). The root is made once per run
# by tests/boot/debian-root.sh; its report unit prints LIFEBOAT-DEB: lines.
# The installer's layouts are built once per input in a guest
# (debian-build.sh: 65 s here). Each case boots the root in about 40 s
# (multi-user 18 to 31 s after the kernel starts, under TCG). Debian 13's
# root (tests/boot/itools-root.sh's) in the LUKS-on-md layout has a
# builder boot of its own (65 s) and boots in 55 to 75 s (multi-user 39
# to 48 s after its kernel starts).

source "$TOP/tests/boot/debian-root.sh"
# Debian 13's root: tests/boot/itools-root.sh's, with lifeboat's .deb.
source "$TOP/tests/boot/itools-root.sh"

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
DEB_MDR_UUID=1b2c3d4e-00d8-4a5b-8c6d-7e8f9a0b1c2d
DEB_LUKS_UUID=1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d
DEB_LUKS2_UUID=1b2c3d4e-00d7-4a5b-8c6d-7e8f9a0b1c2d
DEB_SWAP_UUID=1b2c3d4e-00d2-4a5b-8c6d-7e8f9a0b1c2d
DEB_DATA_UUID=1b2c3d4e-00d3-4a5b-8c6d-7e8f9a0b1c2d
# The mapping's name is the installer's (its crypttab).
DEB_CRYPT=md0_crypt
DEB_CRYPT2=sda5_crypt

# debian_env LAYOUTS ROOT_MB: the builder's /debian.env: the layouts it
# makes (debian-build.sh) and the size of their root volumes.
debian_env() {
	local v
	for v in DEB_VG DEB_CVG DEB_MVG DEB_MD_UUID DEB_MDL_UUID DEB_MDR_UUID DEB_LUKS_UUID DEB_LUKS2_UUID \
		DEB_CRYPT DEB_CRYPT2 DEB_SWAP_UUID DEB_DATA_UUID; do
		echo "$v=${!v}"
	done
	echo "DEB_LAYOUTS='$1'"
	echo "DEB_ROOT_MB=$2"
	echo "DEB_LUKS_PW=$LUKS_PW"
}

# debian_layout_files IMAGE VG [CRYPTTAB]: the root filesystem IMAGE set
# up for the layout of group VG: its fstab, /data, and the crypttab line
# if given.
debian_layout_files() {
	local img=$1 vg=$2
	debroot_fstab "$img" "/dev/mapper/$vg-root / ext4 errors=remount-ro 0 1" \
		"/dev/mapper/$vg-swap none swap sw 0 0" "UUID=$DEB_DATA_UUID /data ext4 defaults 0 2" &&
	debugfs -w -R "mkdir /data" "$img" >/dev/null 2>&1 || return 1
	[ -z "${3:-}" ] || debroot_write "$img" /etc/crypttab "# <target name> <source device> <key file> <options>" "$3"
}

# debian_layout_root IMAGE VG [CRYPTTAB]: the Debian 12 root for the
# layout of group VG.
debian_layout_root() {
	debroot_copy "$1" && debian_layout_files "$@"
}

# debian_builder DIR LAYOUTS ROOT_MB: the builder's root disk
# (lifeboat's image tree with the stack tools, as cases-stacks.sh's) for
# the layouts LAYOUTS with root volumes of ROOT_MB.
debian_builder() {
	local dir=$1 tree=$1/tree
	builder_tree "$dir" tests/boot/debian-build.sh --add-binaries "$STACK_TOOLS,/usr/sbin/e2image" || return 1
	install -m 0755 /usr/sbin/mkswap "$tree/usr/sbin/mkswap.util" &&
	mkdir -p "$tree/etc/lvm" && stacks_lvm_conf > "$tree/etc/lvm/lvm.conf" &&
	debian_env "$2" "$3" > "$tree/debian.env" &&
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbbuilder "$UUID_EXT4"
}

# serial_disk FILE SERIAL [OPTS]: qemu options for a virtio disk the builder
# finds by its serial.
serial_disk() {
	echo "-drive file=$1,format=raw,if=none,id=$2${3:+,$3} -device virtio-blk-pci,drive=$2,serial=$2"
}

# debian_builder_run DIR SIZE ROOTS DISKS: the builder of DIR (made by
# debian_builder) boots with the roots' images DIR/NAME.img of ROOTS
# (read-only) and the disks DISKS, made empty here (SIZE each), and
# writes its layouts onto them; then only the disks are kept and DIR is
# done.
debian_builder_run() {
	local dir=$1 size=$2 roots=$3 disks=$4 d args=()
	for d in $roots; do
		args+=($(serial_disk "$dir/$d.img" "$d" readonly=on))
	done
	for d in $disks; do
		rm -f "$dir/$d.img" && truncate -s "$size" "$dir/$d.img" || return 1
		args+=($(serial_disk "$dir/$d.img" "$d"))
	done
	QEMU_TIMEOUT=500 boot_qemu "$dir/build.log" "$KERNEL" "$IMG_GENERIC" \
		"root=LABEL=lbbuilder rw rd.driver.pre=dm_mod,dm_crypt,raid1,xts,aesni_intel,aes_generic,sha256_generic,algif_skcipher" \
		-drive "file=$dir/builder-root.img,format=raw,if=virtio" "${args[@]}"
	grep -q 'DEBIAN-BUILD: done' "$dir/build.log" ||
		{ echo "the Debian disk builder failed (see $dir/build.log)"; return 1; }
	rm -rf "$dir/tree" "$dir/builder.cpio" "$dir/builder-root.img"
	for d in $roots; do
		rm -f "$dir/$d.img"
	done
	touch "$dir/done"
}

# DEBDISKS: the Debian 12 layouts' disks (debluks.img, debmd-a.img,
# debmd-b.img, debmdl-a.img, debmdl-b.img, debmdr-a.img, debmdr-b.img),
# made in a guest once per input (the builder, the Debian root's image,
# the layouts, the kernel).
debian_disks() {
	local key dir size=$((DEBROOT_SIZE_MB + 64 + 32 + 32))M layouts="lukslvm luksmd mdlvm md"
	debroot_image || return 1
	key=$( (cat "$TOP/tests/boot/debian-build.sh" "$TOP/tests/boot/builder-lib.sh";
		basename "$DEBROOT_IMG"; debian_env "$layouts" "$DEBROOT_SIZE_MB";
		declare -f debian_layout_root debian_layout_files debian_builder_run) |
		sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache debian-disks "$key")
	DEBDISKS=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		debian_builder "$dir" "$layouts" "$DEBROOT_SIZE_MB" &&
		debian_layout_root "$dir/debroot.img" "$DEB_VG" "$DEB_CRYPT2 UUID=$DEB_LUKS2_UUID none luks,discard" &&
		debian_layout_root "$dir/debroot2.img" "$DEB_CVG" "$DEB_CRYPT UUID=$DEB_LUKS_UUID none luks,discard" &&
		debian_layout_root "$dir/debroot3.img" "$DEB_MVG" &&
		debroot_copy "$dir/debroot4.img" &&
		debroot_fstab "$dir/debroot4.img" "UUID=$DEBROOT_UUID / ext4 errors=remount-ro 0 1" ||
			{ echo "making the Debian disk builder failed"; exit 1; }
		debian_builder_run "$dir" "$size" "debroot debroot2 debroot3 debroot4" \
			"debluks debmd-a debmd-b debmdl-a debmdl-b debmdr-a debmdr-b"
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

# The installer's layouts booted with the command line it writes for
# initramfs-tools (issue 31: no rd.luks.*, rd.lvm.*, rd.md.* hint) by the
# generic --block-stacks image, which has no crypttab: a container opens
# as luks-UUID and, once the root is mounted, takes the name the root's
# crypttab gives it (blockstack/luksname.c), so the root's
# systemd-cryptsetup finds it open and asks nothing. The passphrase is
# typed on the console.
# debian_luks_layout LOG INITRD VG UUID NAME DISKS...: boot it, and check
# what the real root's systemd made of the group, the mapping and its name.
debian_luks_layout() {
	local log=$1 initrd=$2 vg=$3 uuid=$4 name=$5
	shift 5
	LUKS_BOOT_TIMEOUT=480 luks_boot "$log" "$initrd" "root=/dev/mapper/$vg-root ro rd.timeout=120" \
		"UUID=$uuid; opens as /dev/mapper/luks-$uuid" "$DEBROOT_MARK: end" -m 1024 "$@" ||
		return 1
	assert_log "$log" "lifeboat: /dev/mapper/luks-$uuid is now /dev/mapper/$name, as the root's /etc/crypttab names it" &&
	debian_assert_volumes "$log" "$vg" &&
	assert_log "$log" "$DEBROOT_MARK: udev dm-.*DM_NAME=$name "
}

# LVM inside LUKS on a disk: the volumes, the mapping under its crypttab
# name (the root's udev, replaying "add", finds device-mapper's flags in
# the database lifeboat left, blockstack/udevdb.c), all ready for systemd.
case_debian_systemd_luks_lvm() {
	local disks
	debian_disks && stacks_image && disks=$(debian_copies debluks) || return 1
	debian_luks_layout "$CASE_DIR/console.log" "$IMG_STACKS" "$DEB_VG" "$DEB_LUKS2_UUID" "$DEB_CRYPT2" $disks
}

# The installer's encrypted layout: LVM inside LUKS on md RAID1, the
# container named md0_crypt by the root's crypttab. The volumes, the
# mapping and the array are all ready for systemd.
case_debian_systemd_luks_md_lvm() {
	local disks log=$CASE_DIR/console.log
	debian_disks && stacks_image && disks=$(debian_copies debmd-a debmd-b) || return 1
	debian_luks_layout "$log" "$IMG_STACKS" "$DEB_CVG" "$DEB_LUKS_UUID" "$DEB_CRYPT" $disks &&
	assert_log "$log" "$DEBROOT_MARK: udev md[0-9]"
}

# The root's filesystem right on md RAID1, by UUID, no rd.md.uuid=: the
# generic image assembles the array and mounts the root on it; the array
# is ready for systemd.
case_debian_systemd_md_root() {
	local disks log=$CASE_DIR/console.log
	debian_disks && stacks_image && disks=$(debian_copies debmdr-a debmdr-b) || return 1
	debroot_boot "$log" "$IMG_STACKS" "root=UUID=$DEBROOT_UUID ro rd.timeout=90" $disks &&
	debroot_assert_clean "$log" || return 1
	assert_log "$log" "$DEBROOT_MARK: mount / /dev/md[0-9]* ext4" &&
	assert_log "$log" "$DEBROOT_MARK: udev md[0-9]* .*ID_FS_UUID=$DEBROOT_UUID" &&
	assert_not_log "$log" "$DEBROOT_MARK: udev .*SYSTEMD_READY=0"
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

# debian_rm_files IMAGE DIR...: the regular files right in each DIR of the
# filesystem IMAGE removed.
debian_rm_files() {
	local img=$1 dir
	shift
	for dir in "$@"; do
		debugfs -R "ls -p $dir" "$img" 2>/dev/null | awk -F/ -v dir="$dir" '$3 ~ /^100/ { print "rm " dir "/" $6 }'
	done >"$img.rm" &&
	debugfs -w -f "$img.rm" "$img" >/dev/null 2>&1 && rm -f "$img.rm"
}

# debian_trixie_root IMAGE: the Debian 13 (trixie) root for the encrypted
# layout: itools-root.sh's (lifeboat's .deb installed with apt, then the
# kernel and the installer's stack packages: the image its kernel's
# postinst made has trixie's cryptsetup, lvm and mdadm), its partition
# cut out of its disk (ITOOLS_PART_MB). The builder copies what the root
# holds through dm-crypt at some 8 MB/s: /boot is left empty (the
# installer's encrypted layout has /boot outside the container, and the
# kernel and the image are given to qemu) and so are apt's lists (96 MB
# together: some 12 s at that rate).
debian_trixie_root() {
	dd if="$ITOOLS_OUT/disk.img" of="$1" bs=1M skip=1 count="$ITOOLS_PART_MB" conv=sparse status=none &&
	debian_rm_files "$1" /boot /var/lib/apt/lists ||
		{ echo "cutting the Debian 13 root out of its disk failed"; return 1; }
}

# DEBDISKS: the Debian 13 root inside LVM on LUKS on md RAID1 (debmd-a.img,
# debmd-b.img; debian-build.sh's luksmd layout), made by a builder boot of
# its own once per input (the builder, the Debian 13 root, the layout, the
# kernel): in the Debian 12 builder's boot it would make the Debian 12
# cases wait for the Debian 13 root, and fail with it.
debian_trixie_disks() {
	local key dir
	itools_suite trixie && itools_disk || return 1
	key=$( (cat "$TOP/tests/boot/debian-build.sh" "$TOP/tests/boot/builder-lib.sh";
		basename "$ITOOLS_OUT"; debian_env luksmd 0;
		declare -f debian_trixie_root debian_layout_files debian_builder_run) |
		sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache debian-disks-trixie "$key")
	DEBDISKS=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		debian_trixie_root "$dir/debroot2.img" &&
		debian_layout_files "$dir/debroot2.img" "$DEB_CVG" "$DEB_CRYPT UUID=$DEB_LUKS_UUID none luks,discard" &&
		debian_builder "$dir" luksmd "$ITOOLS_PART_MB" ||
			{ echo "making the Debian 13 disk builder failed"; exit 1; }
		debian_builder_run "$dir" "$((ITOOLS_PART_MB + 64 + 32 + 32))M" debroot2 "debmd-a debmd-b"
	) 9>"$dir.lock"
}

# The installer's encrypted layout on Debian 13 (trixie: systemd 257, its
# own 6.12 kernel): as debian_systemd_luks_md_lvm, booted by the image the
# root's kernel postinst made with lifeboat (generic, block-stacks = yes:
# trixie's own cryptsetup, lvm and mdadm), the installer's command line,
# the passphrase typed on the console. The swap and /data come up with no device wait, the volumes,
# the mapping and the array are ready for systemd.
case_debian_trixie_luks_md_lvm() {
	local disks log=$CASE_DIR/console.log versions t
	debian_trixie_disks && disks=$(debian_copies debmd-a debmd-b) || return 1
	for t in cryptsetup lvm mdadm; do
		grep -q " usr/sbin/$t\$" "$ITOOLS_OUT/initrd.ls" ||
			{ echo "the Debian 13 root's image has no usr/sbin/$t (list: $ITOOLS_OUT/initrd.ls)"; return 1; }
	done
	KERNEL=$ITOOLS_OUT/vmlinuz debian_luks_layout "$log" "$ITOOLS_OUT/initrd.img" "$DEB_CVG" \
		"$DEB_LUKS_UUID" "$DEB_CRYPT" $disks &&
	assert_log "$log" "$DEBROOT_MARK: udev md[0-9]" || return 1
	versions=$(debroot_value "$log" versions)
	case $versions in
	"6.12."*" systemd 257"*) ;;
	*) echo "the root booted kernel and systemd '$versions', not Debian 13's 6.12 and 257"; return 1 ;;
	esac
}
