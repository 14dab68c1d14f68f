# cases-nvmf.sh: roots on an NVMe over TCP namespace (sourced by run.sh).
# The target is Linux's own (nvmet, nvmet-tcp) in a second qemu guest:
# Debian's kernel with an initramfs made from lifeboat's own image tree
# (its modules and ip, tests/boot/nvmet-target.sh as /init), its disk a
# copy of the ext4 test root. Both guests sit on the case's namespace
# bridge (net_ns_up of cases-net.sh: the initiator on tap0, the target on
# tap2); the bridge passes the VLAN's tagged frames between them. The
# target guest is ended by PID with the namespace (net_ns_down).

NVMF_NQN=nqn.2026-12.test.lifeboat:root
NVMF_HOSTID=3a9c1f6e-0000-4000-8000-00000000b001
NVMF_HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$NVMF_HOSTID
NVMF_VLAN=5
NVMF_ADDR6=2001:db8:5::1
NVMF_GUEST6=2001:db8:5::2
NVMF_ADDR4=198.51.100.31
NVMF_GUEST4=198.51.100.32
NVMF_TARGET_MAC=52:54:00:00:00:77
# How long a clean disconnect is watched for on the target: the host's
# keep-alive is 5 s (NVME_DEFAULT_KATO), the target's timer then fires.
NVMF_KATO_WATCH=20

# nvmf_image: a generic --nvmf image, made once per run.
nvmf_image() {
	local img=$WORK/nvmf.img
	(
		flock 9
		[ -s "$img" ] && [ "$img" -nt "$BUILD/lifeboat-init" ] && [ "$img" -nt "$BUILD/lifeboat" ] &&
			[ "$img" -nt "$BUILD/lifeboat-shutdown" ] ||
			"$BUILD/lifeboat" build --config /dev/null --generic --nvmf \
			--kver "$KVER" -o "$img" >"$img.log" 2>&1
	) 9>"$img.lock" || { echo "building the --nvmf image failed: $img.log"; return 1; }
	echo "$img"
}

# The target's initramfs: lifeboat's image tree for the modules (nvmet and
# the NICs' drivers) and ip with its libraries, busybox unpacked with its
# applets, the modules unpacked for busybox's modprobe with depmod's
# table, and nvmet-target.sh as /init. Made once per run.
nvmf_target_image() {
	local img=$WORK/nvmet-target.cpio dir=$WORK/nvmet-target tree=$WORK/nvmet-target/tree
	(
		flock 9
		[ -s "$img" ] && [ "$img" -nt "$BUILD/lifeboat" ] &&
			[ "$img" -nt "$TOP/tests/boot/nvmet-target.sh" ] && exit 0
		mkdir -p "$dir" &&
		"$BUILD/lifeboat" build --config /dev/null --generic --net --kver "$KVER" --compress none \
			--add-modules nvmet,nvmet_tcp,configfs,8021q --add-binaries /usr/sbin/ip \
			-o "$dir/base.cpio" >"$dir/build.log" 2>&1 || exit 1
		rm -rf "$tree" && mkdir -p "$tree" &&
		(cd "$tree" && cpio -idm --quiet <"$dir/base.cpio") || exit 1
		rm -f "$tree/init"
		xz -dc "$tree/usr/lib/lifeboat/busybox.xz" >"$tree/usr/bin/busybox" &&
			chmod 0755 "$tree/usr/bin/busybox" || exit 1
		while read -r applet; do
			[ -e "$tree/usr/bin/$applet" ] || [ -e "$tree/usr/sbin/$applet" ] ||
				ln -s busybox "$tree/usr/bin/$applet"
		done <"$tree/usr/lib/lifeboat/busybox.applets"
		find "$tree/usr/lib/modules" -name '*.ko.xz' -exec xz -d {} + &&
			depmod -b "$tree" "$KVER" 2>/dev/null || exit 1
		install -m 0755 "$TOP/tests/boot/nvmet-target.sh" "$tree/init"
		(cd "$tree" && find . | cpio -o -H newc --quiet) >"$img.tmp" && mv "$img.tmp" "$img"
	) 9>"$WORK/nvmet-target.lock" ||
		{ echo "making the target's initramfs failed (see $dir/build.log)"; return 1; }
	echo "$img"
}

# The target guest in the background on tap2, its console in
# $CASE_DIR/target.log; returns once it says it is ready.
nvmf_target_start() {
	local img i
	img=$(nvmf_target_image) || { echo "$img"; return 1; }
	cp --sparse=always "$DISKS/ext4.img" "$CASE_DIR/nvme-root.img" || return 1
	setsid ip netns exec "$NET_NS" qemu-system-x86_64 -accel tcg -cpu max -m 384 \
		-nographic -no-reboot -monitor none -serial stdio \
		-kernel "$KERNEL" -initrd "$img" \
		-append "$GUEST_APPEND NVMET_NQN=$NVMF_NQN NVMET_HOSTNQN=$NVMF_HOSTNQN NVMET_VLAN=$NVMF_VLAN NVMET_ADDR6=$NVMF_ADDR6 NVMET_ADDR4=$NVMF_ADDR4" \
		-drive "file=$CASE_DIR/nvme-root.img,format=raw,if=virtio" \
		-netdev tap,id=n2,ifname=tap2,script=no,downscript=no \
		-device "virtio-net-pci,netdev=n2,mac=$NVMF_TARGET_MAC,addr=0x5" \
		</dev/null >"$CASE_DIR/target.log" 2>&1 &
	NVMF_TARGET_PID=$!
	NET_PIDS+=($!)
	for i in $(seq 1 600); do
		grep -q '^NVMET-TARGET: ready' "$CASE_DIR/target.log" && return 0
		grep -q '^NVMET-TARGET: FAILED' "$CASE_DIR/target.log" && break
		kill -0 "$NVMF_TARGET_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "the target guest did not get ready: $(grep -a 'NVMET-TARGET' "$CASE_DIR/target.log" | tail -n 1) (console: $CASE_DIR/target.log)"
	return 1
}

# The target's console from line FROM on, without carriage returns.
nvmf_target_log_from() {
	tail -n "+$1" "$CASE_DIR/target.log" | tr -d '\r'
}

# The root reached on the namespace over NVMe/TCP from ADDRESS, and the way
# out's disconnect after the root was unmounted, before the power-off.
nvmf_assert_root() {
	local log=$1 addr=$2
	assert_root_reached "$log" &&
	assert_log "$log" "NVMe/TCP: discovering at $addr:4420 as $NVMF_HOSTNQN" &&
	assert_log "$log" "NVMe/TCP: $NVMF_NQN at $addr:4420 connected" &&
	assert_log "$log" "timeline [0-9.]* nvmf nvme[0-9]* $NVMF_NQN $addr:4420" &&
	assert_log "$log" "rootmount /dev/nvme[0-9]*n1 ext4" &&
	assert_way_out "$log" &&
	assert_before "$log" 'lifeboat-shutdown: unmounted the old root /oldroot (ext4 on /dev/nvme' \
		"lifeboat-shutdown: disconnected the NVMe/TCP controller nvme[0-9]* ($NVMF_NQN, traddr=$addr,trsvcid=4420" &&
	assert_before "$log" 'lifeboat-shutdown: disconnected the NVMe/TCP controller' 'reboot: Power down'
}

# The target let the host in (FROM: its console's first line of this
# boot), and in the NVMF_KATO_WATCH seconds after the initiator's end no
# keep-alive timer expired: the host said goodbye.
nvmf_assert_clean_disconnect() {
	local from=$1
	nvmf_target_log_from "$from" | grep -q "nvmet: creating nvm controller [0-9]* for subsystem $NVMF_NQN for NQN $NVMF_HOSTNQN" ||
		{ echo "the target's console (from line $from) shows no controller for $NVMF_HOSTNQN"; return 1; }
	sleep "$NVMF_KATO_WATCH"
	! nvmf_target_log_from "$from" | grep -q 'keep-alive timer ([0-9]* seconds) expired' ||
		{ echo "the target's keep-alive timer expired after the initiator ended: no clean disconnect"; return 1; }
}

# A root on NVMe/TCP over IPv6 on a VLAN, with dracut's words: the NIC
# renamed by ifname=, VLAN 5 on it, a static IPv6 address on the VLAN,
# the host's NQN and ID and the discovery controller on the command line;
# root=UUID= mounts on the namespace's /dev/nvmeXn1. At power-off the way
# out disconnects after the unmount, and the target sees no keep-alive
# expire.
case_nvmf_vlan_ipv6_root() {
	local rc=0 from
	NET_IMG=$(nvmf_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'net_ns_down' EXIT
	nvmf_target_start || rc=1
	if [ $rc -eq 0 ]; then
		from=$(($(wc -l <"$CASE_DIR/target.log") + 1))
		QEMU_TIMEOUT=240 net_boot vlan-ipv6 "ifname=lan0:$NET_MAC vlan=lan0.$NVMF_VLAN:lan0 ip=[$NVMF_GUEST6]:::64::lan0.$NVMF_VLAN:none rd.nvmf.hostnqn=$NVMF_HOSTNQN rd.nvmf.hostid=$NVMF_HOSTID rd.nvmf.discover=tcp,$NVMF_ADDR6,,4420 root=UUID=$UUID_EXT4 rw rd.shell=0 lifeboat.test.handback=poweroff"
		nvmf_assert_root "$NET_LOG" "$NVMF_ADDR6" &&
		nvmf_assert_clean_disconnect "$from" || rc=1
	fi
	net_ns_down
	return $rc
}

# The same over IPv4 without a VLAN (nvmf.* aliases, the port left to its
# default); then the control: a boot that powers off without the way out
# leaves the target waiting, and its keep-alive timer expires, so the
# check of the first boot can fail.
case_nvmf_ipv4_root() {
	local rc=0 from append
	NET_IMG=$(nvmf_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'net_ns_down' EXIT
	nvmf_target_start || rc=1
	append="ip=$NVMF_GUEST4::$NET_SERVER:255.255.255.0:guest:eth0:none nvmf.hostnqn=$NVMF_HOSTNQN nvmf.hostid=$NVMF_HOSTID nvmf.discover=tcp,$NVMF_ADDR4 root=UUID=$UUID_EXT4 rw rd.shell=0"
	if [ $rc -eq 0 ]; then
		from=$(($(wc -l <"$CASE_DIR/target.log") + 1))
		QEMU_TIMEOUT=240 net_boot ipv4 "$append lifeboat.test.handback=poweroff"
		nvmf_assert_root "$NET_LOG" "$NVMF_ADDR4" &&
		nvmf_assert_clean_disconnect "$from" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		from=$(($(wc -l <"$CASE_DIR/target.log") + 1))
		QEMU_TIMEOUT=240 net_boot control "$append"
		assert_root_reached "$NET_LOG" && assert_not_log "$NET_LOG" 'lifeboat-shutdown:' || rc=1
		if [ $rc -eq 0 ] && nvmf_assert_clean_disconnect "$from" >/dev/null; then
			echo "control: the keep-alive check passes on a power-off without the way out"
			rc=1
		fi
	fi
	net_ns_down
	return $rc
}

# The target guest started only after the initiator first tried it (the
# storage comes back after its clients): nothing listens at the first
# tries, the failure is said once, the connect is tried again with a
# growing pause until rd.timeout, and the root is reached.
case_nvmf_late_target() {
	local rc=0 qpid i
	NET_IMG=$(nvmf_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'net_ns_down' EXIT
	QEMU_TIMEOUT=240 net_boot late "ip=$NVMF_GUEST4::$NET_SERVER:255.255.255.0:guest:eth0:none rd.nvmf.hostnqn=$NVMF_HOSTNQN rd.nvmf.hostid=$NVMF_HOSTID rd.nvmf.discover=tcp,$NVMF_ADDR4,,4420 root=UUID=$UUID_EXT4 rd.timeout=150 rd.shell=0" &
	qpid=$!
	for i in $(seq 1 300); do
		grep -q 'NVMe/TCP: discovering' "$CASE_DIR/late.log" 2>/dev/null && break
		sleep 0.2
	done
	sleep 5
	nvmf_target_start || rc=1
	wait "$qpid"
	NET_LOG=$CASE_DIR/late.log.txt
	[ $rc -ne 0 ] || { assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "rootmount /dev/nvme[0-9]*n1 ext4" &&
		assert_log "$NET_LOG" "NVMe/TCP: connecting to the discovery controller at $NVMF_ADDR4:4420 failed: .*; trying again until rd.timeout" &&
		[ "$(grep -c 'trying again until rd.timeout' "$NET_LOG")" -eq 1 ] ||
		{ echo "the failure was said more than once"; false; }; } || rc=1
	net_ns_down
	return $rc
}

# A host the target does not allow: the discovery controller lets it in
# but lists nothing for it; the boot fails within rd.timeout with the
# address, the host NQN and what to check, said once.
case_nvmf_refused_host() {
	local rc=0 start stranger=nqn.2026-12.test.lifeboat:stranger
	NET_IMG=$(nvmf_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'net_ns_down' EXIT
	nvmf_target_start || rc=1
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot refused "ip=$NVMF_GUEST4::$NET_SERVER:255.255.255.0:guest:eth0:none rd.nvmf.hostnqn=$stranger rd.nvmf.discover=tcp,$NVMF_ADDR4 root=UUID=$UUID_EXT4 rd.timeout=15 rd.shell=0"
		net_assert_failed "$NET_LOG" "NVMe/TCP root: the discovery controller at $NVMF_ADDR4:4420 lists no NVM subsystem over TCP for host NQN $stranger (the target's allowed hosts?) ([0-9]* tries within rd.timeout=15); check that the target runs, is reachable and allows host NQN $stranger" "$start" &&
		[ "$(grep -c 'lists no NVM subsystem' "$NET_LOG")" -le 3 ] ||
			{ echo "the failure was said more often than once (and in the report)"; false; } || rc=1
	fi
	net_ns_down
	return $rc
}
