# debian-root.sh: a real Debian 12 root with systemd for the boot cases
# (sourced by cases-debian.sh; the cases of issues 29, 30 and 38 share it).
#
# mmdebstrap makes the root from Debian's archive (minbase, systemd-sysv,
# udev, kmod, e2fsprogs, and the stack tools lvm2, cryptsetup-bin, mdadm)
# as a tarball, once per package list: build/debian-root/KEY.tar, KEY
# the hash of what goes in. From it, once per tarball and this file, an
# ext4 image of the root made without mounting (mke2fs -d): a fixed
# machine-id, multi-user.target as the default, no getty, and the test's
# report unit (debroot_units). A case copies the image and writes its own
# /etc/fstab into the copy with debugfs (debroot_fstab). Measured here:
# mmdebstrap 2 min 14 s (238 MB unpacked), the image 10 s.

DEBROOT_SUITE=bookworm
DEBROOT_MIRROR=http://deb.debian.org/debian
DEBROOT_PACKAGES=systemd-sysv,udev,kmod,e2fsprogs,lvm2,cryptsetup-bin,mdadm
# The root filesystem's UUID and label (every image of it has them).
DEBROOT_UUID=1b2c3d4e-00d1-4a5b-8c6d-7e8f9a0b1c2d
DEBROOT_LABEL=lbdebian
DEBROOT_SIZE_MB=512
DEBROOT_MACHINE_ID=1b2c3d4e00d14a5b8c6d7e8f9a0b1c2d
DEBROOT_DIR=$BUILD/debian-root
# What the report prints begins with this (debroot_report_script).
DEBROOT_MARK=LIFEBOAT-DEB

# debroot_key: the tarball's key, from what mmdebstrap is given.
debroot_key() {
	echo "$DEBROOT_SUITE $DEBROOT_MIRROR minbase $DEBROOT_PACKAGES" | sha256sum | cut -c1-16
}

# debroot_tarball: DEBROOT_TAR, made unless there; parallel cases wait on
# a lock. Tarballs of other keys (an older package list) are removed.
debroot_tarball() {
	local key
	key=$(debroot_key)
	DEBROOT_TAR=$DEBROOT_DIR/$key.tar
	mkdir -p "$DEBROOT_DIR"
	(
		flock 9
		[ -s "$DEBROOT_TAR" ] && exit 0
		find "$DEBROOT_DIR" -mindepth 1 -maxdepth 1 -name '*.tar' ! -name "$key.tar" -delete
		mmdebstrap --variant=minbase --mode=root --format=tar --include="$DEBROOT_PACKAGES" \
			"$DEBROOT_SUITE" "$DEBROOT_TAR.tmp" "$DEBROOT_MIRROR" >"$DEBROOT_DIR/mmdebstrap.log" 2>&1 ||
			{ echo "mmdebstrap of Debian $DEBROOT_SUITE failed (see $DEBROOT_DIR/mmdebstrap.log)"; exit 1; }
		mv "$DEBROOT_TAR.tmp" "$DEBROOT_TAR"
	) 9>"$DEBROOT_DIR/lock"
}

# The report: once systemd says the boot is over, what a case asserts on,
# one line each, then the power-off. Type=simple, so that its own start
# is not a job the boot waits for (is-system-running --wait would wait
# for itself).
debroot_report_script() {
	cat <<-EOF
	#!/bin/sh
	# lifeboat test: how the boot went, on the console.
	m=$DEBROOT_MARK
	echo "\$m: state \$(systemctl is-system-running --wait)"
	failed=\$(systemctl --failed --no-legend --plain | awk '{ print \$1 }' | tr '\n' ' ')
	echo "\$m: failed \${failed:-none}"
	echo "\$m: fsck-root \$(systemctl show -p ConditionResult,ActiveState,ExecMainStartTimestampMonotonic systemd-fsck-root.service | tr '\n' ' ')"
	echo "\$m: multi-user at \$(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target) us"
	echo "\$m: swaps \$(awk 'NR > 1 { print \$1 }' /proc/swaps | tr '\n' ' ')"
	for d in /sys/class/block/dm-* /sys/class/block/md*; do
		[ -e "\$d" ] || continue
		echo "\$m: udev \${d##*/} \$(udevadm info -q property -p "\$d" | grep -E '^(DM_NAME|SYSTEMD_READY|ID_FS_UUID)=' | tr '\n' ' ')"
	done
	awk '\$1 !~ /^#/ && \$2 ~ /^\\// { print \$2 }' /etc/fstab | while read -r dir; do
		echo "\$m: mount \$dir \$(findmnt -n -o SOURCE,FSTYPE "\$dir" || echo none)"
	done
	echo "\$m: end"
	systemctl --no-block poweroff
	EOF
}

# debroot_units DIR: the tree's systemd setup for the test.
debroot_units() {
	local dir=$1 etc=$1/etc/systemd/system
	mkdir -p "$etc/multi-user.target.wants" "$dir/usr/local/sbin"
	debroot_report_script > "$dir/usr/local/sbin/lifeboat-report"
	chmod 0755 "$dir/usr/local/sbin/lifeboat-report"
	cat > "$etc/lifeboat-report.service" <<-'EOF'
	[Unit]
	Description=lifeboat test: report the boot on the console, then power off
	After=multi-user.target

	[Service]
	Type=simple
	ExecStart=/usr/local/sbin/lifeboat-report
	StandardOutput=tty
	TTYPath=/dev/console

	[Install]
	WantedBy=multi-user.target
	EOF
	ln -sf ../lifeboat-report.service "$etc/multi-user.target.wants/lifeboat-report.service"
	ln -sf /lib/systemd/system/multi-user.target "$etc/default.target"
	# Nobody logs in: no login prompt on the console among the report.
	ln -sf /dev/null "$etc/serial-getty@ttyS0.service"
	ln -sf /dev/null "$etc/getty@tty1.service"
}

# debroot_tree DIR: the tarball unpacked into DIR (made anew) and set up.
debroot_tree() {
	local dir=$1
	rm -rf "$dir" && mkdir -p "$dir" &&
	tar -xf "$DEBROOT_TAR" -C "$dir" --numeric-owner --xattrs --xattrs-include='*' ||
		{ echo "unpacking $DEBROOT_TAR failed"; return 1; }
	echo "$DEBROOT_MACHINE_ID" > "$dir/etc/machine-id" &&
	echo lifeboat-debian > "$dir/etc/hostname" &&
	printf '# written per case (debroot_fstab)\n' > "$dir/etc/fstab" &&
	debroot_units "$dir"
}

# debroot_image: DEBROOT_IMG, the root's ext4 image, made once per
# tarball and per this file (its setup); parallel cases wait on a lock.
debroot_image() {
	local key dir
	debroot_tarball || return 1
	key=$( (basename "$DEBROOT_TAR"; cat "$TOP/tests/boot/debian-root.sh") | sha256sum | cut -c1-16)
	DEBROOT_IMG=$DEBROOT_DIR/root-$key.img
	(
		flock 9
		[ -s "$DEBROOT_IMG" ] && exit 0
		rm -f "$DEBROOT_DIR"/root-*.img
		dir=$DEBROOT_DIR/tree
		debroot_tree "$dir" &&
		mkfs_image ext4 "$DEBROOT_IMG.tmp" "$DEBROOT_SIZE_MB" "$dir" "$DEBROOT_LABEL" "$DEBROOT_UUID" ||
			{ echo "making the Debian root's image failed"; rm -rf "$dir"; exit 1; }
		rm -rf "$dir"
		mv "$DEBROOT_IMG.tmp" "$DEBROOT_IMG"
	) 9>"$DEBROOT_DIR/image.lock"
}

# debroot_write IMAGE PATH LINE...: the file PATH of IMAGE holds the lines given.
debroot_write() {
	local img=$1 path=$2 tmp=$CASE_DIR/debroot-file
	shift 2
	printf '%s\n' "$@" > "$tmp"
	debugfs -w -R "rm $path" "$img" >/dev/null 2>&1
	debugfs -w -R "write $tmp $path" "$img" >/dev/null 2>&1 &&
	debugfs -R "cat $path" "$img" 2>/dev/null | cmp -s - "$tmp" ||
		{ echo "writing $path into $img failed"; return 1; }
}

# debroot_fstab IMAGE LINE...: IMAGE's /etc/fstab is the lines given.
debroot_fstab() {
	local img=$1
	shift
	debroot_write "$img" /etc/fstab "# <file system> <mount point> <type> <options> <dump> <pass>" "$@"
}

# debroot_copy FILE: the case's own copy of the root's image.
debroot_copy() {
	debroot_image || return 1
	cp --sparse=always "$DEBROOT_IMG" "$1"
}

# debroot_boot LOG INITRD APPEND QEMU_ARGS...: boot the Debian root with
# room for it (1 GiB) and time for it under TCG.
debroot_boot() {
	local log=$1 initrd=$2 append=$3
	shift 3
	QEMU_TIMEOUT=${DEBROOT_TIMEOUT:-420} boot_qemu "$log" "$KERNEL" "$initrd" "$append" -m 1024 "$@"
}

# debroot_value LOG WHAT: the rest of the report's line "WHAT ...".
debroot_value() {
	grep -a "$DEBROOT_MARK: $2 " "$1" | tail -n 1 | sed "s/.*$DEBROOT_MARK: $2 //" | tr -d '\r'
}

# debroot_assert_clean LOG: the root's systemd reached multi-user with no
# failed unit, and the report ran to its end.
debroot_assert_clean() {
	local log=$1 state failed
	assert_log "$log" "$DEBROOT_MARK: end" || { echo "the Debian root's report did not finish"; return 1; }
	state=$(debroot_value "$log" state)
	failed=$(debroot_value "$log" failed)
	[ "$state" = running ] && [ "$failed" = none ] ||
		{ echo "systemd says '$state', failed units: $failed"; return 1; }
	assert_not_log "$log" 'Dependency failed'
}
