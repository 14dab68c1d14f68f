# cases-shutdown.sh: the way out at shutdown (sourced by run.sh). The test
# root's init (test-init with lifeboat.test.handback=poweroff) hands the
# machine back to /run/initramfs/shutdown as systemd-shutdown does
# (tests/boot/guest-handback.h); the way out takes the root's stack down
# and powers off. Uses the stacked disks of cases-stacks.sh.

MD_SUPER=$TOP/tests/boot/md-super.py

# assert_before LOG FIRST SECOND: both lines are in LOG, FIRST earlier.
assert_before() {
	local log=$1 a b
	a=$(grep -n -- "$2" "$log" | head -n 1 | cut -d: -f1)
	b=$(grep -n -- "$3" "$log" | head -n 1 | cut -d: -f1)
	[ -n "$a" ] || { echo "log lacks: $2"; return 1; }
	[ -n "$b" ] || { echo "log lacks: $3"; return 1; }
	[ "$a" -lt "$b" ] || { echo "'$2' (line $a) is not before '$3' (line $b)"; return 1; }
}

# The way out ran to its end and powered off, with nothing left behind.
assert_way_out() {
	local log=$1
	assert_log "$log" '^LIFEBOAT-TEST: handback poweroff' &&
	assert_log "$log" 'lifeboat: the way out (poweroff): taking the root' &&
	assert_log "$log" "lifeboat: the root's stack is down" &&
	assert_before "$log" "lifeboat: the root's stack is down" 'lifeboat: the way out is done; poweroff' &&
	assert_log "$log" 'reboot: Power down' &&
	assert_not_log "$log" 'will not unmount' &&
	assert_not_log "$log" 'left; going on'
}

# The array was stopped by the way out: the kernel's "md: mdN stopped"
# (printed by STOP_ARRAY, never by the reboot notifier) comes after the
# way out unmounted the old root from it and before it says so.
md_stopped_by_way_out() {
	local log=$1
	assert_before "$log" 'lifeboat: the way out (poweroff): taking' \
		'lifeboat: unmounted the old root /oldroot (ext4 on /dev/md' &&
	assert_before "$log" 'lifeboat: unmounted the old root /oldroot (ext4 on /dev/md' \
		'md: md[0-9]* stopped' &&
	assert_before "$log" 'md: md[0-9]* stopped' 'lifeboat: stopped the md array md' &&
	assert_before "$log" 'lifeboat: stopped the md array md' "lifeboat: the root's stack is down"
}

# Root on md RAID1: the way out stops the array; both members' superblocks
# say it is in sync (resync_offset all ones: md-super.py shows "all"), and
# the next boot finds the last write and starts no resync. Measured: after
# a power-off without the way out the superblocks are clean too (the
# kernel's md reboot notifier stops writes and marks them clean), so the
# array's stop is asserted on the console ("md: md0 stopped").
case_shutdown_md_raid1() {
	local a b d off
	stacks_setup || return 1
	a=$(stack_copy md-a) && b=$(stack_copy md-b)
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" \
		"root=UUID=$UUID_MD_FS rd.md.uuid=$UUID_MD rw rd.timeout=60 lifeboat.test.handback=poweroff" \
		$(virtio_disk "$a") $(virtio_disk "$b")
	assert_root_reached "$CASE_DIR/console.log" && assert_way_out "$CASE_DIR/console.log" &&
	md_stopped_by_way_out "$CASE_DIR/console.log" || return 1
	for d in "$a" "$b"; do
		off=$("$MD_SUPER" show "$d" | sed -n 's/.*resync_offset=\([0-9a-z]*\).*/\1/p')
		[ "$off" = all ] ||
			{ echo "$(basename "$d"): the superblock is not clean after the way out (resync_offset=$off)"; return 1; }
	done
	boot_qemu "$CASE_DIR/console2.log" "$KERNEL" "$IMG_STACKS" \
		"root=UUID=$UUID_MD_FS rd.md.uuid=$UUID_MD rd.timeout=60" $(virtio_disk "$a") $(virtio_disk "$b")
	assert_root_reached "$CASE_DIR/console2.log" &&
	assert_log "$CASE_DIR/console2.log" '^LIFEBOAT-TEST: lastwrite written before the way out' &&
	assert_log "$CASE_DIR/console2.log" '^LIFEBOAT-TEST: mdstat md' &&
	assert_not_log "$CASE_DIR/console2.log" 'resync' &&
	assert_not_log "$CASE_DIR/console2.log" 'not clean' || return 1
	# The control: this boot's init powered off without handing back, and
	# the same check must fail on its log (the kernel's reboot notifier
	# marks the array clean but never stops it).
	if md_stopped_by_way_out "$CASE_DIR/console2.log" >/dev/null; then
		echo "control: the md check passes on a power-off without the way out"
		return 1
	fi
}

# Root on LVM on LUKS: the volume is deactivated, then the container is
# closed (its key wiped), before the power-off.
case_shutdown_lvm_on_luks() {
	local disk log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy lvmluks)
	luks_boot "$log" "$IMG_STACKS" \
		"root=/dev/mapper/lbcvg-root rd.luks.name=$UUID_LUKS_LVM=lbcrypt rd.lvm.vg=lbcvg rw rd.timeout=90 lifeboat.test.handback=poweroff" \
		"UUID=$UUID_LUKS_LVM; opens as /dev/mapper/lbcrypt" 'reboot: Power down' \
		$(virtio_disk "$disk") || return 1
	assert_root_reached "$log" && assert_way_out "$log" &&
	assert_before "$log" 'lifeboat: deactivated the LVM volume lbcvg-root' \
		'lifeboat: closed the LUKS container lbcrypt' &&
	assert_before "$log" 'lifeboat: closed the LUKS container lbcrypt' 'reboot: Power down'
}

# NFS root (NFSv4, a static address, rw): the way out unmounts it while the
# network is still up (its own line says so, and that it took no force:
# no MNT_FORCE, no "server not responding"); the last write is on the
# server.
case_shutdown_nfs_root() {
	local rc=0
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start || rc=1
	if [ $rc -eq 0 ]; then
		net_boot handback "root=nfs4:$NET_SERVER:/nfsroot ip=198.51.100.21::$NET_SERVER:255.255.255.0:guest:eth0:none rw lifeboat.test.handback=poweroff"
		assert_root_reached "$NET_LOG" && assert_way_out "$NET_LOG" &&
		assert_before "$NET_LOG" 'lifeboat: the way out (poweroff): taking' \
			"lifeboat: unmounted the old root /oldroot (nfs4 on $NET_SERVER:/nfsroot)" &&
		assert_before "$NET_LOG" "lifeboat: unmounted the old root /oldroot (nfs4 on" \
			"lifeboat: the root's stack is down" &&
		assert_not_log "$NET_LOG" 'by force' && assert_not_log "$NET_LOG" 'not responding' || rc=1
	fi
	if [ $rc -eq 0 ]; then
		grep -q 'written before the way out' "$CASE_DIR/nfsroot/last-write" ||
			{ echo "the last write is not on the server ($CASE_DIR/nfsroot/last-write)"; rc=1; }
	fi
	net_ns_down
	return $rc
}
