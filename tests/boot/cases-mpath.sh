# cases-mpath.sh: a root on a multipath LUN (sourced by run.sh): one ext4
# disk image seen through two virtio-scsi controllers, the same serial= and
# wwn= on both paths, as a SAN LUN reached by two HBAs. qemu's VPD page 0x83
# then carries the NAA designator of wwn=, whose WWID multipath-tools
# spells "3" + hex.

MPATH_WWN=5000c500a1b2c3d4
MPATH_WWID=3$MPATH_WWN

# mpath_image: a generic image with --multipath, made once per run.
mpath_image() {
	cached_image mpath --generic --multipath
}

# The bound of a lone path's hold in the host-like image (its
# multipath.conf's find_multipaths_timeout), shorter than the boot's 5 s
# quiet period so that the bound, not the quiet, is what releases it.
MPATH_HOLD_S=2
# The WWN of a LUN with one path, which the host-like image's wwids does
# not list.
MPATH_WWN_LONE=5000c500a1b2c3d5

# mpath_host_image: a generic --multipath image with what a multipath host
# gives a host-only one: /etc/multipath/wwids listing the two-path LUN and
# an /etc/multipath.conf; made once per run.
mpath_host_image() {
	local dir=$WORK/mpath-host
	mkdir -p "$dir"
	printf '# Multipath wwids, Version : 1.0\n/%s/\n' "$MPATH_WWID" > "$dir/wwids"
	printf 'defaults {\n\tfind_multipaths yes\n\tfind_multipaths_timeout %s\n\tuser_friendly_names no\n}\n' \
		"$MPATH_HOLD_S" > "$dir/multipath.conf"
	cached_image mpath-host --generic --multipath --add-files "$dir/wwids:/etc/multipath/wwids" \
		--add-files "$dir/multipath.conf:/etc/multipath.conf"
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

# mpath_pull_path LOG SOCKET PATTERN DEVICE: once qemu's monitor listens,
# wait until PATTERN shows in the console log, then device_del DEVICE.
mpath_pull_path() {
	qemu_monitor "$2" -w "$1" "$3" "device_del $4"
}

# A partitioned LUN (the GPT test disk, the root in partition 2) through
# two paths with rd.multipath=default: the first path is held until the
# second shows the same WWID; multipath makes the map and kpartx maps its
# partitions as WWID-part1 and WWID-part2 (Debian's names); the paths' own
# partitions (sda2, sdb2 show the same PARTUUID) are never taken: the root
# mounts on the partition map. A path is pulled out (virtio-scsi hot
# unplug: the guest's sd device is removed) as soon as the init says the
# map is made, while the boot goes on to mount the root; the root's init
# waits until one path is left, then writes a block, syncs it and reads it
# back with O_DIRECT: the map failed over to the path left, before or
# after switch_root. The root's init then hands the machine back to the
# way out, which removes the partition maps, then the multipath map (told
# fail_if_no_path first), then powers off.
case_mpath_path_lost() {
	local mon=$CASE_DIR/mon.sock log=$CASE_DIR/console.log
	mpath_pull_path "$log" "$mon" "is a path of dm-" p0 &
	MPATH_DISK=gpt.img mpath_boot "root=PARTUUID=$PARTUUID_GPT rw rd.multipath=default \
lifeboat.test.pathloss=1 lifeboat.test.show=/sys/block/dm-0/dm/uuid lifeboat.test.handback=poweroff" \
		-monitor "unix:$mon,server=on,wait=off"
	wait $!
	mpath_assert_root_on_map &&
	assert_timeline "$log" &&
	assert_log "$log" "timeline [0-9.]* mpath-path sd[a-z] $MPATH_WWID" &&
	assert_log "$log" "timeline [0-9.]* mpath-map dm-[0-9]* $MPATH_WWID" &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4 rw" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_WWID-part2 " &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss 1 paths left" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss io ok" &&
	assert_not_log "$log" "EXT4-fs error" &&
	assert_log_order "$log" "lifeboat-shutdown: removed the device-mapper device $MPATH_WWID-part2" \
		"lifeboat-shutdown: removed the multipath map $MPATH_WWID " &&
	assert_log_order "$log" "lifeboat-shutdown: removed the multipath map $MPATH_WWID " "reboot: Power down" &&
	assert_not_log "$log" "telling the multipath map"
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

# mpath_assert_hold LOG DEV WWID MAX: the lone path DEV was released at most
# MAX seconds after it was offered (the timeline's mpath-path and
# mpath-release marks, the guest's clock).
mpath_assert_hold() {
	local log=$1 dev=$2 wwid=$3 max=$4 t0 t1
	t0=$(sed -n "s/^LIFEBOAT-TEST: timeline \([0-9.]*\) mpath-path $dev $wwid.*/\1/p" "$log" | head -n 1)
	t1=$(sed -n "s/^LIFEBOAT-TEST: timeline \([0-9.]*\) mpath-release $dev $wwid.*/\1/p" "$log" | head -n 1)
	[ -n "$t0" ] && [ -n "$t1" ] || { echo "the timeline lacks the path's mpath-path or mpath-release"; return 1; }
	awk -v a="$t0" -v b="$t1" -v m="$max" 'BEGIN { exit !(b - a <= m) }' ||
		{ echo "the lone path was held $t0 -> $t1, more than $max s"; return 1; }
}

# rd.multipath=default and a LUN with one path only (one scsi-hd, a WWN
# the image's wwids does not list): the disk is held for a second path
# until the bound of the image's multipath.conf (find_multipaths_timeout
# $MPATH_HOLD_S, shorter than the 5 s quiet period that released it before
# there was a bound), then released as a plain disk, and the root mounts
# on it.
case_mpath_single_path() {
	local log=$CASE_DIR/console.log img disk
	img=$(mpath_host_image) || return 1
	disk=$(disk_copy ext4.img)
	boot_qemu "$log" "$KERNEL" "$img" "root=UUID=$UUID_EXT4 rd.multipath=default" \
		-device virtio-scsi-pci,id=scsi0 -drive "file=$disk,format=raw,if=none,id=d0" \
		-device "scsi-hd,bus=scsi0.0,drive=d0,id=p0,serial=LBMP02,wwn=0x$MPATH_WWN_LONE" &&
	assert_root_reached "$log" &&
	assert_log "$log" "multipath: /dev/sda (WWID 3$MPATH_WWN_LONE) showed one path: used as a plain disk (held [0-9]* ms of at most ${MPATH_HOLD_S}000)" &&
	mpath_assert_hold "$log" sda "3$MPATH_WWN_LONE" "$MPATH_HOLD_S.8" &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/sda ext4" &&
	assert_not_log "$log" "LIFEBOAT-TEST: dm dm-"
}

# LUKS on the LUN (the LUKS test disk of tests/boot/cases-stacks.sh through
# two paths): the container is opened on the map, and the path the map uses
# is pulled out while the passphrase prompt waits; the passphrase typed
# then opens it through the path left, and the root's init writes and
# reads back through it.
case_mpath_luks_path_lost() {
	local img disk rc log=$CASE_DIR/console.log
	stacks_disks || return 1
	img=$(cached_image mpath-stacks --generic --multipath --block-stacks) || return 1
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

# LVM on the LUN (the LVM test disk of tests/boot/cases-stacks.sh, volume
# group lbvg, through two paths): the volume group is activated on the map,
# never on a path (the same PV shows on both paths and on the map); a path
# is pulled out as soon as the map is made, and the root's init writes and
# reads back through the path left. The way out deactivates the volume
# group before it removes the map.
case_mpath_lvm_path_lost() {
	local img disk mon=$CASE_DIR/mon.sock log=$CASE_DIR/console.log
	stacks_disks || return 1
	img=$(cached_image mpath-stacks --generic --multipath --block-stacks) || return 1
	disk=$(stack_copy lvm)
	mpath_pull_path "$log" "$mon" "is a path of dm-" p0 &
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$img" "root=UUID=$UUID_LVM_FS rw rd.multipath=default rd.timeout=60 \
lifeboat.test.pathloss=1 lifeboat.test.handback=poweroff" $(mpath_disk_args "$disk") \
		-monitor "unix:$mon,server=on,wait=off"
	wait $!
	assert_root_reached "$log" &&
	assert_log "$log" "multipath: /dev/sd[a-z] is a path of dm-0 (WWID $MPATH_WWID)" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-0 $MPATH_WWID " &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-1 lbvg-root " &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-1 ext4 rw" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss 1 paths left" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss io ok" &&
	assert_not_log "$log" "EXT4-fs error" &&
	assert_log_order "$log" "lifeboat-shutdown: deactivated the LVM volume" \
		"lifeboat-shutdown: removed the multipath map $MPATH_WWID " &&
	assert_log_order "$log" "lifeboat-shutdown: removed the multipath map $MPATH_WWID " "reboot: Power down"
}

# The strict claim of a host-only image: an image whose
# /etc/multipath/wwids lists the LUN (as the host's would; added here with
# --add-files, with a multipath.conf) and no rd.multipath= word. The first
# path is claimed at once (multipath makes the map of one path), and the
# second joins it when it comes (multipath runs again and reloads the map
# with it).
case_mpath_wwids() {
	local img log=$CASE_DIR/console.log disk
	img=$(mpath_host_image) || return 1
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

# The second portal of the iSCSI multipath case: a second address of the
# namespace's bridge, where tgtd listens too (one target, so one LUN and
# one VPD page 0x83 through both).
MPATH_PORTAL2=198.51.100.2
# tgt's NAA designator for target 1's LUN 1 (the same through each portal).
MPATH_ISCSI_WWID=360000000000000000e00000000010001

# mpath_wait_then LOG PATTERN COMMAND...: once PATTERN shows in the console
# log (polled every 100 ms, at most 120 s), run COMMAND.
mpath_wait_then() {
	local log=$1 pattern=$2 i
	shift 2
	for i in $(seq 1 1200); do
		grep -q -- "$pattern" "$log" 2>/dev/null && { "$@"; return; }
		sleep 0.1
	done
	echo "mpath_wait_then: '$pattern' never showed in $log"
	return 1
}

# Multipath over iSCSI: tgtd serves the root LUN on two portals of one
# subnet (198.51.100.1 and .2, as two ports of one storage controller),
# and two netroot=iscsi: words make the init log in to both (a third, a
# port nothing listens on, is said once and left); multipath
# groups the two disks and the root mounts on the map. Once the root's
# init runs, the first portal's address leaves the bridge (the path's
# link is gone: the session's nop-outs, every second by rd.iscsi.param=,
# go unanswered; without them only a SCSI command's 30 s timeout would
# tell, as iscsistart sets none); the root's init waits
# until one path is left running, writes a block and reads it back past
# the cache through the other portal. The way out removes the map, then
# logs out of the sessions.
case_mpath_iscsi_two_portals() {
	local rc=0 log=$CASE_DIR/two-portals.log
	NET_IMG=$(cached_image mpath-iscsi --generic --iscsi --multipath) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	# The first address leaving must not take the second with it.
	ip netns exec "$NET_NS" sysctl -qw net.ipv4.conf.br0.promote_secondaries=1 &&
	ip -n "$NET_NS" addr add "$MPATH_PORTAL2/24" dev br0 &&
	iscsi_target_start &&
	iscsi_adm --op new --mode portal --param "portal=$MPATH_PORTAL2:3260" || rc=1
	if [ $rc -eq 0 ]; then
		mpath_wait_then "$log" "^LIFEBOAT-TEST: root reached" \
			ip -n "$NET_NS" addr del "$NET_SERVER/24" dev br0 &
		net_boot two-portals "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:root \
netroot=iscsi:$MPATH_PORTAL2::::$ISCSI_IQN:root netroot=iscsi:$NET_SERVER::3261::$ISCSI_IQN:root \
root=UUID=$UUID_EXT4 rw \
ip=$NET_GUEST:::255.255.255.0::eth0:none rd.multipath=default rd.shell=0 \
rd.iscsi.param=node.conn[0].timeo.noop_out_interval=1 rd.iscsi.param=node.conn[0].timeo.noop_out_timeout=2 \
lifeboat.test.pathloss=1 lifeboat.test.handback=poweroff"
		wait $! || rc=1
	fi
	cp "$NET_LOG" "$CASE_DIR/console.log" 2>/dev/null
	log=$CASE_DIR/console.log
	[ $rc -eq 0 ] &&
	assert_root_reached "$log" &&
	assert_log "$log" "timeline [0-9.]* iscsi $ISCSI_IQN:root $NET_SERVER:3260" &&
	assert_log "$log" "timeline [0-9.]* iscsi $ISCSI_IQN:root $MPATH_PORTAL2:3260" &&
	[ "$(grep -c "iSCSI: logging in to the iSCSI target $ISCSI_IQN:root at $NET_SERVER:3261 .*; the root goes on through the 2 other portals logged in to" "$log")" -eq 1 ] &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4 rw" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_ISCSI_WWID " &&
	[ "$(grep -c "multipath: /dev/sd[a-z] is a path of dm-0 (WWID $MPATH_ISCSI_WWID)" "$log")" -ge 1 ] &&
	assert_not_log "$log" "LIFEBOAT-TEST: rootmount /dev/sd" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss 1 paths left" &&
	assert_log "$log" "LIFEBOAT-TEST: pathloss io ok" &&
	assert_not_log "$log" "EXT4-fs error" &&
	assert_log_order "$log" "lifeboat-shutdown: removed the multipath map $MPATH_ISCSI_WWID " \
		"lifeboat-shutdown: logged out of the iSCSI target $ISCSI_IQN:root at $MPATH_PORTAL2" || rc=1
	iscsi_down
	return $rc
}

# The filesystem UUID of the multipath host's root (mpath_hostgen_disk).
UUID_MPATH_HOST=6d1b3c52-8a4e-4f0b-9c7d-2e5f6a7b8c9d

# mpath_hostgen_disk FILE: an ext4 root as an installed Debian multipath
# host has it: hostgen-init's tree (tests/boot/cases-stacks.sh), with an
# /etc/multipath.conf and an /etc/multipath/wwids listing the LUN.
mpath_hostgen_disk() {
	local tree=$CASE_DIR/hostroot
	stacks_host_tree "$tree" && mkdir -p "$tree/etc/multipath" &&
	printf '# Multipath wwids, Version : 1.0\n/%s/\n' "$MPATH_WWID" > "$tree/etc/multipath/wwids" &&
	printf 'defaults {\n\tfind_multipaths yes\n\tuser_friendly_names no\n}\n' > "$tree/etc/multipath.conf" &&
	mkfs_image ext4 "$1" 64 "$tree" lbmphost "$UUID_MPATH_HOST"
}

# A host-only image made ON a multipath root: the generic --multipath image
# (with 9p) boots the host's root through two paths with
# rd.multipath=default, so the root is the mpath- map, and hostgen-init runs
# "lifeboat build --host-only" there. The image has multipath, kpartx and
# the host's multipath.conf and wwids (which alone turn multipath on: no
# stack word, no rd.multipath=), and not the other stacks' tools; it then
# boots the same two paths with root=UUID= only, and the root mounts on the
# map, both paths in it.
case_mpath_hostonly() {
	local disk=$CASE_DIR/mphost.img share=$CASE_DIR/share img=$CASE_DIR/share/hostonly.img log=$CASE_DIR/console.log
	local IMG_STACKS img9p f
	img9p=$(cached_image mpath-9p --generic --multipath --add-modules 9p,9pnet_virtio) || return 1
	# hostonly_assert_tools' half-size bound, against the generic image
	# that boots a multipath root.
	IMG_STACKS=$img9p
	mpath_hostgen_disk "$disk" || { echo "making the multipath host's root failed"; return 1; }
	mkdir -p "$share" && cp "$BUILD/lifeboat" "$BUILD/lifeboat-init" "$BUILD/lifeboat-shutdown" "$share/" || return 1
	# shellcheck disable=SC2046
	QEMU_TIMEOUT=300 boot_qemu "$CASE_DIR/generate.log" "$KERNEL" "$img9p" \
		"root=UUID=$UUID_MPATH_HOST rd.multipath=default rd.driver.pre=9pnet_virtio,9p lbtest.hostgen=1" \
		$(mpath_disk_args "$disk") \
		-virtfs "local,path=/usr,mount_tag=hostusr,security_model=none,readonly=on" \
		-virtfs "local,path=$share,mount_tag=share,security_model=none" || return 1
	assert_log "$CASE_DIR/generate.log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_WWID " &&
	assert_log "$CASE_DIR/generate.log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4" || return 1
	assert_log "$CASE_DIR/generate.log" '^HOSTGEN: exit 0' && [ -s "$img" ] ||
		{ echo "the host-only generator in the guest failed (generate.log)"; return 1; }
	hostonly_assert_tools "multipath kpartx" "cryptsetup lvm mdadm" || return 1
	image_file "$img" etc/multipath/wwids | grep -qx "/$MPATH_WWID/" ||
		{ echo "the image's wwids does not list $MPATH_WWID"; return 1; }
	image_file "$img" etc/multipath.conf | cmp -s - "$CASE_DIR/hostroot/etc/multipath.conf" ||
		{ echo "the image's multipath.conf is not the host's"; return 1; }
	# The wwids alone turn it on: no built-in rd.multipath= (hostonly.ls is
	# hostonly_assert_tools' listing).
	for f in $(awk '$NF ~ /^etc\/cmdline\.d\// { print $NF }' "$CASE_DIR/hostonly.ls"); do
		! image_file "$img" "$f" | grep -q "rd\.multipath" ||
			{ echo "the image's built-in $f sets rd.multipath="; return 1; }
	done
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$img" "root=UUID=$UUID_MPATH_HOST" $(mpath_disk_args "$disk") &&
	assert_root_reached "$log" &&
	assert_log "$log" "LIFEBOAT-TEST: rootmount /dev/dm-[0-9]* ext4" &&
	assert_log "$log" "LIFEBOAT-TEST: dm dm-[0-9]* $MPATH_WWID " &&
	assert_log "$log" "multipath: paths are grouped (the WWIDs of /etc/multipath/wwids)" &&
	assert_not_log "$log" "LIFEBOAT-TEST: rootmount /dev/sd" || return 1
	if [ "$(grep -c "is a path of dm-0 (WWID $MPATH_WWID)" "$log")" -ne 2 ]; then
		echo "not both paths joined the map"
		return 1
	fi
}
