# cases-stacks.sh: roots on LUKS, LVM and md RAID1 and their nestings, a
# swap in LUKS to resume from, and host-only images of stacks (sourced by
# run.sh).
#
# The host kernel has no device-mapper, so the stacked disks are made in a
# qemu guest: a builder root (lifeboat's own image tree, with lvm, mdadm,
# cryptsetup, mke2fs and mkswap added by --add-binaries, and stacks-build.sh
# as its /sbin/init) is booted once by the generic image and writes the
# stacks onto empty disks. The disks are cached under build/stack-disks/ by
# a key of their inputs.

UUID_LUKS=1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_FS=1b2c3d4e-0002-4a5b-8c6d-7e8f9a0b1c2d
UUID_LVM_FS=1b2c3d4e-0003-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_LVM=1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_LVM_FS=1b2c3d4e-0005-4a5b-8c6d-7e8f9a0b1c2d
UUID_MD=1b2c3d4e-0006-4a5b-8c6d-7e8f9a0b1c2d
UUID_MD_FS=1b2c3d4e-0007-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_SWAP=1b2c3d4e-0008-4a5b-8c6d-7e8f9a0b1c2d
UUID_LUKS_SWAP_INNER=1b2c3d4e-0009-4a5b-8c6d-7e8f9a0b1c2d
UUID_LVM_LUKS=1b2c3d4e-000a-4a5b-8c6d-7e8f9a0b1c2d
UUID_LVM_LUKS_FS=1b2c3d4e-000b-4a5b-8c6d-7e8f9a0b1c2d
UUID_MD_LVM=1b2c3d4e-000c-4a5b-8c6d-7e8f9a0b1c2d
UUID_MD_LVM_FS=1b2c3d4e-000d-4a5b-8c6d-7e8f9a0b1c2d
UUID_HOST_LUKS=1b2c3d4e-000e-4a5b-8c6d-7e8f9a0b1c2d
UUID_HOST_FS=1b2c3d4e-000f-4a5b-8c6d-7e8f9a0b1c2d
UUID_MDHOST=1b2c3d4e-0010-4a5b-8c6d-7e8f9a0b1c2d
UUID_MDHOST_FS=1b2c3d4e-0011-4a5b-8c6d-7e8f9a0b1c2d
UUID_HLUKS=1b2c3d4e-0012-4a5b-8c6d-7e8f9a0b1c2d
UUID_HLUKS_FS=1b2c3d4e-0013-4a5b-8c6d-7e8f9a0b1c2d
UUID_HLVLUKS=1b2c3d4e-0014-4a5b-8c6d-7e8f9a0b1c2d
UUID_HLVLUKS_FS=1b2c3d4e-0015-4a5b-8c6d-7e8f9a0b1c2d
UUID_SNAP_FS=1b2c3d4e-0016-4a5b-8c6d-7e8f9a0b1c2d
UUID_SNAP_SWAP=1b2c3d4e-0017-4a5b-8c6d-7e8f9a0b1c2d
UUID_GONE=1b2c3d4e-00ff-4a5b-8c6d-7e8f9a0b1c2d
LUKS_PW=lifeboat-luks-pw
# The disks the builder writes (by virtio serial), 64 MiB each but the
# LUKS swap's (the hibernation image needs room after the LUKS2 header) and
# the group with a swap volume to hibernate into.
STACK_DISKS="luks lvm lvmluks md-a md-b luksswap lukslvm mdlvm-a mdlvm-b hostonly mdhost-a mdhost-b hostluks hostlukslvm lvmmerge"
STACK_TOOLS=/usr/sbin/lvm,/usr/sbin/cryptsetup,/usr/sbin/mdadm,/usr/sbin/mke2fs,/usr/sbin/mkswap
HOSTGEN_INIT=$BUILD/hostgen-init

# The guest's lvm.conf: no udev in the builder, so libdevmapper makes the
# /dev/mapper nodes itself.
stacks_lvm_conf() {
	printf 'activation {\n\tudev_sync = 0\n\tudev_rules = 0\n\tmonitoring = 0\n}\n'
	printf 'devices {\n\tobtain_device_list_from_udev = 0\n}\n'
	printf 'backup {\n\tbackup = 0\n\tarchive = 0\n}\n'
}

# builder_tree DIR SCRIPT LIFEBOAT-ARGS...: DIR/tree, a disk builder's
# root: lifeboat's own image tree (made with those arguments), SCRIPT as
# its /sbin/init with tests/boot/builder-lib.sh beside it, and /stackroot,
# the test root it writes onto the disks.
builder_tree() {
	local dir=$1 script=$2 tree=$1/tree
	shift 2
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --compress none \
		"$@" -o "$dir/builder.cpio" >/dev/null 2>&1 || return 1
	rm -rf "$tree" && mkdir -p "$tree"
	(cd "$tree" && cpio -idm --quiet < "$dir/builder.cpio") || return 1
	rm -rf "$tree/usr/lib/modules" "$tree/init"
	# The image carries busybox xz'd and its links as a list, for its init
	# to make on first use.
	mkdir -p "$tree/usr/bin" &&
		xz -dc "$tree/usr/lib/lifeboat/busybox.xz" > "$tree/usr/bin/busybox" &&
		chmod 0755 "$tree/usr/bin/busybox" || return 1
	while read -r applet; do
		[ -e "$tree/usr/bin/$applet" ] || ln -s busybox "$tree/usr/bin/$applet"
	done < "$tree/usr/lib/lifeboat/busybox.applets"
	# busybox's applet links take mke2fs's place in the image: keep the
	# real one (its libraries came with --add-binaries).
	install -m 0755 /usr/sbin/mke2fs "$tree/usr/sbin/mke2fs.e2fs"
	mkdir -p "$tree/sbin" "$tree/stackroot"
	install -m 0755 "$TOP/$script" "$tree/sbin/init"
	install -m 0644 "$TOP/tests/boot/builder-lib.sh" "$tree/builder-lib.sh"
	make_root_tree "$tree/stackroot"
}

# builder_cache KIND KEY: the directory build/KIND/KEY of a builder's
# disks, made; other keys' (older inputs) are removed.
builder_cache() {
	local dir=$BUILD/$1/$2
	mkdir -p "$dir"
	find "$BUILD/$1" -mindepth 1 -maxdepth 1 ! -name "$2" ! -name "$2.lock" \
		-exec rm -rf {} + 2>/dev/null
	echo "$dir"
}

# The builder's root disk, made on the host (no device-mapper needed).
stacks_builder_root() {
	local dir=$1 tree=$1/tree
	builder_tree "$dir" tests/boot/stacks-build.sh --add-binaries "$STACK_TOOLS" || return 1
	install -m 0755 /usr/sbin/mkswap "$tree/usr/sbin/mkswap.util"
	mkdir -p "$tree/etc/lvm"
	stacks_lvm_conf > "$tree/etc/lvm/lvm.conf"
	stacks_host_tree "$tree/hostroot"
	stacks_env > "$tree/stacks.env"
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbbuilder "$UUID_EXT4"
}

# The root that runs the host-only generator in a guest: hostgen-init, and
# /usr empty for the host's over 9p, the rest symlinks into it (merged
# /usr), and the loader's configuration as the host has it. Booted without
# the share, its /usr has hib-init too (init=/usr/sbin/hib-init hibernates).
stacks_host_tree() {
	local dir=$1 d
	rm -rf "$dir"
	mkdir -p "$dir/usr/sbin" "$dir/proc" "$dir/sys" "$dir/dev" "$dir/run" "$dir/tmp" "$dir/out" "$dir/etc"
	for d in bin sbin lib lib64; do
		ln -s "usr/$d" "$dir/$d"
	done
	install -m 0755 "$HOSTGEN_INIT" "$dir/usr/sbin/init"
	install -m 0755 "$HIB_INIT" "$dir/usr/sbin/hib-init"
	cp -a /etc/ld.so.conf /etc/ld.so.conf.d /etc/ld.so.cache "$dir/etc/"
	echo "lifeboat host-only test root" > "$dir/etc/issue"
	# As a Debian host's with nothing listed; a case can bind its own over
	# them (hostgen-init, from the share's etc/).
	echo "# <target name> <source device> <key file> <options>" > "$dir/etc/crypttab"
	mkdir -p "$dir/etc/mdadm"
	echo "# mdadm.conf: no arrays listed" > "$dir/etc/mdadm/mdadm.conf"
}

# md_uuid UUID: mdadm's spelling of a UUID (four groups of 8 hex digits).
md_uuid() {
	local hex=${1//-/}
	echo "${hex:0:8}:${hex:8:8}:${hex:16:8}:${hex:24:8}"
}

# The builder's parameters, also written into its root as /stacks.env.
stacks_env() {
	local v
	for v in UUID_LUKS UUID_LUKS_FS UUID_LVM_FS UUID_LUKS_LVM UUID_LUKS_LVM_FS UUID_MD UUID_MD_FS \
		UUID_LUKS_SWAP UUID_LUKS_SWAP_INNER UUID_LVM_LUKS UUID_LVM_LUKS_FS UUID_MD_LVM \
		UUID_MD_LVM_FS UUID_HOST_LUKS UUID_HOST_FS UUID_MDHOST UUID_MDHOST_FS UUID_HLUKS UUID_HLUKS_FS \
		UUID_HLVLUKS UUID_HLVLUKS_FS UUID_SNAP_FS UUID_SNAP_SWAP UUID_GONE LUKS_PW; do
		echo "$v=${!v}"
	done
}

# Make the stacked disks once per input (the builder script, its
# parameters and tools, the test init, the kernel); parallel cases wait on a
# lock. Disks of other keys (older inputs) are removed.
stacks_disks() {
	local key dir
	key=$( (cat "$TOP/tests/boot/stacks-build.sh" "$TOP/tests/boot/builder-lib.sh" "$TEST_INIT" \
		"$HOSTGEN_INIT" "$HIB_INIT"; stacks_env; echo "$STACK_TOOLS $STACK_DISKS") |
		sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache stack-disks "$key")
	STACKS=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		stacks_builder_root "$dir" || { echo "making the builder root failed"; exit 1; }
		local d size args=(-drive "file=$dir/builder-root.img,format=raw,if=virtio")
		for d in $STACK_DISKS; do
			size=64M
			[ "$d" != luksswap ] || size=128M
			[ "$d" != lvmmerge ] || size=256M
			rm -f "$dir/$d.img" && truncate -s "$size" "$dir/$d.img"
			args+=(-drive "file=$dir/$d.img,format=raw,if=none,id=$d"
				-device "virtio-blk-pci,drive=$d,serial=$d")
		done
		QEMU_TIMEOUT=400 boot_qemu "$dir/build.log" "$KERNEL" "$IMG_GENERIC" \
			"root=LABEL=lbbuilder rw rd.driver.pre=dm_mod,dm_crypt,dm_snapshot,raid1,xts,aes_generic,sha256_generic,algif_skcipher" \
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

# The image under test: generic with --block-stacks and e2fsck, made once per
# run; with ramoops, which shutdown_report_next_boot loads by rd.driver.pre=.
stacks_image() {
	IMG_STACKS=$(cached_image stacks --generic --block-stacks --add-binaries /usr/sbin/e2fsck \
		--add-modules ramoops) || { echo "$IMG_STACKS"; return 1; }
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

# fsck_disk NAME DEBUGFS_CMD [clean]: an ext4 test root marked not cleanly
# unmounted (so e2fsck -p checks it; with "clean", left marked clean) and
# damaged by a debugfs command, made on the host.
fsck_disk() {
	local file=$CASE_DIR/$1.img
	make_root_tree "$CASE_DIR/tree"
	mkfs_image ext4 "$file" 32 "$CASE_DIR/tree" lbfsck "$UUID_EXT4" &&
	{ [ "${3:-}" = clean ] || debugfs -w -R "ssv state 0" "$file" >/dev/null 2>&1; } &&
	debugfs -w -R "$2" "$file" >/dev/null 2>&1 || return 1
	echo "$file"
}

# fsck before mount: fastboot skips it; without it a wrong free-inode count
# is repaired and reported, the root boots, and /run/initramfs/fsck-root
# is left for systemd-fsck-root (not when the check was skipped).
case_stacks_fsck_repair() {
	local disk
	stacks_setup || return 1
	disk=$(fsck_disk repair "ssv free_inodes_count 7") || { echo "making the disk failed"; return 1; }
	local stamp=lifeboat.test.show=/run/initramfs/fsck-root
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60 fastboot $stamp" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_not_log "$CASE_DIR/console.log" 'filesystem check' &&
	assert_log "$CASE_DIR/console.log" 'show missing /run/initramfs/fsck-root' || return 1
	boot_qemu "$CASE_DIR/console1.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60 rd.skipfsck" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console1.log" &&
	assert_not_log "$CASE_DIR/console1.log" 'filesystem check' || return 1
	# Checked: the stamp tells the real root's systemd-fsck-root not to check again.
	boot_qemu "$CASE_DIR/console2.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60 $stamp" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console2.log" &&
	assert_log "$CASE_DIR/console2.log" 'the filesystem check repaired /dev/vda (ext4)' &&
	assert_log "$CASE_DIR/console2.log" 'was not cleanly unmounted, check forced' &&
	assert_not_log "$CASE_DIR/console2.log" 'show missing /run/initramfs/fsck-root'
}

# A host-only image of the build host (its root is ext4) has no e2fsck
# unless --fsck is given; with it, the check before mount repairs a root.
case_stacks_fsck_hostonly() {
	local disk img=$CASE_DIR/fsck-host.img
	disk=$(fsck_disk repair "ssv free_inodes_count 7") || { echo "making the disk failed"; return 1; }
	! "$BUILD/lifeboat" ls "$IMG_HOST" | grep -q 'usr/sbin/e2fsck$' ||
		{ echo "the host-only image has e2fsck without --fsck"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --host-only --fsck --kver "$KVER" -o "$img" >/dev/null 2>&1 &&
	"$BUILD/lifeboat" ls "$img" | grep -q 'usr/sbin/e2fsck$' ||
		{ echo "lifeboat build --host-only --fsck made no image with e2fsck (is the build host's root ext2/3/4?)"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$img" "root=LABEL=lbfsck rd.timeout=60" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'the filesystem check repaired /dev/vda (ext4)'
}

# A damaged root still marked clean (an inode's link count wrong): e2fsck
# -p leaves it (nothing is reported), fsck.mode=force (e2fsck -f) finds and
# repairs the damage.
case_stacks_fsck_force() {
	local disk
	stacks_setup || return 1
	disk=$(fsck_disk forced "set_inode_field /sbin/init links_count 5" clean) || { echo "making the disk failed"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_not_log "$CASE_DIR/console.log" 'filesystem check' || return 1
	boot_qemu "$CASE_DIR/console2.log" "$KERNEL" "$IMG_STACKS" "root=LABEL=lbfsck rd.timeout=60 fsck.mode=force" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console2.log" &&
	assert_log "$CASE_DIR/console2.log" 'the filesystem check repaired /dev/vda (ext4)' &&
	assert_log "$CASE_DIR/console2.log" 'ref count is 5, should be 1.  FIXED'
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

# luks_boot LOG INITRD APPEND PROMPT UNTIL QEMU_ARGS...: boot with the
# console on pipes, type the passphrase when PROMPT shows (after
# LUKS_TYPE_DELAY seconds, as a person would take), wait for UNTIL
# and then for the machine to stop (power off, or hibernate); the console
# goes to LOG.
luks_boot() {
	local log=$1 initrd=$2 append=$3 prompt=$4 until=$5 rc
	shift 5
	rm -f "$CASE_DIR"/serial.* "$CASE_DIR"/monitor.*
	QEMU_TIMEOUT=${LUKS_BOOT_TIMEOUT:-240} rescue_start "$initrd" "$append" "$@"
	{
		expect "$prompt" 120 &&
		sleep "${LUKS_TYPE_DELAY:-0}" &&
		type_line "$LUKS_PW" &&
		expect "$until" 180
	}
	rc=$?
	rescue_stop $rc
	[ "$log" = "$CASE_DIR/console.log" ] || mv "$CASE_DIR/console.log" "$log"
	[ $rc -eq 0 ] && assert_not_log "$log" "$LUKS_PW"
}

# Resume from a swap inside a LUKS container: boot 1 opens the container
# (rd.luks.uuid=, passphrase typed), its swap is resume= by /dev/mapper
# name, and hib-init hibernates into it; boot 2 opens it again, finds the
# image by the swap's own UUID and restores it, before any filesystem is
# mounted. The root is on a second virtio disk. The passphrase of boot 2
# comes after the resume device's wait (rd.resume.timeout, 5 s) would
# have ended: the wait must not give up while the prompt is open.
case_stacks_resume_luks_swap() {
	local root=$CASE_DIR/root.img swap token name=luks-$UUID_LUKS_SWAP log
	stacks_setup || return 1
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" || return 1
	swap=$(stack_copy luksswap)
	log=$CASE_DIR/boot1.log
	luks_boot "$log" "$IMG_STACKS" \
		"root=UUID=$UUID_HIBROOT rw resume=/dev/mapper/$name rd.luks.uuid=$UUID_LUKS_SWAP rd.timeout=90 lbtest.hibernate=1 lbtest.swap=/dev/mapper/$name lbtest.token=$token" \
		"UUID=$UUID_LUKS_SWAP; opens as /dev/mapper/$name" "HIB-TEST: HIBERNATING 1 $token" \
		$(virtio_disk "$root") $(virtio_disk "$swap") || return 1
	assert_log "$log" "resume: /dev/dm-0 at page 0: swap without a hibernation image" &&
	assert_log "$log" "PM: hibernation: Image saving done\|PM: Image saving done" &&
	assert_not_log "$log" "HIB-TEST: RESUMED" || return 1
	log=$CASE_DIR/boot2.log
	LUKS_TYPE_DELAY=7 luks_boot "$log" "$IMG_STACKS" \
		"root=UUID=$UUID_HIBROOT resume=UUID=$UUID_LUKS_SWAP_INNER rd.luks.uuid=$UUID_LUKS_SWAP rd.timeout=90" \
		"UUID=$UUID_LUKS_SWAP; opens as /dev/mapper/$name" "LIFEBOAT-TEST: end" \
		$(virtio_disk "$root") $(virtio_disk "$swap") || return 1
	assert_log "$log" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_log "$log" "resume: /dev/dm-0 at page 0: kernel hibernation image" &&
	assert_log "$log" "resume: no block filesystem is mounted; safe to resume from /dev/dm-0" &&
	assert_log "$log" "resume: restoring the hibernation image on /dev/dm-0" &&
	assert_not_log "$log" "EXT4-fs (vd[a-z]*): mounted" &&
	assert_root_intact "$root" "before-hibernate $token|after-resume $token 1|"
}

# LUKS on LVM: the container is a logical volume; the root inside it.
case_stacks_luks_on_lvm() {
	local disk
	stacks_setup || return 1
	disk=$(stack_copy lukslvm)
	luks_boot "$CASE_DIR/console.log" "$IMG_STACKS" \
		"root=UUID=$UUID_LVM_LUKS_FS rd.lvm.vg=lbovg rd.luks.uuid=$UUID_LVM_LUKS rd.timeout=90" \
		"/dev/dm-0 is encrypted \(LUKS UUID=$UUID_LVM_LUKS; opens as /dev/mapper/luks-$UUID_LVM_LUKS" \
		'^LIFEBOAT-TEST: end' $(virtio_disk "$disk") || return 1
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-1 ext4'
}

# LVM on md RAID1 with both members: the array assembles from its members'
# uevents, the volume group on it is activated from the array's.
case_stacks_lvm_on_md() {
	local a b log=$CASE_DIR/console.log
	stacks_setup || return 1
	a=$(stack_copy mdlvm-a)
	b=$(stack_copy mdlvm-b)
	boot_qemu "$log" "$KERNEL" "$IMG_STACKS" "root=/dev/mapper/lbmvg-root rd.md.uuid=$UUID_MD_LVM rd.timeout=60" \
		$(virtio_disk "$a") $(virtio_disk "$b")
	assert_root_reached "$log" && assert_timeline "$log" &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$log" 'md/raid1:md[0-9]*: active with 2 out of 2 mirrors' &&
	assert_not_log "$log" 'started degraded'
}

# rd.luks=0, rd.lvm=0, rd.md=0 leave a LUKS container, a volume group and
# an array alone (said for each), so the root on the volume group is not
# found; then lists that name other containers and arrays leave those
# alone, while rd.lvm.vg= activates the root's group.
case_stacks_turned_off() {
	local lvm md luks log=$CASE_DIR/console.log disks
	stacks_setup || return 1
	lvm=$(stack_copy lvm)
	md=$(stack_copy md-a)
	luks=$(stack_copy luks)
	disks="$(virtio_disk "$lvm") $(virtio_disk "$md") $(virtio_disk "$luks")"
	boot_qemu "$log" "$KERNEL" "$IMG_STACKS" \
		"root=/dev/mapper/lbvg-root rd.luks=0 rd.lvm=0 rd.md=0 rd.timeout=8 rd.shell=0" $disks
	assert_log "$log" "(LUKS UUID=$UUID_LUKS) stays locked: rd.luks=0" &&
	assert_log "$log" 'is an LVM physical volume; rd.lvm=0 leaves its volume group inactive' &&
	assert_log "$log" "the md array UUID=$UUID_MD, which is not assembled: rd.md=0" &&
	assert_not_log "$log" 'Passphrase' &&
	assert_not_log "$log" 'md/raid1' &&
	assert_not_log "$log" 'LIFEBOAT-TEST: root reached' || return 1
	log=$CASE_DIR/console2.log
	boot_qemu "$log" "$KERNEL" "$IMG_STACKS" \
		"root=/dev/mapper/lbvg-root rd.luks.uuid=$UUID_GONE rd.md.uuid=$UUID_GONE rd.lvm.vg=lbvg rd.timeout=60" $disks
	assert_root_reached "$log" &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$log" "(LUKS UUID=$UUID_LUKS) stays locked: rd.luks.uuid=" &&
	assert_log "$log" "the md array UUID=$UUID_MD, which is not assembled: rd.md.uuid=" &&
	assert_not_log "$log" 'Passphrase' &&
	assert_not_log "$log" 'md/raid1'
}

# The generic --block-stacks image with the 9p modules: it boots the root
# that runs the host-only generator (the host's /usr comes over 9p).
stacks_9p_image() {
	"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
		--add-modules 9p,9pnet_virtio -o "$1" >/dev/null 2>&1 ||
		{ echo "building the --block-stacks image with 9p failed"; return 1; }
}

# stacks_boot LOG INITRD APPEND PROMPT UNTIL QEMU_ARGS...: luks_boot, or
# without a PROMPT a plain boot.
stacks_boot() {
	local log=$1 initrd=$2 append=$3 prompt=$4 until=$5
	shift 5
	if [ -n "$prompt" ]; then
		luks_boot "$log" "$initrd" "$append" "$prompt" "$until" "$@"
	else
		QEMU_TIMEOUT=${LUKS_BOOT_TIMEOUT:-$QEMU_TIMEOUT} boot_qemu "$log" "$KERNEL" "$initrd" "$append" "$@"
	fi
}

# hostonly_generate ROOT PROMPT QEMU_ARGS...: boot the stacked root ROOT
# (root=) whose init runs "lifeboat build --host-only" with the host's
# /usr over 9p; the image is $CASE_DIR/share/hostonly.img.
hostonly_generate() {
	local root=$1 prompt=$2 share=$CASE_DIR/share img9p=$CASE_DIR/stacks-9p.img
	shift 2
	stacks_9p_image "$img9p" || return 1
	mkdir -p "$share" && cp "$BUILD/lifeboat" "$BUILD/lifeboat-init" "$BUILD/lifeboat-shutdown" "$share/" || return 1
	LUKS_BOOT_TIMEOUT=400 stacks_boot "$CASE_DIR/generate.log" "$img9p" \
		"root=$root rd.driver.pre=9pnet_virtio,9p rd.timeout=90 lbtest.hostgen=1" \
		"$prompt" '^LIFEBOAT-TEST: end' "$@" \
		-virtfs "local,path=/usr,mount_tag=hostusr,security_model=none,readonly=on" \
		-virtfs "local,path=$share,mount_tag=share,security_model=none" || return 1
	assert_log "$CASE_DIR/generate.log" '^HOSTGEN: exit 0' && [ -s "$share/hostonly.img" ] ||
		{ echo "the host-only generator in the guest failed (generate.log)"; return 1; }
}

# hostonly_assert_tools WANTED UNWANTED: the host-only image has the tools
# of its root's stack (a space-separated list of /usr/sbin names) and not
# the others, and is under half the generic --block-stacks image.
hostonly_assert_tools() {
	local img=$CASE_DIR/share/hostonly.img ls=$CASE_DIR/hostonly.ls t
	"$BUILD/lifeboat" ls "$img" > "$ls" || { echo "lifeboat ls $img failed"; return 1; }
	for t in $1; do
		grep -q "usr/sbin/$t\$" "$ls" || { echo "the host-only image lacks $t (hostonly.ls)"; return 1; }
	done
	for t in $2; do
		! grep -q "usr/sbin/$t\$" "$ls" ||
			{ echo "the host-only image has $t, which its root's stack does not use"; return 1; }
	done
	# The stack is taken down at shutdown (docs/shutdown.md).
	grep -q "usr/lib/lifeboat/lifeboat-shutdown.xz\$" "$ls" ||
		{ echo "the host-only image of a stacked root lacks the way out (hostonly.ls)"; return 1; }
	echo "host-only $(stat -c %s "$img") generic-block-stacks $(stat -c %s "$IMG_STACKS")" > "$CASE_DIR/sizes"
	[ "$(stat -c %s "$img")" -lt $(($(stat -c %s "$IMG_STACKS") / 2)) ] ||
		{ echo "the host-only image is not under half the generic one: $(cat "$CASE_DIR/sizes")"; return 1; }
}

# image_file IMAGE PATH: the content of PATH (no leading /) in an image,
# past an uncompressed early archive (microcode) if there is one.
image_file() {
	python3 - "$1" "$2" <<'PY'
import gzip, subprocess, sys
data = open(sys.argv[1], 'rb').read()

def unpack(buf):
    # lz4's legacy format (the default), read by the lz4 tool; else gzip.
    if buf[:4] == b'\x02\x21\x4c\x18':
        return subprocess.run(['lz4', '-dc'], input=buf, capture_output=True, check=True).stdout
    return gzip.decompress(buf)

def entries(buf):
    pos = 0
    while buf[pos:pos + 6] == b'070701':
        size, namesize = int(buf[pos + 54:pos + 62], 16), int(buf[pos + 94:pos + 102], 16)
        name = buf[pos + 110:pos + 110 + namesize - 1].decode()
        start = (pos + 110 + namesize + 3) & ~3
        yield name, buf[start:start + size]
        pos = (start + size + 3) & ~3
        if name == 'TRAILER!!!':
            break
    while pos < len(buf) and buf[pos] == 0:
        pos += 1
    yield None, pos

main = data
if data[:6] == b'070701':
    for name, rest in entries(data):
        if name is None:
            main = data[rest:]
for name, content in entries(unpack(main)):
    if name == sys.argv[2]:
        sys.stdout.buffer.write(content)
        sys.exit(0)
sys.exit(1)
PY
}

# stack_cmdline IMAGE WANT: the image's built-in stack parameters are WANT.
stack_cmdline() {
	local have
	have=$(image_file "$1" etc/cmdline.d/30-stacks.conf)
	[ "$have" = "$2" ] || { echo "the image's 30-stacks.conf is '$have', expected '$2'"; return 1; }
}

# host_conf FILE LINE...: the guest's /etc/FILE for the host-only
# generator (hostgen-init binds it over the root's).
host_conf() {
	local file=$CASE_DIR/share/etc/$1
	shift
	mkdir -p "$(dirname "$file")" && printf '%s\n' "$@" > "$file"
}

# The guest's crypttab: its containers', and one this machine does not have.
host_crypttab() {
	host_conf crypttab "# <target name> <source device> <key file> <options>" \
		"hostcrypt UUID=$UUID_HOST_LUKS none luks,discard" \
		"cswap UUID=$UUID_LUKS_SWAP none luks,swap" \
		"gonecrypt UUID=$UUID_GONE none luks"
}

# A host-only image for a root on LVM on LUKS, made where such a root is:
# in a guest booted from that stack (the build host's root is on none),
# which has the container in its crypttab and opened it under that name.
# The image has exactly that stack's tools (cryptsetup and lvm, no mdadm)
# and the container's crypttab line as the host wrote it (not the others),
# and boots the same disk with only root= given: the container opens under
# the crypttab name.
case_stacks_hostonly_lvm_on_luks() {
	local disk img=$CASE_DIR/share/hostonly.img
	stacks_setup || return 1
	disk=$(stack_copy hostonly)
	host_crypttab || return 1
	hostonly_generate "/dev/mapper/lbhvg-root rd.luks.name=$UUID_HOST_LUKS=hostcrypt" \
		"UUID=$UUID_HOST_LUKS; opens as /dev/mapper/hostcrypt" $(virtio_disk "$disk") &&
	hostonly_assert_tools "cryptsetup lvm" "mdadm" || return 1
	image_file "$img" etc/crypttab > "$CASE_DIR/crypttab"
	grep -qx "hostcrypt UUID=$UUID_HOST_LUKS none luks,discard" "$CASE_DIR/crypttab" &&
	! grep -q "gonecrypt\|cswap" "$CASE_DIR/crypttab" ||
		{ echo "the image's /etc/crypttab is not the root container's line alone (crypttab)"; return 1; }
	luks_boot "$CASE_DIR/console.log" "$img" "root=/dev/mapper/lbhvg-root rd.timeout=90" \
		"UUID=$UUID_HOST_LUKS; opens as /dev/mapper/hostcrypt" '^LIFEBOAT-TEST: end' \
		$(virtio_disk "$disk") || return 1
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-1 ext4' &&
	assert_log "$CASE_DIR/console.log" 'dm dm-0 hostcrypt ro=0 discard=[1-9]'
}

# The same for a root on LVM on md RAID1 listed in the guest's mdadm.conf,
# whose swap (the resume device) is in a LUKS container: the image has
# mdadm and lvm for the root and cryptsetup for the swap, the host's ARRAY
# line for the root's array (not the other lines), the swap container's
# crypttab line and resume= naming the swap. Booted with only root= (and
# the root's hib-init), it asks for the swap's passphrase in the resume
# decision (no image there yet), boots and hibernates into the swap; booted
# again, it opens the swap, restores the image before any filesystem is
# mounted, and the resumed system finds its root as it left it.
case_stacks_hostonly_lvm_on_md() {
	local a b swap img=$CASE_DIR/share/hostonly.img token log disks
	local prompt="UUID=$UUID_LUKS_SWAP; opens as /dev/mapper/cswap"
	local boot="root=/dev/mapper/lbdvg-root init=/usr/sbin/hib-init rd.timeout=90"
	stacks_setup || return 1
	a=$(stack_copy mdhost-a)
	b=$(stack_copy mdhost-b)
	swap=$(stack_copy luksswap)
	disks="$(virtio_disk "$a") $(virtio_disk "$b") $(virtio_disk "$swap")"
	host_crypttab && host_conf mdadm/mdadm.conf "MAILADDR root" \
		"ARRAY /dev/md/lbhost metadata=1.2 UUID=$(md_uuid "$UUID_MDHOST") name=lbhost" \
		"ARRAY /dev/md/gone metadata=1.2 UUID=$(md_uuid "$UUID_GONE")" || return 1
	hostonly_generate "/dev/mapper/lbdvg-root rd.luks.name=$UUID_LUKS_SWAP=cswap resume=/dev/mapper/cswap lbtest.swap=/dev/mapper/cswap" \
		"$prompt" $disks &&
	assert_log "$CASE_DIR/generate.log" "HOSTGEN: swap on /dev/mapper/cswap" &&
	hostonly_assert_tools "mdadm lvm cryptsetup" "" &&
	stack_cmdline "$img" "rd.luks.uuid=$UUID_LUKS_SWAP rd.md.uuid=$UUID_MDHOST rd.lvm.vg=lbdvg" || return 1
	image_file "$img" etc/mdadm/mdadm.conf > "$CASE_DIR/mdadm.conf"
	grep -qx "ARRAY /dev/md/lbhost metadata=1.2 UUID=$(md_uuid "$UUID_MDHOST") name=lbhost" "$CASE_DIR/mdadm.conf" &&
	! grep -q "MAILADDR\|$(md_uuid "$UUID_GONE")" "$CASE_DIR/mdadm.conf" ||
		{ echo "the image's mdadm.conf is not the root array's ARRAY line alone (mdadm.conf)"; return 1; }
	image_file "$img" etc/crypttab > "$CASE_DIR/crypttab"
	grep -qx "cswap UUID=$UUID_LUKS_SWAP none luks,swap" "$CASE_DIR/crypttab" &&
	! grep -q "gonecrypt\|hostcrypt" "$CASE_DIR/crypttab" ||
		{ echo "the image's /etc/crypttab is not the swap container's line alone (crypttab)"; return 1; }
	image_file "$img" etc/cmdline.d/40-resume.conf | grep -q "^resume=UUID=$UUID_LUKS_SWAP_INNER\$" ||
		{ echo "the image's resume= does not name the swap inside the container"; return 1; }
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	log=$CASE_DIR/boot1.log
	luks_boot "$log" "$img" "$boot rw lbtest.hibernate=1 lbtest.swap=/dev/mapper/cswap lbtest.token=$token" \
		"$prompt" "HIB-TEST: HIBERNATING 1 $token" $disks || return 1
	assert_log "$log" '^LIFEBOAT-TEST: root reached' &&
	assert_log "$log" 'resume: /dev/dm-[0-9]* at page 0: swap without a hibernation image' &&
	assert_log "$log" 'md/raid1:md[0-9]*: active with 2 out of 2 mirrors' &&
	assert_log "$log" "PM: hibernation: Image saving done\|PM: Image saving done" || return 1
	log=$CASE_DIR/boot2.log
	luks_boot "$log" "$img" "$boot" "$prompt" '^LIFEBOAT-TEST: end' $disks || return 1
	assert_log "$log" "resume: /dev/dm-[0-9]* at page 0: kernel hibernation image" &&
	assert_log "$log" "resume: no block filesystem is mounted; safe to resume from /dev/dm-[0-9]*" &&
	assert_not_log "$log" "EXT4-fs (dm-[0-9]*): mounted" &&
	assert_log "$log" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_log "$log" "HIB-TEST: state before-hibernate $token" &&
	assert_log "$log" "HIB-TEST: state after-resume $token 1"
}

# A host-only image of a root on md RAID1 (LVM on it) made with both
# members present boots with one of them gone: the array starts degraded
# once the devices settle.
case_stacks_hostonly_md_degraded() {
	local a b log=$CASE_DIR/console.log
	stacks_setup || return 1
	a=$(stack_copy mdhost-a)
	b=$(stack_copy mdhost-b)
	hostonly_generate "/dev/mapper/lbdvg-root" "" $(virtio_disk "$a") $(virtio_disk "$b") &&
	hostonly_assert_tools "mdadm lvm" "cryptsetup" &&
	stack_cmdline "$CASE_DIR/share/hostonly.img" "rd.md.uuid=$UUID_MDHOST rd.lvm.vg=lbdvg" || return 1
	boot_qemu "$log" "$KERNEL" "$CASE_DIR/share/hostonly.img" "root=/dev/mapper/lbdvg-root rd.timeout=60" \
		$(virtio_disk "$b")
	assert_root_reached "$log" &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$log" 'started degraded' &&
	assert_log "$log" 'md/raid1:md[0-9]*: active with 1 out of 2 mirrors'
}

# A host-only image of a root directly on LUKS, the container in the
# guest's crypttab: the image has cryptsetup alone and that line, and opens
# the container under its crypttab name with only root= (by UUID). Another
# LUKS disk attached is not the host's: no passphrase is asked for it.
case_stacks_hostonly_luks() {
	local disk other img=$CASE_DIR/share/hostonly.img prompt="UUID=$UUID_HLUKS; opens as /dev/mapper/hlroot"
	stacks_setup || return 1
	disk=$(stack_copy hostluks)
	other=$(stack_copy luks)
	host_conf crypttab "hlroot UUID=$UUID_HLUKS none luks,discard" "gonecrypt UUID=$UUID_GONE none luks" &&
	hostonly_generate "/dev/mapper/hlroot rd.luks.name=$UUID_HLUKS=hlroot" "$prompt" $(virtio_disk "$disk") &&
	hostonly_assert_tools "cryptsetup" "lvm mdadm" &&
	stack_cmdline "$img" "rd.luks.uuid=$UUID_HLUKS" || return 1
	image_file "$img" etc/crypttab > "$CASE_DIR/crypttab"
	[ "$(cat "$CASE_DIR/crypttab")" = "hlroot UUID=$UUID_HLUKS none luks,discard" ] ||
		{ echo "the image's /etc/crypttab is not the root container's line alone (crypttab)"; return 1; }
	luks_boot "$CASE_DIR/console.log" "$img" "root=UUID=$UUID_HLUKS_FS rd.timeout=90" \
		"$prompt" '^LIFEBOAT-TEST: end' $(virtio_disk "$other") $(virtio_disk "$disk") || return 1
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" 'dm dm-0 hlroot ro=0 discard=[1-9]' &&
	assert_log "$CASE_DIR/console.log" "(LUKS UUID=$UUID_LUKS) stays locked: rd.luks.uuid=" &&
	assert_not_log "$CASE_DIR/console.log" "UUID=$UUID_LUKS; opens as"
}

# A host-only image of a root on LUKS on LVM (the container is a logical
# volume): cryptsetup and lvm, no mdadm, no crypttab (the mapping has
# cryptsetup's default name); the volume group activates, then the
# container on it asks for its passphrase. Another volume group attached
# is not the host's: it stays inactive.
case_stacks_hostonly_luks_on_lvm() {
	local disk other img=$CASE_DIR/share/hostonly.img
	local prompt="UUID=$UUID_HLVLUKS; opens as /dev/mapper/luks-$UUID_HLVLUKS"
	stacks_setup || return 1
	disk=$(stack_copy hostlukslvm)
	other=$(stack_copy lvm)
	hostonly_generate "UUID=$UUID_HLVLUKS_FS rd.lvm.vg=lbhovg rd.luks.uuid=$UUID_HLVLUKS" "$prompt" \
		$(virtio_disk "$disk") &&
	hostonly_assert_tools "cryptsetup lvm" "mdadm" &&
	stack_cmdline "$img" "rd.luks.uuid=$UUID_HLVLUKS rd.lvm.vg=lbhovg" || return 1
	! image_file "$img" etc/crypttab >/dev/null ||
		{ echo "the image has an /etc/crypttab, but the container has its default name"; return 1; }
	luks_boot "$CASE_DIR/console.log" "$img" "root=UUID=$UUID_HLVLUKS_FS rd.timeout=90" \
		"/dev/dm-[0-9]* is encrypted \(LUKS $prompt" '^LIFEBOAT-TEST: end' \
		$(virtio_disk "$other") $(virtio_disk "$disk") || return 1
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "dm dm-[0-9]* luks-$UUID_HLVLUKS " &&
	assert_log "$CASE_DIR/console.log" 'dm dm-[0-9]* lbhovg-crypt ' &&
	assert_not_log "$CASE_DIR/console.log" 'dm dm-[0-9]* lbvg-root'
}
