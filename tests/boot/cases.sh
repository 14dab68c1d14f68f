# cases.sh: the qemu boot scenarios (sourced by run.sh). Each case_NAME
# function boots once and returns non-zero with a reason on stdout when the
# boot did not do what it must. $KERNEL, $IMG_GENERIC, $IMG_HOST, $IMG_CMDLINE and the
# disk images in $DISKS are made by run.sh's prepare step; each case copies
# the disk it boots (qemu locks disk files) into its own directory $CASE_DIR.

UUID_EXT4=3f1c2a9e-5b7d-4c1e-9a2b-0d6e8f4a1b21
UUID_XFS=8e2d4b6a-1c3f-4e5d-a7b9-2c4d6e8f0a13
UUID_BTRFS=5a7c9e1b-3d5f-4a6c-8e0b-1c3d5e7f9a24
UUID_GPT_FS=9b1d3f5a-7c9e-4b1d-9f3a-5c7e9b1d3f35
PARTUUID_GPT=c0ffee00-1234-4abc-8def-0123456789ab
DISKID_GPT=d15c0000-aaaa-4bbb-8ccc-dddddddddddd

disk_copy() {
	cp --sparse=always "$DISKS/$1" "$CASE_DIR/$1"
	echo "$CASE_DIR/$1"
}

# boot_ok IMAGE APPEND DISK KIND: a boot that must reach the root, with a
# complete timeline.
boot_ok() {
	local image=$1 append=$2 disk kind=$4
	disk=$(disk_copy "$3")
	# shellcheck disable=SC2046
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$image" "$append" $(disk_args "$kind" "$disk")
	assert_root_reached "$CASE_DIR/console.log" && assert_timeline "$CASE_DIR/console.log"
}

case_path_virtio_blk_ext4() {
	boot_ok "$IMG_GENERIC" "root=/dev/vda" ext4.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda ext4 ro"
}

case_label_ext4() {
	boot_ok "$IMG_GENERIC" "root=LABEL=lbext4" ext4.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* rootdev /dev/vda"
}

# The generic image leaves the IDE controller (qemu's PIIX, with its
# CD-ROM) for later; the root on virtio is mounted without its drivers.
# The filesystem's module loads in a child while e2fsck checks the root.
case_uuid_ext4() {
	boot_ok "$IMG_GENERIC" "root=UUID=$UUID_EXT4" ext4.img virtio-blk &&
	assert_log_order "$CASE_DIR/console.log" "timeline [0-9.]* rootdev /dev/vda" \
		"timeline [0-9.]* fsmodule ext4 loading in the background" &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* fsmodule fs-ext4 loaded in the background ([1-9][0-9]* modules)" &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* modules .*IDE controllers and PS/2 ports left for later" &&
	assert_not_log "$CASE_DIR/console.log" "scsi host[0-9]*: ata_piix" &&
	assert_not_log "$CASE_DIR/console.log" "timeline [0-9.]* late "
}

# A root on the controller loaded last: the wait loads the IDE drivers once
# nothing else came, and the root is found there.
case_ide_root_late() {
	boot_ok "$IMG_GENERIC" "root=UUID=$UUID_EXT4" ext4.img ide &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* modules .*IDE controllers and PS/2 ports left for later" &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* late [1-9][0-9]* loaded for the IDE controllers and PS/2 ports" &&
	assert_log "$CASE_DIR/console.log" "scsi host[0-9]*: ata_piix" &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/sda ext4"
}

case_by_uuid_link_ext4() {
	boot_ok "$IMG_GENERIC" "root=/dev/disk/by-uuid/$UUID_EXT4" ext4.img virtio-blk
}

case_partuuid_gpt() {
	boot_ok "$IMG_GENERIC" "root=PARTUUID=$PARTUUID_GPT" gpt.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda2 ext4"
}

case_partlabel_gpt_majmin() {
	boot_ok "$IMG_GENERIC" "root=PARTLABEL=lbroot" gpt.img virtio-blk || return 1
	# SCSI disks have the fixed major 8: sda2 is 8:2.
	boot_ok "$IMG_GENERIC" "root=8:2" gpt.img ahci &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/sda2 ext4"
}

case_xfs_uuid() {
	boot_ok "$IMG_GENERIC" "root=UUID=$UUID_XFS" xfs.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda xfs ro"
}

case_btrfs_label() {
	boot_ok "$IMG_GENERIC" "root=LABEL=lbbtrfs" btrfs.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda btrfs ro"
}

case_virtio_scsi() {
	boot_ok "$IMG_GENERIC" "root=UUID=$UUID_EXT4" ext4.img virtio-scsi &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/sda ext4"
}

case_ahci_sata() {
	boot_ok "$IMG_GENERIC" "root=UUID=$UUID_EXT4" ext4.img ahci &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/sda ext4"
}

# rw and rootflags: the flags reach the mount, fs options pass through.
# rootfstype= names the module before the device is found: it loads in a
# child meanwhile, as a host-only image's root filesystem does.
case_rootflags_rw() {
	boot_ok "$IMG_GENERIC" "root=LABEL=lbext4 rw rootfstype=ext4 rootflags=noatime,commit=7" ext4.img virtio-blk &&
	assert_log_order "$CASE_DIR/console.log" "timeline [0-9.]* fsmodule ext4 loading in the background" \
		"timeline [0-9.]* rootdev /dev/vda" &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda ext4 rw,noatime" &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda ext4 .*commit=7"
}

# init= is honoured and the kernel's arguments are passed on.
case_init_and_args() {
	boot_ok "$IMG_GENERIC" "root=/dev/vda init=/sbin/init single" ext4.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "argv\[0\] /sbin/init" &&
	assert_log "$CASE_DIR/console.log" "argv\[1\] single"
}

# A host-only image knows its root's filesystem: its module loads in a
# child before the root device is found. The build host's root is a plain
# ext4 disk: the image has no way out (nothing to take down at shutdown),
# and its modules are plain, so no liblzma either.
case_host_only() {
	"$BUILD/lifeboat" ls "$IMG_HOST" > "$CASE_DIR/host-only.ls" || { echo "lifeboat ls failed"; return 1; }
	! grep -q "lifeboat-shutdown.xz\$" "$CASE_DIR/host-only.ls" ||
		{ echo "the host-only image of a plain root carries the way out (host-only.ls)"; return 1; }
	! grep -q -e "liblzma" -e "\.ko\.xz\$" "$CASE_DIR/host-only.ls" ||
		{ echo "the host-only image of a plain root carries liblzma or xz'd modules (host-only.ls)"; return 1; }
	boot_ok "$IMG_HOST" "root=UUID=$UUID_EXT4" ext4.img virtio-blk &&
	assert_log_order "$CASE_DIR/console.log" "timeline [0-9.]* fsmodule ext4 loading in the background" \
		"timeline [0-9.]* rootdev /dev/vda" &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* fsmodule fs-ext4 loaded in the background ([1-9][0-9]* modules)"
}

# root= built into the image with lifeboat build --cmdline, and a module's
# parameter (virtio_blk.num_request_queues=1) that reaches the module.
case_embedded_cmdline() {
	boot_ok "$IMG_CMDLINE" "lifeboat.test.show=/sys/module/virtio_blk/parameters/num_request_queues" \
		ext4.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "LIFEBOAT-TEST: show 1"
}

# A root that never appears, with rd.shell=0: a clear message naming what was
# waited for and what was found, no hang past rd.timeout, no shell, and the
# machine reboots (cases-rescue.sh has the shell).
case_missing_root() {
	local disk log=$CASE_DIR/console.log start end
	disk=$(disk_copy ext4.img)
	start=$(date +%s)
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$IMG_GENERIC" "root=UUID=00000000-dead-beef-0000-000000000000 rd.timeout=3 rd.shell=0" \
		$(disk_args virtio-blk "$disk")
	end=$(date +%s)
	assert_not_log "$log" "LIFEBOAT-TEST: root reached" &&
	assert_log "$log" "root device root=UUID=00000000-dead-beef-0000-000000000000 did not appear" &&
	assert_log "$log" "/dev/vda TYPE=\"ext4\" LABEL=\"lbext4\" UUID=\"$UUID_EXT4\"" &&
	assert_log "$log" "rd.shell=0: no shell; the report is in /run/initramfs/rdsosreport.txt; rebooting" &&
	{ [ $((end - start)) -lt $((QEMU_TIMEOUT - 10)) ] || { echo "the boot hung until the test's timeout"; return 1; }; }
}

# init= that does not exist on the root: reported, not a kernel panic; with
# rd.shell=0 no shell, a reboot.
case_missing_init() {
	local disk log=$CASE_DIR/console.log
	disk=$(disk_copy ext4.img)
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$IMG_GENERIC" "root=/dev/vda init=/sbin/nonexistent rd.shell=0" $(disk_args virtio-blk "$disk")
	assert_not_log "$log" "LIFEBOAT-TEST: root reached" &&
	assert_log "$log" "init=/sbin/nonexistent is missing or not executable" &&
	assert_log "$log" "rd.shell=0: no shell" &&
	assert_not_log "$log" "Kernel panic"
}
