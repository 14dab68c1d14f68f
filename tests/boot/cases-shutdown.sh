# cases-shutdown.sh: the way out at shutdown (sourced by run.sh). The test
# root's init (test-init with lifeboat.test.handback=poweroff) hands the
# machine back to /run/initramfs/shutdown as systemd-shutdown does
# (tests/boot/guest-handback.h); the way out takes the root's stack down
# and powers off. Uses the stacked disks of cases-stacks.sh, the NFS server
# of cases-net.sh and the iSCSI target of cases-iscsi.sh. One case,
# shutdown_systemd_md, boots Debian's real systemd instead.

MD_SUPER=$TOP/tests/boot/md-super.py
source "$TOP/tests/boot/systemd-root.sh"
# What tgtd (tgt 1.0.85 at its debug level) logs when it queues a Logout
# Request: its iscsi_task_queue() line ends with the PDU's opcode, 46 (0x06
# with the immediate bit); SCSI commands are 1 or 41, NOP-Outs 0 or 40.
TGTD_LOGOUT_LINE='iscsi_task_queue([0-9]*) [0-9a-f]* [0-9a-f]* 46$'

# assert_before LOG FIRST SECOND: both lines are in LOG, FIRST earlier.
assert_before() {
	local log=$1 a b
	a=$(grep -n -- "$2" "$log" | head -n 1 | cut -d: -f1)
	b=$(grep -n -- "$3" "$log" | head -n 1 | cut -d: -f1)
	[ -n "$a" ] || { echo "log lacks: $2"; return 1; }
	[ -n "$b" ] || { echo "log lacks: $3"; return 1; }
	[ "$a" -lt "$b" ] || { echo "'$2' (line $a) is not before '$3' (line $b)"; return 1; }
}

# The test init handed back, and the way out ran to its end.
assert_way_out() {
	assert_log "$1" '^LIFEBOAT-TEST: handback poweroff' && assert_way_out_ran "$1"
}

# The way out ran to its end and powered off, with nothing left behind.
assert_way_out_ran() {
	local log=$1
	assert_log "$log" 'lifeboat-shutdown: the way out (poweroff): taking the root' &&
	assert_log "$log" "lifeboat-shutdown: the root's stack is down" &&
	assert_before "$log" "lifeboat-shutdown: the root's stack is down" 'lifeboat-shutdown: the way out is done, all clean; poweroff' &&
	assert_log "$log" 'reboot: Power down' &&
	assert_not_log "$log" 'will not unmount' &&
	assert_not_log "$log" 'left; going on'
}

# The array was stopped by the way out: the kernel's "md: mdN stopped"
# (printed by STOP_ARRAY, never by the reboot notifier) comes after the
# way out unmounted the old root from it and before it says so.
md_stopped_by_way_out() {
	local log=$1
	assert_before "$log" 'lifeboat-shutdown: the way out (poweroff): taking' \
		'lifeboat-shutdown: unmounted the old root /oldroot (ext4 on /dev/md' &&
	assert_before "$log" 'lifeboat-shutdown: unmounted the old root /oldroot (ext4 on /dev/md' \
		'md: md[0-9]* stopped' &&
	assert_before "$log" 'md: md[0-9]* stopped' 'lifeboat-shutdown: stopped the md array md' &&
	assert_before "$log" 'lifeboat-shutdown: stopped the md array md' "lifeboat-shutdown: the root's stack is down"
}

# md_members_clean MEMBER...: each member's superblock says the array is
# in sync (resync_offset all ones: md-super.py shows "all").
md_members_clean() {
	local d off
	for d in "$@"; do
		off=$("$MD_SUPER" show "$d" | sed -n 's/.*resync_offset=\([0-9a-z]*\).*/\1/p')
		[ "$off" = all ] ||
			{ echo "$(basename "$d"): the superblock is not clean after the way out (resync_offset=$off)"; return 1; }
	done
}

# Root on md RAID1: the way out stops the array; both members' superblocks
# say it is in sync (resync_offset all ones: md-super.py shows "all"), and
# the next boot finds the last write and starts no resync. Measured: after
# a power-off without the way out the superblocks are clean too (the
# kernel's md reboot notifier stops writes and marks them clean), so the
# array's stop is asserted on the console ("md: md0 stopped").
case_shutdown_md_raid1() {
	local a b
	stacks_setup || return 1
	a=$(stack_copy md-a) && b=$(stack_copy md-b)
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" \
		"root=UUID=$UUID_MD_FS rd.md.uuid=$UUID_MD rw rd.timeout=60 lifeboat.test.handback=poweroff" \
		$(virtio_disk "$a") $(virtio_disk "$b")
	assert_root_reached "$CASE_DIR/console.log" && assert_way_out "$CASE_DIR/console.log" &&
	md_stopped_by_way_out "$CASE_DIR/console.log" && md_members_clean "$a" "$b" || return 1
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

# Debian's real systemd as the root's init, on the md RAID1 root (the
# root is made from the build host's systemd by tests/boot/systemd-root.sh):
# systemd boots its default target, whose service writes a marker on the
# root and runs `systemctl poweroff`; systemd-shutdown finds
# /run/initramfs/shutdown and returns to it ("Returning to initrd..."),
# and the way out unmounts the old root from the array and stops the
# array (the kernel's "md: md0 stopped") before the power-off. After qemu
# ends, both members hold the marker and say the array is in sync.
# `debug` makes systemd log at debug level, which it hands on as
# --log-level=7: the way out's debug lines then name the mounts systemd
# left under /oldroot (its cgroup2 at /oldroot/sys/fs/cgroup among them,
# which no test init makes), each unmounted before the old root.
case_shutdown_systemd_md() {
	local a b m log=$CASE_DIR/console.log
	stacks_setup || return 1
	a=$(stack_copy md-a) && b=$(stack_copy md-b)
	sdroot_tree "$CASE_DIR/sdroot" && sdroot_on_md "$a" "$b" "$CASE_DIR/sdroot" || return 1
	rm -rf "$CASE_DIR/sdroot"
	QEMU_TIMEOUT=240 boot_qemu "$log" "$KERNEL" "$IMG_STACKS" \
		"root=UUID=$UUID_MD_FS rd.md.uuid=$UUID_MD rw rd.timeout=60 init=/lib/systemd/systemd systemd.log_target=console debug" \
		$(virtio_disk "$a") $(virtio_disk "$b")
	assert_log "$log" 'systemd [0-9][0-9]*.* running in system mode' &&
	assert_before "$log" '^LIFEBOAT-TEST: systemd marker written' 'Returning to initrd' &&
	assert_before "$log" 'Returning to initrd' 'lifeboat-shutdown: the way out (poweroff): taking the root' &&
	assert_before "$log" 'lifeboat-shutdown: the way out (poweroff): taking the root' \
		'lifeboat-shutdown: unmounted /oldroot/sys/fs/cgroup (cgroup2 on cgroup2)' &&
	assert_before "$log" 'lifeboat-shutdown: unmounted /oldroot/sys/fs/cgroup (cgroup2' \
		'lifeboat-shutdown: unmounted the old root /oldroot (ext4 on /dev/md' &&
	assert_way_out_ran "$log" && md_stopped_by_way_out "$log" &&
	assert_before "$log" 'lifeboat-shutdown: the way out is done, all clean; poweroff' 'reboot: Power down' &&
	md_members_clean "$a" "$b" || return 1
	for m in "$a" "$b"; do
		[ "$(sdroot_marker_on "$m")" = "$SDROOT_MARKER" ] ||
			{ echo "$(basename "$m"): the marker is not in its copy of the array's filesystem"; return 1; }
	done
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
	assert_before "$log" 'lifeboat-shutdown: deactivated the LVM volume lbcvg-root' \
		'lifeboat-shutdown: closed the LUKS container lbcrypt' &&
	assert_before "$log" 'lifeboat-shutdown: closed the LUKS container lbcrypt' 'reboot: Power down'
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
		assert_before "$NET_LOG" 'lifeboat-shutdown: the way out (poweroff): taking' \
			"lifeboat-shutdown: unmounted the old root /oldroot (nfs4 on $NET_SERVER:/nfsroot)" &&
		assert_before "$NET_LOG" "lifeboat-shutdown: unmounted the old root /oldroot (nfs4 on" \
			"lifeboat-shutdown: the root's stack is down" &&
		assert_not_log "$NET_LOG" 'by force' && assert_not_log "$NET_LOG" 'not responding' || rc=1
	fi
	if [ $rc -eq 0 ]; then
		grep -q 'written before the way out' "$CASE_DIR/nfsroot/last-write" ||
			{ echo "the last write is not on the server ($CASE_DIR/nfsroot/last-write)"; rc=1; }
	fi
	net_ns_down
	return $rc
}

# A sysvinit-style shutdown with rd.break=shutdown, on a plain disk root
# (rd.break=shutdown leaves the way out whatever the root): PID 1 stays
# the init and its last "script" runs /run/initramfs/shutdown poweroff,
# which hands over by itself; the break shell runs in the way out with the
# old root at /oldroot, before anything is taken down, and exit goes on
# (the shell's output may overtake the kernel log's lines on the console).
# PID 1's program keeps the old root busy, which the way out says, naming
# PID 1, before it makes the root read-only, detaches it and powers off.
case_shutdown_break_script() {
	local disk log=$CASE_DIR/console.log
	disk=$(disk_copy ext4.img)
	rescue_start "$IMG_GENERIC" "root=LABEL=lbext4 rw rd.break=shutdown lifeboat.test.handback=script:poweroff" \
		$(disk_args virtio-blk "$disk")
	{
		expect 'built-in shell \(ash\)' 120 &&
		type_line "echo BREAK-\$(grep -c ' /oldroot ' /proc/mounts)-\$(grep -c ' /oldroot/proc ' /proc/mounts)-\$((6*7))" &&
		expect 'BREAK-1-0-42' &&
		type_line exit &&
		expect 'reboot: Power down' 60
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_root_reached "$log" &&
	assert_before "$log" '^LIFEBOAT-TEST: handback by a script poweroff' \
		'lifeboat-shutdown: handing over to the way out in /run/initramfs from a script' &&
	assert_before "$log" 'from a script' 'lifeboat-shutdown: the way out (poweroff): taking the root' &&
	assert_before "$log" 'from a script' 'BREAK-1-0-42' &&
	assert_before "$log" 'BREAK-1-0-42' \
		'/oldroot (ext4 on /dev/vda) will not unmount: .*PID 1, the init whose script handed over' &&
	assert_before "$log" 'will not unmount' \
		'lifeboat-shutdown: the way out is done, 1 of 6 steps not clean; poweroff' &&
	assert_not_log "$log" 'cannot be made read-only' &&
	assert_not_log "$log" 'LIFEBOAT-TEST: handback: the script returned'
}

# rd.break=shutdown in an image built with --rescue-auth (audit N3): the
# way out's shell passes the init's gate. The init leaves the hash (0600)
# beside the static way out, which checks it with the libcrypt it links: a
# wrong password is refused, the right one opens
# the shell on the console with /oldroot mounted, exit goes on to the
# power-off. The word comes quoted from the command line built into the
# image (--cmdline, in /etc/cmdline.d), which only the init reads: the way
# out acts on the init's decision.
case_shutdown_break_auth() {
	local disk img=$CASE_DIR/break-auth.img log=$CASE_DIR/console.log
	disk=$(disk_copy ext4.img)
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --rescue busybox \
		--rescue-auth --rescue-shadow "$(auth_shadow)" --cmdline '"rd.break=shutdown"' \
		-o "$img" >/dev/null ||
		{ echo "building the --rescue-auth image failed"; return 1; }
	rescue_start "$img" "root=LABEL=lbext4 rw lifeboat.test.handback=script:poweroff" \
		$(disk_args virtio-blk "$disk")
	{
		expect 'Give root password' 150 &&
		type_line not-the-password &&
		expect 'Login incorrect' &&
		expect 'Give root password' &&
		type_line "$RESCUE_PASSWORD" &&
		expect 'built-in shell \(ash\)' &&
		type_line "echo BREAK-\$(grep -c ' /oldroot ' /proc/mounts)-\$((6*7))" &&
		expect 'BREAK-1-42' &&
		type_line exit &&
		expect 'reboot: Power down' 60
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	# The shell's terminal output may overtake the kernel log's lines on
	# the console: the order asserted is of what the way out does.
	assert_root_reached "$log" &&
	assert_before "$log" 'lifeboat-shutdown: handing over to the way out' 'Give root password' &&
	assert_before "$log" 'Login incorrect' 'BREAK-1-42' &&
	assert_before "$log" 'BREAK-1-42' '/oldroot (ext4 on /dev/vda) will not unmount' &&
	assert_log "$log" 'lifeboat-shutdown: the way out is done, 1 of 6 steps not clean; poweroff' &&
	assert_not_log "$log" "$RESCUE_PASSWORD"
}

# The report for the next boot (docs/shutdown.md): the way out's lines,
# with their fixed prefix, kept by pstore (ramoops in memory the kernel is
# told to leave alone; qemu keeps RAM across a reboot), are found by the
# next boot, written to /run/initramfs/last-shutdown.txt and its last line
# marked in the timeline. One machine, two boots: the first hands back with
# reboot, the second (the root has the last write) powers off.
case_shutdown_report_next_boot() {
	local a b log=$CASE_DIR/console.log
	local ramoops='memmap=1M$0x1e000000 ramoops.mem_address=0x1e000000 ramoops.mem_size=0x100000 ramoops.record_size=0x40000 ramoops.max_reason=4'
	stacks_setup || return 1
	a=$(stack_copy md-a) && b=$(stack_copy md-b)
	timeout --foreground -k 5 "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 512 \
		-nographic -nic none -monitor none -serial stdio -kernel "$KERNEL" -initrd "$IMG_STACKS" \
		-append "$GUEST_APPEND root=UUID=$UUID_MD_FS rd.md.uuid=$UUID_MD rw rd.timeout=60 rd.driver.pre=ramoops $ramoops lifeboat.test.handback=reboot-once" \
		$(virtio_disk "$a") $(virtio_disk "$b") </dev/null 2>&1 | tr -d '\r' >"$log"
	assert_log "$log" '^LIFEBOAT-TEST: handback reboot' &&
	assert_before "$log" 'lifeboat-shutdown: stopped the md array md' 'reboot: Restarting system' &&
	assert_before "$log" 'reboot: Restarting system' '^LIFEBOAT-TEST: lastwrite written before the way out' &&
	assert_before "$log" 'reboot: Restarting system' \
		"lifeboat: the last shutdown's way out (from /sys/fs/pstore; its [0-9]* lines in /run/initramfs/last-shutdown.txt): lifeboat-shutdown: the way out is done, all clean; reboot" &&
	assert_log "$log" '^LIFEBOAT-TEST: lastshutdown lifeboat-shutdown: stopped the md array md[0-9]* (its superblock is marked clean)' &&
	assert_log "$log" '^LIFEBOAT-TEST: timeline [0-9.]* lastshutdown lifeboat-shutdown: the way out is done, all clean; reboot' &&
	assert_log "$log" 'reboot: Power down'
}

# The I_T nexuses (sessions) tgtd has on the target root, one line each.
iscsi_root_nexuses() {
	iscsi_adm --op show --mode target |
		awk '/^Target [0-9]*:/ { t = $2 } t == "1:" && /I_T nexus: [0-9]/ { print }'
}

# tgtd (its debug log from line FROM on) saw a Logout Request and answered
# it, and no longer has a session on the target root: what a logout
# leaves, and neither a power-off (the connection is never closed: tgtd
# keeps the session) nor a dropped connection (no Logout Request).
tgtd_saw_logout() {
	local from=$1
	tail -n "+$from" "$CASE_DIR/tgtd.log" | grep -q "$TGTD_LOGOUT_LINE" ||
		{ echo "tgtd's log (from line $from) shows no logout"; return 1; }
	[ -z "$(iscsi_root_nexuses)" ] ||
		{ echo "tgtd still has a session on $ISCSI_IQN:root: $(iscsi_root_nexuses)"; return 1; }
}

# Root on an iSCSI LUN (tgtd in the namespace, cases-iscsi.sh), rw: the
# test init writes its last line and hands back with poweroff; the way out
# unmounts the root, then logs out of the session (its line), before the
# power-off; tgtd saw the logout and has no session left when qemu has
# ended; the LUN's image holds the last write. The control: a second boot
# powers off without the way out, and the same tgtd check fails on it.
case_shutdown_iscsi_root() {
	local rc=0 from append
	NET_IMG=$(iscsi_image plain) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	ISCSI_TGTD_DEBUG=1 iscsi_target_start || rc=1
	append="netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:root ip=198.51.100.21::$NET_SERVER:255.255.255.0:guest:eth0:none rw rd.shell=0"
	if [ $rc -eq 0 ]; then
		net_boot handback "$append lifeboat.test.handback=poweroff"
		assert_root_reached "$NET_LOG" && assert_way_out "$NET_LOG" &&
		assert_before "$NET_LOG" 'lifeboat-shutdown: unmounted the old root /oldroot (ext4 on /dev/sd' \
			"lifeboat-shutdown: logged out of the iSCSI target $ISCSI_IQN:root at $NET_SERVER:3260 (session [0-9]*): the target closed the session" &&
		assert_before "$NET_LOG" 'lifeboat-shutdown: logged out of the iSCSI target' 'reboot: Power down' &&
		tgtd_saw_logout 1 || rc=1
	fi
	if [ $rc -eq 0 ]; then
		debugfs -R 'cat /last-write' "$CASE_DIR/lun-root.img" 2>/dev/null |
			grep -q 'written before the way out' ||
			{ echo "the LUN's image lacks the last write (debugfs cat /last-write)"; rc=1; }
	fi
	if [ $rc -eq 0 ]; then
		from=$(($(wc -l <"$CASE_DIR/tgtd.log") + 1))
		net_boot control "$append"
		assert_log "$NET_LOG" '^LIFEBOAT-TEST: lastwrite written before the way out' &&
		assert_log "$NET_LOG" 'reboot: Power down' &&
		assert_not_log "$NET_LOG" 'lifeboat-shutdown:' || rc=1
		if [ $rc -eq 0 ] && tgtd_saw_logout "$from" >/dev/null; then
			echo "control: the tgtd check passes on a power-off without the way out"
			rc=1
		fi
	fi
	iscsi_down
	return $rc
}
