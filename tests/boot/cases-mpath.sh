# cases-mpath.sh: a root on a multipath LUN (sourced by run.sh): one ext4
# disk image seen through two virtio-scsi controllers, the same serial= and
# wwn= on both paths, as a SAN LUN reached by two HBAs. qemu's VPD page 0x83
# then carries the NAA designator of wwn=, whose WWID multipath-tools
# spells "3" + hex.

MPATH_WWN=5000c500a1b2c3d4
MPATH_WWID=3$MPATH_WWN

# mpath_image: a generic image with --multipath, made once per run.
mpath_image() {
	local img=$WORK/mpath.img
	(
		flock 9
		[ -s "$img" ] && [ "$img" -nt "$BUILD/lifeboat-init" ] && [ "$img" -nt "$BUILD/lifeboat" ] ||
			"$BUILD/lifeboat" build --config /dev/null --generic --multipath \
			--kver "$KVER" -o "$img" >"$img.log" 2>&1
	) 9>"$img.lock" || { echo "building the --multipath image failed: $img.log"; return 1; }
	echo "$img"
}

# mpath_disk_args DISK: the disk through two controllers, paths p0 and p1;
# share-rw=on on both lets the two devices write the one file.
mpath_disk_args() {
	local disk=$1 i
	for i in 0 1; do
		printf -- '-device virtio-scsi-pci,id=scsi%s ' "$i"
		printf -- '-drive file=%s,format=raw,if=none,id=d%s ' "$disk" "$i"
		printf -- '-device scsi-hd,bus=scsi%s.0,drive=d%s,id=p%s,serial=LBMP01,wwn=0x%s,share-rw=on ' \
			"$i" "$i" "$i" "$MPATH_WWN"
	done
}

# mpath_boot APPEND [QEMU-ARGS...]: boot the --multipath image from the
# two-path disk (a copy of the ext4 test disk, or of $MPATH_DISK).
mpath_boot() {
	local append=$1 img disk
	shift
	img=$(mpath_image) || return 1
	disk=$(disk_copy "${MPATH_DISK:-ext4.img}")
	# shellcheck disable=SC2046
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$img" "$append" $(mpath_disk_args "$disk") "$@"
}

# The root is the map (dm uuid mpath-WWID, named by its WWID), never a path.
mpath_assert_root_on_map() {
	local log=$CASE_DIR/console.log
	assert_root_reached "$log" &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_WWID " &&
	assert_log "$log" "LIFEBOAT-TEST: show mpath-$MPATH_WWID" &&
	assert_log "$log" "multipath: /dev/sd[a-z] is a path of dm-[0-9]* (WWID $MPATH_WWID)" &&
	assert_not_log "$log" "LIFEBOAT-TEST: rootmount /dev/sd"
}

# rd.multipath=default: the first path is held until the second shows the
# same WWID; the root mounts on the map.
case_mpath_root() {
	mpath_boot "root=UUID=$UUID_EXT4 rw rd.multipath=default lifeboat.test.show=/sys/block/dm-0/dm/uuid" &&
	mpath_assert_root_on_map &&
	assert_timeline "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* mpath-path sd[a-z] $MPATH_WWID" &&
	assert_log "$CASE_DIR/console.log" "timeline [0-9.]* mpath-map dm-[0-9]* $MPATH_WWID"
}

# mpath_pull_path LOG SOCKET PATTERN DEVICE: once qemu's monitor listens,
# wait (polling the console log every 20 ms) until PATTERN shows, then
# device_del DEVICE at once.
mpath_pull_path() {
	python3 - "$@" <<-'EOT'
	import re, socket, sys, time
	log, path, pattern, dev = sys.argv[1:5]
	s = socket.socket(socket.AF_UNIX)
	for _ in range(400):
	    try:
	        s.connect(path)
	        break
	    except OSError:
	        time.sleep(0.05)
	s.settimeout(10)
	def prompt():
	    seen = b""
	    while not seen.endswith(b"(qemu) "):
	        more = s.recv(4096)
	        if not more:
	            sys.exit("qemu's monitor closed")
	        seen += more
	prompt()
	end = time.time() + 120
	while time.time() < end:
	    try:
	        with open(log, errors="replace") as f:
	            if re.search(pattern, f.read()):
	                break
	    except OSError:
	        pass
	    time.sleep(0.02)
	s.sendall(("device_del " + dev + "\n").encode())
	prompt()
	EOT
}

# A path is pulled out (virtio-scsi hot unplug: the guest's sd device is
# removed) as soon as the init says the map is made, while the boot goes
# on to mount the root; the root's init waits until one path is left,
# then writes a block, syncs it and reads it back with O_DIRECT: the map
# failed over to the path left, before or after switch_root.
case_mpath_path_lost() {
	local mon=$CASE_DIR/mon.sock log=$CASE_DIR/console.log
	mpath_pull_path "$log" "$mon" "is a path of dm-" p0 &
	mpath_boot "root=UUID=$UUID_EXT4 rw rd.multipath=default lifeboat.test.pathloss=1 \
lifeboat.test.show=/sys/block/dm-0/dm/uuid" -monitor "unix:$mon,server=on,wait=off"
	wait $!
	mpath_assert_root_on_map &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4 rw" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss 1 paths left" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss io ok" &&
	assert_not_log "$log" "EXT4-fs error"
}

# rd.multipath=0: nothing is grouped; the root mounts on the first path
# and the init says the disks are one LUN's paths.
case_mpath_off() {
	mpath_boot "root=UUID=$UUID_EXT4 rd.multipath=0" &&
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "LIFEBOAT-TEST: rootmount /dev/sd[a-z] ext4" &&
	assert_log "$CASE_DIR/console.log" "are paths of one LUN (WWID $MPATH_WWID), but multipath is off" &&
	assert_not_log "$CASE_DIR/console.log" "LIFEBOAT-TEST: dm dm-"
}

# A partitioned LUN (the GPT test disk, the root in partition 2): kpartx
# maps the map's partitions as WWID-part1 and WWID-part2 (Debian's names);
# the paths' own partitions (sda2, sdb2 show the same PARTUUID) are never
# taken: the root mounts on the partition map. The root's init hands the
# machine back to the way out, which removes the partition maps, then the
# multipath map, then powers off.
case_mpath_partition() {
	local log=$CASE_DIR/console.log
	MPATH_DISK=gpt.img mpath_boot "root=PARTUUID=$PARTUUID_GPT rw rd.multipath=default \
lifeboat.test.handback=poweroff" &&
	assert_root_reached "$log" &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_WWID-part2 " &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_WWID " &&
	assert_not_log "$log" "LIFEBOAT-TEST: rootmount /dev/sd" &&
	assert_log_order "$log" "lifeboat-shutdown: removed the device-mapper device $MPATH_WWID-part2" \
		"lifeboat-shutdown: removed the multipath map $MPATH_WWID " &&
	assert_log_order "$log" "lifeboat-shutdown: removed the multipath map $MPATH_WWID " "reboot: Power down"
}

# rd.multipath=default and a LUN with one path only (wwn= on one scsi-hd):
# the disk is held for a second path until the devices settle, then
# released as a plain disk, and the root mounts on it.
case_mpath_single_path() {
	local log=$CASE_DIR/console.log img disk
	img=$(mpath_image) || return 1
	disk=$(disk_copy ext4.img)
	boot_qemu "$log" "$KERNEL" "$img" "root=UUID=$UUID_EXT4 rd.multipath=default" \
		-device virtio-scsi-pci,id=scsi0 -drive "file=$disk,format=raw,if=none,id=d0" \
		-device "scsi-hd,bus=scsi0.0,drive=d0,id=p0,serial=LBMP01,wwn=0x$MPATH_WWN" &&
	assert_root_reached "$log" &&
	assert_log "$log" "multipath: /dev/sda (WWID $MPATH_WWID) showed one path: used as a plain disk" &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/sda ext4" &&
	assert_not_log "$log" "LIFEBOAT-TEST: dm dm-"
}

# LUKS on the LUN (the LUKS test disk of tests/boot/cases-stacks.sh through
# two paths): the container is opened on the map, and the path the map uses
# is pulled out while the passphrase prompt waits; the passphrase typed
# then opens it through the path left, and the root's init writes and
# reads back through it.
case_mpath_luks_path_lost() {
	local img=$WORK/mpath-stacks.img disk rc log=$CASE_DIR/console.log
	stacks_disks || return 1
	(
		flock 9
		[ -s "$img" ] && [ "$img" -nt "$BUILD/lifeboat-init" ] && [ "$img" -nt "$BUILD/lifeboat" ] ||
			"$BUILD/lifeboat" build --config /dev/null --generic --multipath --block-stacks \
			--kver "$KVER" -o "$img" >"$img.log" 2>&1
	) 9>"$img.lock" || { echo "building the --multipath --block-stacks image failed: $img.log"; return 1; }
	disk=$(stack_copy luks)
	# shellcheck disable=SC2046
	QEMU_TIMEOUT=240 rescue_start "$img" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rw \
rd.multipath=default rd.timeout=90 lifeboat.test.pathloss=1" $(mpath_disk_args "$disk")
	{
		expect 'Passphrase \(try 1 of 3\)' 120 &&
		monitor "device_del p0" &&
		expect 'Failing path|sd 0:0:0:0: \[sd[a-z]\] Synchronizing SCSI cache' 30 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 180
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] &&
	assert_log "$log" "multipath: /dev/sd[a-z] is a path of dm-0 (WWID $MPATH_WWID)" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-0 $MPATH_WWID " &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-1 luks-$UUID_LUKS " &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-1 ext4 rw" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss 1 paths left" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss io ok" &&
	assert_not_log "$log" "LIFEBOAT-TEST: rootmount /dev/sd"
}

# The strict claim of a host-only image: an image whose
# /etc/multipath/wwids lists the LUN (as the host's would; added here with
# --add-files) and no rd.multipath= word. The first path is claimed at
# once (multipath makes the map of one path), and the second joins it when
# it comes (multipath runs again and reloads the map with it).
case_mpath_wwids() {
	local img=$CASE_DIR/mpath-wwids.img log=$CASE_DIR/console.log disk
	printf '# Multipath wwids, Version : 1.0\n/%s/\n' "$MPATH_WWID" > "$CASE_DIR/wwids"
	"$BUILD/lifeboat" build --config /dev/null --generic --multipath --kver "$KVER" \
		--add-files "$CASE_DIR/wwids:/etc/multipath/wwids" -o "$img" >"$img.log" 2>&1 ||
		{ echo "building the image failed: $img.log"; return 1; }
	disk=$(disk_copy ext4.img)
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$img" "root=UUID=$UUID_EXT4 lifeboat.test.show=/sys/block/dm-0/dm/uuid" \
		$(mpath_disk_args "$disk") &&
	mpath_assert_root_on_map &&
	assert_log "$log" "multipath: paths are grouped (the WWIDs of /etc/multipath/wwids)" || return 1
	if [ "$(grep -c "is a path of dm-0 (WWID $MPATH_WWID)" "$log")" -ne 2 ]; then
		echo "not both paths joined the map"
		return 1
	fi
}
