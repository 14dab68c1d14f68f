# cases-stacks.sh: roots on LUKS, LVM and md RAID1 (sourced by run.sh).
#
# The host kernel has no device-mapper, so the stacked disks are made in a
# qemu guest: a builder root (lifeboat's own image tree, with lvm, mdadm,
# cryptsetup and mke2fs added by --add-binaries, and stacks-build.sh as its
# /sbin/init) is booted once by the generic image and writes the stacks onto
# empty disks. The disks are cached under build/stack-disks/ by a key of
# their inputs.

UUID_LUKS=1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_FS=1b2c3d4e-0002-4a5b-8c6d-7e8f9a0b1c2d
UUID_LVM_FS=1b2c3d4e-0003-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_LVM=1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_LVM_FS=1b2c3d4e-0005-4a5b-8c6d-7e8f9a0b1c2d
UUID_MD=1b2c3d4e-0006-4a5b-8c6d-7e8f9a0b1c2d
UUID_MD_FS=1b2c3d4e-0007-4a5b-8c6d-7e8f9a0b1c2d
LUKS_PW=lifeboat-luks-pw
STACK_DISKS="luks lvm lvmluks md-a md-b"
STACK_TOOLS=/usr/sbin/lvm,/usr/sbin/cryptsetup,/usr/sbin/mdadm,/usr/sbin/mke2fs

# The guest's lvm.conf: no udev in the builder, so libdevmapper makes the
# /dev/mapper nodes itself.
stacks_lvm_conf() {
	printf 'activation {\n\tudev_sync = 0\n\tudev_rules = 0\n\tmonitoring = 0\n}\n'
	printf 'devices {\n\tobtain_device_list_from_udev = 0\n}\n'
	printf 'backup {\n\tbackup = 0\n\tarchive = 0\n}\n'
}

# The builder's root disk, made on the host (no device-mapper needed).
stacks_builder_root() {
	local dir=$1 tree=$1/tree
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --compress none \
		--add-binaries "$STACK_TOOLS" -o "$dir/builder.cpio" >/dev/null 2>&1 || return 1
	rm -rf "$tree" && mkdir -p "$tree"
	(cd "$tree" && cpio -idm --quiet < "$dir/builder.cpio") || return 1
	rm -rf "$tree/usr/lib/modules" "$tree/init"
	# busybox's applet link takes mke2fs's place in the image: keep the real one.
	install -m 0755 /usr/sbin/mke2fs "$tree/usr/sbin/mke2fs.e2fs"
	mkdir -p "$tree/sbin" "$tree/etc/lvm" "$tree/stackroot"
	install -m 0755 "$TOP/tests/boot/stacks-build.sh" "$tree/sbin/init"
	stacks_lvm_conf > "$tree/etc/lvm/lvm.conf"
	make_root_tree "$tree/stackroot"
	stacks_env > "$tree/stacks.env"
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbbuilder "$UUID_EXT4"
}

# The builder's parameters, also written into its root as /stacks.env.
stacks_env() {
	local v
	for v in UUID_LUKS UUID_LUKS_FS UUID_LVM_FS UUID_LUKS_LVM UUID_LUKS_LVM_FS UUID_MD UUID_MD_FS LUKS_PW; do
		echo "$v=${!v}"
	done
}

# Make the stacked disks once per input (the builder script, its
# parameters and tools, the test init, the kernel); parallel cases wait on a
# lock. Disks of other keys (older inputs) are removed.
stacks_disks() {
	local key dir
	key=$( (cat "$TOP/tests/boot/stacks-build.sh" "$TEST_INIT"; stacks_env; echo "$STACK_TOOLS") |
		sha256sum | cut -c1-16)-$KVER
	dir=$BUILD/stack-disks/$key
	STACKS=$dir
	mkdir -p "$dir"
	find "$BUILD/stack-disks" -mindepth 1 -maxdepth 1 ! -name "$key" ! -name "$key.lock" \
		-exec rm -rf {} + 2>/dev/null
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		stacks_builder_root "$dir" || { echo "making the builder root failed"; exit 1; }
		local d args=(-drive "file=$dir/builder-root.img,format=raw,if=virtio")
		for d in $STACK_DISKS; do
			rm -f "$dir/$d.img" && truncate -s 64M "$dir/$d.img"
			args+=(-drive "file=$dir/$d.img,format=raw,if=none,id=$d"
				-device "virtio-blk-pci,drive=$d,serial=$d")
		done
		boot_qemu "$dir/build.log" "$KERNEL" "$IMG_GENERIC" \
			"root=LABEL=lbbuilder rw rd.driver.pre=dm_mod,dm_crypt,raid1,xts,aes_generic,sha256_generic,algif_skcipher" \
			"${args[@]}"
		grep -q 'STACKS-BUILD: done' "$dir/build.log" ||
			{ echo "the stack builder failed (see $dir/build.log)"; exit 1; }
		rm -rf "$dir/tree" "$dir/builder.cpio" "$dir/builder-root.img"
		touch "$dir/done"
	) 9>"$dir.lock"
}

# stack_copy NAME: the case's own copy of a stacked disk.
stack_copy() {
	cp --sparse=always "$STACKS/$1.img" "$CASE_DIR/$1.img"
	echo "$CASE_DIR/$1.img"
}

# The image under test: generic with --block-stacks and e2fsck, made once per run.
stacks_image() {
	IMG_STACKS=$WORK/stacks.img
	(
		flock 9
		[ "$IMG_STACKS" -nt "$BUILD/lifeboat-init" ] && [ "$IMG_STACKS" -nt "$BUILD/lifeboat" ] && exit 0
		"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
			--add-binaries /usr/sbin/e2fsck -o "$IMG_STACKS" >/dev/null 2>&1 ||
			{ echo "building the --block-stacks image failed"; exit 1; }
	) 9>"$WORK/stacks.img.lock"
}

stacks_setup() {
	stacks_disks && stacks_image
}

# virtio_disk FILE: qemu options for one more virtio disk.
virtio_disk() {
	echo "-drive file=$1,format=raw,if=virtio"
}

# Root on LUKS, passphrase on the serial console: a wrong one is refused
# with a message naming the device, the right one opens it; nothing typed
# is echoed.
case_stacks_luks_root() {
	local disk rc
	stacks_setup || return 1
	disk=$(stack_copy luks)
	rescue_start "$IMG_STACKS" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=90" \
		$(virtio_disk "$disk")
	{
		expect "UUID=$UUID_LUKS; opens as /dev/mapper/luks-$UUID_LUKS" 90 &&
		expect 'Passphrase \(try 1 of 3\)' 10 &&
		type_line "wrong-$LUKS_PW" &&
		expect "the passphrase does not open /dev/vda \(UUID=$UUID_LUKS\)" 60 &&
		expect 'Passphrase \(try 2 of 3\)' 10 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# LVM on LUKS: rd.luks.name names the mapping, root=/dev/mapper/VG-LV.
case_stacks_lvm_on_luks() {
	local disk rc
	stacks_setup || return 1
	disk=$(stack_copy lvmluks)
	rescue_start "$IMG_STACKS" "root=/dev/mapper/lbcvg-root rd.luks.name=$UUID_LUKS_LVM=lbcrypt rd.lvm.vg=lbcvg rd.timeout=90" \
		$(virtio_disk "$disk")
	{
		expect "UUID=$UUID_LUKS_LVM; opens as /dev/mapper/lbcrypt" 90 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-1 ext4' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# Root on LVM, by /dev/mapper/VG-LV and by /dev/VG/LV with rd.lvm.lv.
case_stacks_lvm_root() {
	local disk
	stacks_setup || return 1
	disk=$(stack_copy lvm)
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" "root=/dev/mapper/lbvg-root rd.timeout=60" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" && assert_timeline "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' || return 1
	boot_qemu "$CASE_DIR/console2.log" "$KERNEL" "$IMG_STACKS" "root=/dev/lbvg/root rd.lvm.lv=lbvg/root rd.timeout=60" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console2.log" &&
	assert_log "$CASE_DIR/console2.log" 'rootmount /dev/dm-0 ext4'
}

# md RAID1 with one of its two members missing: started degraded once the
# devices settle, and the root mounts from it.
case_stacks_md_degraded() {
	local disk
	stacks_setup || return 1
	disk=$(stack_copy md-a)
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" "root=UUID=$UUID_MD_FS rd.md.uuid=$UUID_MD rd.timeout=60" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/md' &&
	assert_log "$CASE_DIR/console.log" 'started degraded'
}

# fsck_disk NAME DEBUGFS_CMD: an ext4 test root marked not cleanly unmounted
# (so e2fsck -p checks it) and damaged by a debugfs command, made on the host.
fsck_disk() {
	local file=$CASE_DIR/$1.img
	make_root_tree "$CASE_DIR/tree"
	mkfs_image ext4 "$file" 32 "$CASE_DIR/tree" lbfsck "$UUID_EXT4" &&
	debugfs -w -R "ssv state 0" "$file" >/dev/null 2>&1 &&
	debugfs -w -R "$2" "$file" >/dev/null 2>&1 || return 1
	echo "$file"
}

# fsck before mount: fastboot skips it; without it a wrong free-inode count
# is repaired and reported, and the root boots.
case_stacks_fsck_repair() {
	local disk
	stacks_setup || return 1
	disk=$(fsck_disk repair "ssv free_inodes_count 7") || { echo "making the disk failed"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60 fastboot" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_not_log "$CASE_DIR/console.log" 'filesystem check' || return 1
	boot_qemu "$CASE_DIR/console2.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console2.log" &&
	assert_log "$CASE_DIR/console2.log" 'the filesystem check repaired /dev/vda (ext4)' &&
	assert_log "$CASE_DIR/console2.log" 'was not cleanly unmounted, check forced'
}

# A root e2fsck -p cannot repair (its root inode cleared): the boot stops
# in rescue with the checker's output (rd.shell=0: the report, then off).
case_stacks_fsck_unrepairable() {
	local disk
	stacks_setup || return 1
	disk=$(fsck_disk broken "clri <2>") || { echo "making the disk failed"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60 rd.shell=0" \
		$(virtio_disk "$disk")
	assert_log "$CASE_DIR/console.log" 'UNEXPECTED INCONSISTENCY' &&
	assert_log "$CASE_DIR/console.log" 'errors the automatic check could not repair' &&
	assert_not_log "$CASE_DIR/console.log" 'LIFEBOAT-TEST: root reached'
}
