# cases-usr.sh: a /usr of its own (init/usrmount.c), sourced by run.sh.
# The roots are merged-/usr, as Debian 12 and 13 are: their /sbin is
# usr/sbin, so the real init is on /usr's filesystem and the boot goes
# nowhere unless the initramfs mounts it. The test roots are two small
# disks made per case (a second each); the Debian root is
# debian-root.sh's tarball split once per run into a root and a /usr.

source "$TOP/tests/boot/debian-root.sh"

USR_ROOT_UUID=3f1c2a9e-5b7d-4c1e-9a2b-0d6e8f4a1b46
USR_UUID=3f1c2a9e-5b7d-4c1e-9a2b-0d6e8f4a1b47
USR_LABEL=lbusr

# usr_disks FSTAB_LINE...: CASE_DIR/root.img, a merged-/usr test root with
# an empty /usr and the fstab lines given, and CASE_DIR/usr.img, its /usr
# with the test init as sbin/init.
usr_disks() {
	local root=$CASE_DIR/root-tree usr=$CASE_DIR/usr-tree
	rm -rf "$root" "$usr"
	mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/run" "$root/etc" "$root/usr" "$usr/sbin" &&
	ln -s usr/sbin "$root/sbin" &&
	install -m 0755 "$TEST_INIT" "$usr/sbin/init" &&
	printf '%s\n' "# <file system> <mount point> <type> <options> <dump> <pass>" "$@" > "$root/etc/fstab" &&
	mkfs_image ext4 "$CASE_DIR/root.img" 32 "$root" lbusrroot "$USR_ROOT_UUID" &&
	mkfs_image ext4 "$CASE_DIR/usr.img" 32 "$usr" "$USR_LABEL" "$USR_UUID" ||
		{ echo "making the disks failed"; return 1; }
}

usr_root_line="UUID=$USR_ROOT_UUID / ext4 defaults 0 1"

# fstab names /usr by its filesystem's UUID, with an option of systemd's
# the kernel would refuse: found on the second disk, checked (the stamp
# for the real root's systemd), mounted read-only as the root is, with
# fstab's noatime.
case_usr_fstab_uuid() {
	local log=$CASE_DIR/console.log
	usr_disks "$usr_root_line" "UUID=$USR_UUID /usr ext4 noatime,x-systemd.device-timeout=10s 0 2" ||
		return 1
	boot_qemu "$log" "$KERNEL" "$IMG_GENERIC" \
		"root=UUID=$USR_ROOT_UUID ro rd.timeout=60 lifeboat.test.show=/run/initramfs/fsck-usr" \
		$(disk_args virtio-blk "$CASE_DIR/root.img") -drive "file=$CASE_DIR/usr.img,format=raw,if=virtio"
	assert_root_reached "$log" &&
	assert_log "$log" "usrmount /dev/vdb ext4 ro,noatime" &&
	assert_log_order "$log" "timeline [0-9.]* mounted /dev/vda" "timeline [0-9.]* usr /dev/vdb ext4" &&
	assert_not_log "$log" "show missing /run/initramfs/fsck-usr"
}

# mount.usr= names /usr where fstab has no entry, with mount.usrfstype=
# and mount.usrflags=; the root is rw, so is /usr; rd.fsck=0 skips its
# check and leaves no stamp.
case_usr_cmdline() {
	local log=$CASE_DIR/console.log
	usr_disks "$usr_root_line" || return 1
	boot_qemu "$log" "$KERNEL" "$IMG_GENERIC" \
		"root=UUID=$USR_ROOT_UUID rw rd.timeout=60 mount.usr=LABEL=$USR_LABEL mount.usrfstype=ext4 mount.usrflags=nodev rd.fsck=0 lifeboat.test.show=/run/initramfs/fsck-usr" \
		$(disk_args virtio-blk "$CASE_DIR/root.img") -drive "file=$CASE_DIR/usr.img,format=raw,if=virtio"
	assert_root_reached "$log" &&
	assert_log "$log" "usrmount /dev/vdb ext4 rw,nodev" &&
	assert_log "$log" "show missing /run/initramfs/fsck-usr"
}

# /usr's disk is missing: the rescue says which device /usr is and where
# it was named; the disk hot-added, exit goes on with the root mounted
# already and mounts /usr.
case_usr_missing_hotadd() {
	local log=$CASE_DIR/console.log
	usr_disks "$usr_root_line" "UUID=$USR_UUID /usr ext4 defaults 0 2" || return 1
	rescue_start "$IMG_GENERIC" "root=UUID=$USR_ROOT_UUID ro rd.timeout=3" \
		$(disk_args virtio-blk "$CASE_DIR/root.img")
	{
		expect "$SHELL_PROMPT" 90 &&
		assert_log "$log" "boot failed: the /usr device UUID=$USR_UUID (from the real root's /etc/fstab) did not appear within rd.timeout" &&
		monitor "drive_add 0 file=$CASE_DIR/usr.img,format=raw,if=none,id=hot0" &&
		monitor "device_add virtio-blk-pci,drive=hot0,id=hotdisk" &&
		type_line 'while [ ! -b /dev/vdb ]; do sleep 0.2; done; echo HOT-$((40+2))' &&
		expect 'HOT-42' 40 &&
		type_line exit &&
		expect '^LIFEBOAT-TEST: end' 60
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_root_reached "$log" && assert_log "$log" "usrmount /dev/vdb ext4 ro"
}

DEBUSR_UUID=1b2c3d4e-00d8-4a5b-8c6d-7e8f9a0b1c2d
DEBUSR_ROOT_MB=256

# debusr_tree DIR: debian-root.sh's tree in DIR/root with its /usr moved
# to DIR/usr, and the report telling also what systemd made of /usr's
# check: the systemd-fsck@ unit fstab's /usr would have, and what
# usr.mount needs.
debusr_tree() {
	local dir=$1 report extra
	rm -rf "$dir" && mkdir -p "$dir" && debroot_tree "$dir/root" &&
	mv "$dir/root/usr" "$dir/usr" && mkdir "$dir/root/usr" || return 1
	report=$dir/usr/local/sbin/lifeboat-report
	tail -n 2 "$report" | grep -q ': end"$' || { echo "the report's end moved: $report"; return 1; }
	# shellcheck disable=SC2016
	extra='u=$(systemd-escape --template=systemd-fsck@.service -p /dev/disk/by-uuid/'"$DEBUSR_UUID"')
echo "$m: fsck-usr $(systemctl show -p LoadState,ActiveState,ExecMainStartTimestampMonotonic "$u" | tr "\n" " ")"
echo "$m: usr-needs $(systemctl show -P Requires usr.mount) $(systemctl show -P Wants usr.mount)"'
	{ head -n -2 "$report"; printf '%s\n' "$extra"; tail -n 2 "$report"; } > "$report.new" &&
	chmod 0755 "$report.new" && mv "$report.new" "$report"
}

# debusr_images: DEBUSR_ROOT and DEBUSR_USR, the two filesystems of the
# split Debian root, made once per tarball and per these files (as
# debroot_image is); parallel cases wait on a lock.
debusr_images() {
	local key dir
	debroot_tarball || return 1
	key=$( (basename "$DEBROOT_TAR"; cat "$TOP/tests/boot/debian-root.sh"; declare -f debusr_tree) |
		sha256sum | cut -c1-16)
	DEBUSR_ROOT=$DEBROOT_DIR/usr-split-$key-root.img
	DEBUSR_USR=$DEBROOT_DIR/usr-split-$key-usr.img
	(
		flock 9
		[ -s "$DEBUSR_USR" ] && exit 0
		rm -f "$DEBROOT_DIR"/usr-split-*.img
		dir=$DEBROOT_DIR/usr-split-tree
		debusr_tree "$dir" &&
		mkfs_image ext4 "$DEBUSR_ROOT" "$DEBUSR_ROOT_MB" "$dir/root" "$DEBROOT_LABEL" "$DEBROOT_UUID" &&
		mkfs_image ext4 "$DEBUSR_USR.tmp" "$DEBROOT_SIZE_MB" "$dir/usr" lbdebusr "$DEBUSR_UUID" ||
			{ echo "making the split Debian root's images failed"; rm -rf "$dir"; exit 1; }
		rm -rf "$dir"
		mv "$DEBUSR_USR.tmp" "$DEBUSR_USR"
	) 9>"$DEBROOT_DIR/usr-split.lock"
}

# Debian 12 with /usr on its own filesystem, as the installer offers it:
# lifeboat mounts /usr (the real init is there) and checks it, so the
# real root's systemd reaches multi-user with no failed unit, has /usr
# from the second disk, and its fstab-generator (Debian's, reading
# /run/initramfs/fsck-usr) gives usr.mount no systemd-fsck@: that unit
# never starts.
case_debian_systemd_usr() {
	local log=$CASE_DIR/console.log root=$CASE_DIR/root.img usr=$CASE_DIR/usr.img fsck
	debusr_images && cp --sparse=always "$DEBUSR_ROOT" "$root" && cp --sparse=always "$DEBUSR_USR" "$usr" &&
	debroot_fstab "$root" "UUID=$DEBROOT_UUID / ext4 errors=remount-ro 0 1" \
		"UUID=$DEBUSR_UUID /usr ext4 defaults 0 2" || return 1
	debroot_boot "$log" "$IMG_GENERIC" "root=UUID=$DEBROOT_UUID ro rd.timeout=60" \
		$(disk_args virtio-blk "$root") -drive "file=$usr,format=raw,if=virtio"
	debroot_assert_clean "$log" &&
	assert_log "$log" "$DEBROOT_MARK: mount /usr /dev/vdb ext4" || return 1
	fsck=$(debroot_value "$log" fsck-usr)
	case " $fsck " in
	*" ActiveState=inactive "*) ;;
	*) echo "systemd-fsck@ of /usr ran: $fsck"; return 1 ;;
	esac
	case " $fsck " in
	*" ExecMainStartTimestampMonotonic=0 "*) ;;
	*) echo "systemd-fsck@ of /usr started: $fsck"; return 1 ;;
	esac
	assert_not_log "$log" "$DEBROOT_MARK: usr-needs .*systemd-fsck"
}
