# cases-nvmf.sh: roots on an NVMe over TCP namespace (sourced by run.sh).
# The target is Linux's own (nvmet, nvmet-tcp) in a second qemu guest:
# Debian's kernel with an initramfs made from lifeboat's own image tree
# (its modules and ip, tests/boot/nvmet-target.sh as /init), its disk a
# copy of the ext4 test root. Both guests sit on the case's namespace
# bridge (net_ns_up of cases-net.sh: the initiator on tap0, the target on
# tap2); the bridge passes the VLAN's tagged frames between them. The
# target guest is ended by PID with the namespace (net_ns_down).
#
# A target guest takes seconds to start, and each keep-alive check waits
# NVMF_KATO_WATCH seconds: so each case starts one target and boots the
# initiator several times against it (nvmf_fixture_up, nvmf_boot), and
# each boot's keep-alive check is judged at the case's end, its watch
# running while the later boots do (nvmf_assert_clean).

NVMF_NQN=nqn.2026-12.test.lifeboat:root
NVMF_HOSTID=3a9c1f6e-0000-4000-8000-00000000b001
NVMF_HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$NVMF_HOSTID
NVMF_VLAN=5
NVMF_ADDR6=2001:db8:5::1
NVMF_GUEST6=2001:db8:5::2
NVMF_ADDR4=198.51.100.31
NVMF_GUEST4=198.51.100.32
NVMF_TARGET_MAC=52:54:00:00:00:77
# How long after an initiator's end its controller is watched on the
# target: the host's keep-alive is 5 s (NVME_DEFAULT_KATO); the control
# boot's controller expired 6 to 8 s after its initiator ended.
NVMF_KATO_WATCH=15

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


# nvmf_fixture_up: the case's image ($NET_IMG, built once per run) and
# namespace; the target guest is started by nvmf_target_start.
nvmf_fixture_up() {
	NET_IMG=$(cached_image nvmf --generic --nvmf) || { echo "$NET_IMG"; return 1; }
	declare -gA NVMF_FROM=() NVMF_END=()
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'net_ns_down' EXIT
}

# nvmf_boot NAME APPEND [QEMU-ARGS...]: net_boot, remembering the target
# console's line where the boot began and the time it ended.
nvmf_boot() {
	local name=$1
	NVMF_FROM[$name]=$(($(wc -l <"$CASE_DIR/target.log" 2>/dev/null || echo 0) + 1))
	net_boot "$@"
	NVMF_END[$name]=$(date +%s)
}

# The number of the NVM controller the target made for the host in boot
# NAME (its first after the boot began).
nvmf_ctrl() {
	nvmf_target_log_from "${NVMF_FROM[$1]}" |
		sed -n "s/.*nvmet: creating nvm controller \([0-9]*\) for subsystem $NVMF_NQN for NQN $NVMF_HOSTNQN.*/\1/p" |
		head -n 1
}

# Whether boot NAME's controller ID expired: its keep-alive message after
# its making and before the number is given to another controller (a
# clean disconnect frees the number for the next boot).
nvmf_expired() {
	nvmf_target_log_from "${NVMF_FROM[$1]}" | awk -v id="$2" '
		$0 ~ "creating [a-z]* controller " id " for" { if (made) exit; made = 1; next }
		made && $0 ~ "ctrl " id " keep-alive timer" { expired = 1; exit }
		END { exit !expired }'
}

# Wait until boot NAME ended NVMF_KATO_WATCH seconds ago (or until its
# controller expired, when EXPIRE is given).
nvmf_watch() {
	local name=$1 id=$2 expire=${3:-}
	while [ $(($(date +%s) - NVMF_END[$name])) -lt "$NVMF_KATO_WATCH" ]; do
		[ -n "$expire" ] && nvmf_expired "$name" "$id" && return 0
		sleep 0.5
	done
}

# Boot NAME said goodbye: the target let it in, and in the NVMF_KATO_WATCH
# seconds after its end its controller's keep-alive timer did not expire.
nvmf_assert_clean() {
	local id
	id=$(nvmf_ctrl "$1")
	[ -n "$id" ] || { echo "$1: the target's console shows no controller for $NVMF_HOSTNQN"; return 1; }
	nvmf_watch "$1" "$id"
	! nvmf_expired "$1" "$id" ||
		{ echo "$1: the target's keep-alive timer of controller $id expired after the initiator ended: no clean disconnect"; return 1; }
}

# The control: boot NAME powered off without the way out, and its
# controller's keep-alive timer expired, so nvmf_assert_clean can fail.
nvmf_assert_expired() {
	local id
	id=$(nvmf_ctrl "$1")
	[ -n "$id" ] || { echo "$1: the target's console shows no controller for $NVMF_HOSTNQN"; return 1; }
	nvmf_watch "$1" "$id" expire
	nvmf_expired "$1" "$id" ||
		{ echo "control: controller $id of boot $1 (no way out) did not expire: the keep-alive check cannot fail"; return 1; }
}

# The root from the firmware's NBFT (NVMe Boot Firmware Table): qemu gets
# it as an ACPI table (tests/boot/nbft-table.py), the kernel shows it as
# /sys/firmware/acpi/tables/NBFT. With no network or NVMe words on the
# command line, the init configures the table's interface (the NIC by its
# MAC, VLAN 5, the static IPv6 address), connects the table's subsystem
# with the table's host NQN and ID (the target allows no other), and
# root=UUID= mounts on its namespace; the way out disconnects.
nvmf_assert_nbft_root() {
	local log=$1
	assert_root_reached "$log" &&
	assert_log "$log" "NVMe/TCP: the firmware's NBFT /sys/firmware/acpi/tables/NBFT names 1 subsystem and 1 interface" &&
	assert_log "$log" "NVMe/TCP: connecting the firmware's 1 subsystem as $NVMF_HOSTNQN" &&
	assert_log "$log" "NVMe/TCP: $NVMF_NQN at $NVMF_ADDR6:4420 (the firmware's NBFT) connected" &&
	assert_log "$log" "timeline [0-9.]* nbft /sys/firmware/acpi/tables/NBFT 1 subsystems 1 interfaces" &&
	assert_log "$log" "timeline [0-9.]* nvmf nvme[0-9]* $NVMF_NQN $NVMF_ADDR6:4420" &&
	assert_log "$log" "lifeboat: ifname=nbft1:$NET_MAC: eth0 is now nbft1" &&
	assert_log "$log" "lifeboat: nbft1\\.$NVMF_VLAN: $NVMF_GUEST6/64 by static" &&
	assert_not_log "$log" "NVMe/TCP: discovering" &&
	assert_log "$log" "rootmount /dev/nvme[0-9]*n1 ext4" &&
	assert_way_out "$log" &&
	assert_before "$log" 'lifeboat-shutdown: unmounted the old root /oldroot (ext4 on /dev/nvme' \
		"lifeboat-shutdown: disconnected the NVMe/TCP controller nvme[0-9]* ($NVMF_NQN, traddr=$NVMF_ADDR6,trsvcid=4420"
}

# The guest clock from the table's reading to the root's mount, into the
# case's measure file.
nvmf_measure_nbft() {
	local log=$1 t0 t1
	t0=$(sed -n 's/.*timeline \([0-9.]*\) nbft .*/\1/p' "$log" | head -n 1)
	t1=$(sed -n 's/.*timeline \([0-9.]*\) mounted .*/\1/p' "$log" | head -n 1)
	echo "nbft: table read at ${t0:-?} s, root mounted at ${t1:-?} s (guest clock)" >>"$CASE_DIR/measure"
}

# One target, two boots over IPv6 on VLAN 5:
# - vlan-ipv6: dracut's words: the NIC renamed by ifname=, VLAN 5 on it, a
#   static IPv6 address on the VLAN, the host's NQN and ID and the
#   discovery controller on the command line; root=UUID= mounts on the
#   namespace's /dev/nvmeXn1.
# - nbft: the same from the firmware's NBFT table alone (above).
# Each powers off through the way out, which disconnects after the
# unmount; the target sees no keep-alive expire.
case_nvmf_vlan_ipv6_root() {
	local rc=0
	nvmf_fixture_up || return 1
	python3 "$(dirname "${BASH_SOURCE[0]}")/nbft-table.py" "$CASE_DIR/nbft.bin" "$NVMF_HOSTNQN" \
		"$NVMF_HOSTID" "$NET_MAC" "$NVMF_VLAN" "$NVMF_GUEST6" 64 - "$NVMF_ADDR6" 4420 "$NVMF_NQN" ||
		{ net_ns_down; echo "writing the NBFT table failed"; return 1; }
	nvmf_target_start || rc=1
	if [ $rc -eq 0 ]; then
		QEMU_TIMEOUT=240 nvmf_boot vlan-ipv6 "ifname=lan0:$NET_MAC vlan=lan0.$NVMF_VLAN:lan0 ip=[$NVMF_GUEST6]:::64::lan0.$NVMF_VLAN:none rd.nvmf.hostnqn=$NVMF_HOSTNQN rd.nvmf.hostid=$NVMF_HOSTID rd.nvmf.discover=tcp,$NVMF_ADDR6,,4420 root=UUID=$UUID_EXT4 rw rd.shell=0 lifeboat.test.handback=poweroff"
		nvmf_assert_root "$NET_LOG" "$NVMF_ADDR6" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		QEMU_TIMEOUT=240 nvmf_boot nbft "root=UUID=$UUID_EXT4 rw rd.shell=0 lifeboat.test.handback=poweroff" \
			-acpitable "file=$CASE_DIR/nbft.bin"
		nvmf_measure_nbft "$NET_LOG"
		nvmf_assert_nbft_root "$NET_LOG" || rc=1
	fi
	[ $rc -ne 0 ] || { nvmf_assert_clean vlan-ipv6 && nvmf_assert_clean nbft; } || rc=1
	net_ns_down
	return $rc
}

# Over IPv4 without a VLAN, one target for three boots:
# - late: the target is started only once the initiator first tried it
#   (the storage comes back after its clients): the failure is said once,
#   the connect is tried again with a growing pause until rd.timeout, and
#   the root is reached. This boot powers off without the way out: it is
#   the control, its controller's keep-alive timer must expire on the
#   target, so that the clean-disconnect check of the next boot can fail.
# - ipv4: the nvmf.* aliases, the port left to its default; the way out
#   disconnects, the target sees no keep-alive expire.
# - refused: a host the target does not allow: the discovery controller
#   lets it in but lists nothing for it; the boot fails within rd.timeout
#   with the address, the host NQN and what to check, said once.
case_nvmf_ipv4_root() {
	local rc=0 qpid start stranger=nqn.2026-12.test.lifeboat:stranger
	local ip4="ip=$NVMF_GUEST4::$NET_SERVER:255.255.255.0:guest:eth0:none"
	nvmf_fixture_up || return 1
	NVMF_FROM[late]=1
	QEMU_TIMEOUT=240 net_boot late "$ip4 rd.nvmf.hostnqn=$NVMF_HOSTNQN rd.nvmf.hostid=$NVMF_HOSTID rd.nvmf.discover=tcp,$NVMF_ADDR4,,4420 root=UUID=$UUID_EXT4 rd.timeout=150 rd.shell=0" &
	qpid=$!
	for _ in $(seq 1 300); do
		grep -q 'NVMe/TCP: discovering' "$CASE_DIR/late.log" 2>/dev/null && break
		sleep 0.2
	done
	# The target guest needs seconds to listen: the first tries fail.
	nvmf_target_start || rc=1
	wait "$qpid"
	NVMF_END[late]=$(date +%s)
	NET_LOG=$CASE_DIR/late.log.txt
	[ $rc -ne 0 ] || { assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "rootmount /dev/nvme[0-9]*n1 ext4" &&
		assert_log "$NET_LOG" "NVMe/TCP: connecting to the discovery controller at $NVMF_ADDR4:4420 failed: .*; trying again until rd.timeout" &&
		assert_not_log "$NET_LOG" 'lifeboat-shutdown:' &&
		{ [ "$(grep -c 'trying again until rd.timeout' "$NET_LOG")" -eq 1 ] ||
			{ echo "late: the failure was said more than once"; false; }; }; } || rc=1
	if [ $rc -eq 0 ]; then
		QEMU_TIMEOUT=240 nvmf_boot ipv4 "ip=$NVMF_GUEST4::$NET_SERVER:255.255.255.0:guest:eth0:none nvmf.hostnqn=$NVMF_HOSTNQN nvmf.hostid=$NVMF_HOSTID nvmf.discover=tcp,$NVMF_ADDR4 root=UUID=$UUID_EXT4 rw rd.shell=0 lifeboat.test.handback=poweroff"
		nvmf_assert_root "$NET_LOG" "$NVMF_ADDR4" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		nvmf_boot refused "$ip4 rd.nvmf.hostnqn=$stranger rd.nvmf.discover=tcp,$NVMF_ADDR4 root=UUID=$UUID_EXT4 rd.timeout=10 rd.shell=0"
		net_assert_failed "$NET_LOG" "NVMe/TCP root: the discovery controller at $NVMF_ADDR4:4420 lists no NVM subsystem over TCP for host NQN $stranger (the target's allowed hosts?) ([0-9]* tries within rd.timeout=10); check that the target runs, is reachable and allows host NQN $stranger" "$start" &&
		{ [ "$(grep -c 'lists no NVM subsystem' "$NET_LOG")" -le 3 ] ||
			{ echo "refused: the failure was said more often than once (and in the report)"; false; }; } || rc=1
	fi
	[ $rc -ne 0 ] || { nvmf_assert_expired late && nvmf_assert_clean ipv4; } || rc=1
	net_ns_down
	return $rc
}

# An NBFT table on a machine whose image has no NVMe/TCP (the generic
# image, built without --nvmf) and whose root is a local disk: the table
# is said, in one line, not to be used, and the root mounts as without it.
case_nvmf_nbft_not_in_image() {
	local disk
	python3 "$(dirname "${BASH_SOURCE[0]}")/nbft-table.py" "$CASE_DIR/nbft.bin" "$NVMF_HOSTNQN" \
		"$NVMF_HOSTID" "$NET_MAC" "$NVMF_VLAN" "$NVMF_GUEST6" 64 - "$NVMF_ADDR6" 4420 "$NVMF_NQN" ||
		{ echo "writing the NBFT table failed"; return 1; }
	disk=$(disk_copy ext4.img)
	# shellcheck disable=SC2046
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_GENERIC" "root=/dev/vda" \
		$(disk_args virtio-blk "$disk") -acpitable "file=$CASE_DIR/nbft.bin"
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "NVMe/TCP: the firmware left an NBFT table, but this image has no NVMe/TCP support (build it with --nvmf); the table is not used" &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda ext4 ro" &&
	assert_not_log "$CASE_DIR/console.log" "timeline [0-9.]* nbft "
}
