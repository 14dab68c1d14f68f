# cases-iscsi.sh: roots on an iSCSI LUN (sourced by run.sh). Each case makes
# its own network namespace (net_ns_up from cases-net.sh: bridge
# 198.51.100.1/24, a tap for qemu, dnsmasq) and runs tgtd in it with a
# private /run and its own control port; it ends tgtd with tgtadm, then by
# PID. Setup notes: /work/shared/reference/netboot-in-qemu.md section 4.

ISCSI_IQN=iqn.2026-02.test.lifeboat
ISCSI_USER=alice
ISCSI_SECRET=Chap-Secret-4173
# Mutual CHAP: the target's own account, which it answers the initiator with.
ISCSI_TGT_USER=lifeboat-target
ISCSI_TGT_SECRET=Target-Secret-3720

# iscsi_image NAME [BUILD-ARGS...]: a generic --iscsi image, made once per run.
iscsi_image() {
	local img=$WORK/iscsi-$1.img
	shift
	(
		flock 9
		[ -s "$img" ] && [ "$img" -nt "$BUILD/lifeboat-init" ] && [ "$img" -nt "$BUILD/lifeboat" ] &&
			[ "$img" -nt "$BUILD/lifeboat-shutdown" ] ||
			"$BUILD/lifeboat" build --config /dev/null --generic --iscsi \
			--kver "$KVER" "$@" -o "$img" >"$img.log" 2>&1
	) 9>"$img.lock" || { echo "building the --iscsi image failed: $img.log"; return 1; }
	echo "$img"
}

iscsi_adm() {
	nsenter -t "$ISCSI_TGTD_PID" -m -n tgtadm -C "$ISCSI_PORT" --lld iscsi "$@"
}

# tgtd with three targets, each a copy of the ext4 test disk as LUN 1 (LUN 0
# is tgt's controller): TARGET:root open to all, TARGET:chap with CHAP,
# TARGET:mutual with mutual CHAP (the last two share a disk; one boots at a
# time). With ISCSI_TGTD_DEBUG set, tgtd logs at its debug level.
iscsi_target_start() {
	ISCSI_PORT=$((RANDOM % 20000 + 1000))
	cp --sparse=always "$DISKS/ext4.img" "$CASE_DIR/lun-root.img" &&
	cp --sparse=always "$DISKS/ext4.img" "$CASE_DIR/lun-chap.img" || return 1
	setsid ip netns exec "$NET_NS" unshare -m --propagation private sh -c "
		mount -t tmpfs tmpfs /run && mkdir -p /run/lock &&
		exec tgtd -f ${ISCSI_TGTD_DEBUG:+-d 1} -C $ISCSI_PORT --iscsi portal=$NET_SERVER:3260" \
		>"$CASE_DIR/tgtd.log" 2>&1 &
	ISCSI_TGTD_PID=$!
	NET_PIDS+=($!)
	local i
	for i in $(seq 1 50); do
		iscsi_adm --op show --mode target >/dev/null 2>&1 && break
		sleep 0.2
	done
	# The same targets on the bridge's IPv6 address too.
	iscsi_adm --op new --mode portal --param "portal=[$NET6_SERVER]:3260" &&
	iscsi_adm --op new --mode target --tid 1 -T "$ISCSI_IQN:root" &&
	iscsi_adm --op new --mode logicalunit --tid 1 --lun 1 -b "$CASE_DIR/lun-root.img" &&
	iscsi_adm --op bind --mode target --tid 1 -I ALL &&
	iscsi_adm --op new --mode target --tid 2 -T "$ISCSI_IQN:chap" &&
	iscsi_adm --op new --mode logicalunit --tid 2 --lun 1 -b "$CASE_DIR/lun-chap.img" &&
	iscsi_adm --op bind --mode target --tid 2 -I ALL &&
	iscsi_adm --op new --mode account --user "$ISCSI_USER" --password "$ISCSI_SECRET" &&
	iscsi_adm --op bind --mode account --tid 2 --user "$ISCSI_USER" &&
	iscsi_adm --op new --mode target --tid 3 -T "$ISCSI_IQN:mutual" &&
	iscsi_adm --op new --mode logicalunit --tid 3 --lun 1 -b "$CASE_DIR/lun-chap.img" &&
	iscsi_adm --op bind --mode target --tid 3 -I ALL &&
	iscsi_adm --op bind --mode account --tid 3 --user "$ISCSI_USER" &&
	iscsi_adm --op new --mode account --user "$ISCSI_TGT_USER" --password "$ISCSI_TGT_SECRET" &&
	iscsi_adm --op bind --mode account --tid 3 --user "$ISCSI_TGT_USER" --outgoing ||
		{ echo "setting up the tgtd targets failed (see $CASE_DIR/tgtd.log)"; return 1; }
}

iscsi_target_stop() {
	[ -n "${ISCSI_TGTD_PID:-}" ] || return 0
	local tid
	# Targets with sessions go only by force; then the system, which ends tgtd.
	for tid in 1 2 3; do
		iscsi_adm --op delete --force --mode target --tid $tid >/dev/null 2>&1
	done
	nsenter -t "$ISCSI_TGTD_PID" -m -n tgtadm -C "$ISCSI_PORT" --op delete --mode system \
		>/dev/null 2>&1
	kill "$ISCSI_TGTD_PID" 2>/dev/null
	sleep 0.5
	kill -9 "$ISCSI_TGTD_PID" 2>/dev/null
	wait "$ISCSI_TGTD_PID" 2>/dev/null
	ISCSI_TGTD_PID=
}

iscsi_down() {
	iscsi_target_stop
	net_ns_down
}

# The root on the LUN reached as a disk, after a login.
iscsi_assert_root() {
	local log=$1 target=$2
	assert_root_reached "$log" &&
	assert_log "$log" "iSCSI: logging in to $target at $NET_SERVER:3260" &&
	assert_log "$log" "timeline [0-9.]* iscsi $target $NET_SERVER:3260" &&
	assert_log "$log" "rootmount /dev/sd[a-z] ext4"
}

# No secret on the console but in the kernel's own echo of its command line.
iscsi_assert_no_secret() {
	local log=$1 secret=$2
	! grep -vi "command line" "$log" | grep -q -- "$secret" ||
		{ echo "the secret $secret is in the console log"; return 1; }
}

# The target up 20 s after the first login was tried (the storage comes
# back after its clients): the login is tried again with a growing pause
# until rd.timeout, and the root on the LUN is reached (issue 39).
case_iscsi_late_target() {
	local rc=0
	NET_IMG=$(iscsi_image plain) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	net_dhcp_start
	QEMU_TIMEOUT=240 net_boot_late late-target "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:root ip=dhcp rd.shell=0" \
		20 iscsi_target_start || rc=1
	[ $rc -ne 0 ] || { iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:root" &&
		assert_log "$NET_LOG" "(try 2)"; } || rc=1
	return $rc
}

# A root on iSCSI: netroot= on the command line with the LUN's disk as the
# root (no root=), then the root-path from DHCP with root=LABEL=, then the
# portal's IPv6 address with a static IPv6 ip=, then the target from
# DHCPv6's boot file URL; an iSCSI root-path that the command line did not
# ask for ends in a message.
case_iscsi_root() {
	local rc=0
	NET_IMG=$(iscsi_image plain) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	iscsi_target_start && net_dhcp_start "iscsi:$NET_SERVER::::$ISCSI_IQN:root" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot netroot "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:root ip=dhcp rd.shell=0"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:root" &&
		assert_log "$NET_LOG" "iSCSI: the root is the LUN's disk /dev/sd" &&
		assert_log "$NET_LOG" "as iqn.2026-01.org.lifeboat:525400000001 " || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_boot dhcp-rootpath "netroot=dhcp root=LABEL=lbext4 rd.iscsi.initiator=iqn.2026-02.test:guest rd.shell=0"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:root" &&
		assert_log "$NET_LOG" "as iqn.2026-02.test:guest" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		# Over IPv6: the portal in brackets, a static ip=[ADDR] (DAD waited for).
		net_boot ipv6 "netroot=iscsi:[$NET6_SERVER]::::$ISCSI_IQN:root ip=[$NET6_GUEST]:::64::eth0:none rd.shell=0"
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "iSCSI: logging in to $ISCSI_IQN:root at $NET6_SERVER:3260" &&
		assert_log "$NET_LOG" "rootmount /dev/sd[a-z] ext4" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		# The target from DHCPv6: the boot file URL (option 59, RFC 5970)
		# is the RFC 4173 root path with the portal in brackets; a second
		# dnsmasq gives the router advertisements and DHCPv6 alone.
		net_dhcp6_start "iscsi:[$NET6_SERVER]::::$ISCSI_IQN:root" &&
		net_boot dhcp6-bootfile "netroot=dhcp root=LABEL=lbext4 ip=dhcp6 rd.shell=0"
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 2001:db8::1[0-9a-f][0-9a-f] dhcp6" &&
		assert_log "$NET_LOG" "iSCSI: logging in to $ISCSI_IQN:root at $NET6_SERVER:3260" &&
		assert_log "$NET_LOG" "rootmount /dev/sd[a-z] ext4" || rc=1
		net_dhcp_stop
	fi
	if [ $rc -eq 0 ]; then
		local start
		start=$(date +%s)
		net_boot dhcp-not-asked "ip=dhcp rd.shell=0"
		net_assert_failed "$NET_LOG" "DHCP's root-path on eth0 names an iSCSI target, but the command line asks for an NFS root; add netroot=dhcp and give root=/dev/root" "$start" || rc=1
	fi
	iscsi_down
	return $rc
}

# dracut's own iSCSI test's words: root=/dev/root netroot=dhcp, the NIC
# renamed by ifname= and configured by ip=lan0:dhcp, the initiator named,
# and DHCP's root-path iscsi:SERVER:::1:TARGET (LUN 1); the LUN's disk is
# the root. Then netroot=dhcp alone with that root-path (an NFS root asked
# for) ends in a message that asks only for the word not given.
case_iscsi_dracut_dhcp() {
	local rc=0 start
	NET_IMG=$(iscsi_image plain) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	iscsi_target_start && net_dhcp_start "iscsi:$NET_SERVER:::1:$ISCSI_IQN:root" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot dracut-words "root=/dev/root netroot=dhcp ip=lan0:dhcp ifname=lan0:$NET_MAC rd.iscsi.initiator=iqn.2026-02.test:dracut rd.shell=0"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:root" &&
		assert_log "$NET_LOG" "iSCSI: the root is the LUN's disk /dev/sd" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease lan0 $NET_GUEST" &&
		assert_log "$NET_LOG" "as iqn.2026-02.test:dracut" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot netroot-dhcp-alone "netroot=dhcp rd.shell=0"
		net_assert_failed "$NET_LOG" "DHCP's root-path on eth0 names an iSCSI target, but the command line asks for an NFS root; give root=/dev/root (the LUN's disk) or a root= naming the filesystem on the LUN (root=LABEL=...) (docs/iscsi.md)" "$start" || rc=1
	fi
	iscsi_down
	return $rc
}

# CHAP: the secret built into the image logs in (the image is 0600 and
# lifeboat ls says it carries secrets); a wrong one on the kernel command
# line is refused at once with a message and no retry; an unreachable
# target is tried again until rd.timeout ends it; a LUN the target does
# not have ends within rd.timeout. No secret reaches the console.
case_iscsi_chap_failures() {
	local rc=0 start img
	img=$(iscsi_image chap --cmdline "rd.iscsi.username=$ISCSI_USER rd.iscsi.password=$ISCSI_SECRET") || return 1
	NET_IMG=$img
	[ "$(stat -c %a "$img")" = 600 ] || { echo "the image with secrets is not mode 0600"; return 1; }
	"$BUILD/lifeboat" ls "$img" >"$CASE_DIR/ls.txt" 2>&1
	grep -q "note: this image carries secrets" "$CASE_DIR/ls.txt" ||
		{ echo "lifeboat ls does not say the image carries secrets"; return 1; }
	! grep -q -- "$ISCSI_SECRET" "$CASE_DIR/ls.txt" || { echo "lifeboat ls shows the secret"; return 1; }
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	iscsi_target_start && net_dhcp_start || rc=1
	if [ $rc -eq 0 ]; then
		net_boot chap "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:chap root=LABEL=lbext4 rd.shell=0"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:chap" &&
		assert_log "$NET_LOG" "with CHAP" &&
		iscsi_assert_no_secret "$NET_LOG" "$ISCSI_SECRET" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot chap-wrong "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:chap root=LABEL=lbext4 rd.iscsi.password=Wrong-Secret-1 rd.shell=0"
		net_assert_failed "$NET_LOG" "iSCSI root: logging in to the iSCSI target $ISCSI_IQN:chap at $NET_SERVER:3260 failed (iscsistart exit status 24): authorization failed" "$start" &&
		assert_not_log "$NET_LOG" "(try 2)" &&
		iscsi_assert_no_secret "$NET_LOG" "Wrong-Secret-1" &&
		iscsi_assert_no_secret "$NET_LOG" "$ISCSI_SECRET" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot unreachable "netroot=iscsi:$NET_SERVER::3261::$ISCSI_IQN:root root=LABEL=lbext4 rd.timeout=20 rd.shell=0"
		net_assert_failed "$NET_LOG" "iSCSI root: logging in to the iSCSI target $ISCSI_IQN:root at $NET_SERVER:3261 did not succeed within" "$start" &&
		assert_log "$NET_LOG" "(try 2)" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		# rd.timeout= counts from the network's start: DHCP and the login
		# fit in it, the wait for the LUN's disk ends with it.
		net_boot no-lun "netroot=iscsi:$NET_SERVER:::5:$ISCSI_IQN:root rd.timeout=15 rd.shell=0"
		net_assert_failed "$NET_LOG" "iSCSI root: the iSCSI target $ISCSI_IQN:root gave no disk at the LUN named within rd.timeout" "$start" || rc=1
	fi
	iscsi_down
	return $rc
}

# rd.iscsi.firmware: qemu gets an iBFT as an ACPI table (tests/boot/ibft-table.py)
# naming the CHAP target with its account; the init reads it from
# /sys/firmware/ibft (iscsi_ibft) and logs in with the firmware's initiator
# name. Then mutual CHAP from rd.iscsi.username= and the others, and a
# target that answers with another secret than expected. No secret reaches
# the console.
case_iscsi_firmware_mutual() {
	local rc=0
	NET_IMG=$(iscsi_image plain) || return 1
	python3 "$(dirname "${BASH_SOURCE[0]}")/ibft-table.py" "$CASE_DIR/ibft.bin" iqn.2026-02.test:firmware \
		"$NET_MAC" "$NET_SERVER" 3260 "$ISCSI_IQN:chap" "$ISCSI_USER" "$ISCSI_SECRET" ||
		{ echo "making the iBFT failed"; return 1; }
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	iscsi_target_start && net_dhcp_start || rc=1
	if [ $rc -eq 0 ]; then
		net_boot firmware "rd.iscsi.firmware root=LABEL=lbext4 rd.shell=0" \
			-acpitable "sig=iBFT,rev=1,oem_id=LBOOT,oem_table_id=LIFEBOAT,data=$CASE_DIR/ibft.bin"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:chap" &&
		assert_log "$NET_LOG" "as iqn.2026-02.test:firmware with CHAP" &&
		iscsi_assert_no_secret "$NET_LOG" "$ISCSI_SECRET" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_boot mutual "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:mutual root=LABEL=lbext4 rd.shell=0 rd.iscsi.username=$ISCSI_USER rd.iscsi.password=$ISCSI_SECRET rd.iscsi.in.username=$ISCSI_TGT_USER rd.iscsi.in.password=$ISCSI_TGT_SECRET"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:mutual" &&
		iscsi_assert_no_secret "$NET_LOG" "$ISCSI_SECRET" &&
		iscsi_assert_no_secret "$NET_LOG" "$ISCSI_TGT_SECRET" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		# The target answering with another secret than the one expected.
		local start
		start=$(date +%s)
		net_boot mutual-wrong "netroot=iscsi:$NET_SERVER::::$ISCSI_IQN:mutual root=LABEL=lbext4 rd.shell=0 rd.timeout=10 rd.iscsi.username=$ISCSI_USER rd.iscsi.password=$ISCSI_SECRET rd.iscsi.in.username=$ISCSI_TGT_USER rd.iscsi.in.password=Not-The-Target-Secret"
		net_assert_failed "$NET_LOG" "iSCSI root: logging in to the iSCSI target $ISCSI_IQN:mutual at $NET_SERVER:3260 failed (iscsistart exit status 19): the login was refused.*rd.iscsi.in.password=" "$start" &&
		assert_not_log "$NET_LOG" "(try 2)" &&
		iscsi_assert_no_secret "$NET_LOG" "$ISCSI_SECRET" || rc=1
	fi
	iscsi_down
	return $rc
}

# CHAP credentials that come from DHCP (root-path iscsi:USER:SECRET@...)
# log in, and leave no trace: the real root's init (test-init) reads the
# kernel log, its environment and every file under /run for the secret, given to it in hex
# so the kernel's echo of its command line does not hold it.
# net.eth0.conf names the target without the credentials, mode 0600.
case_iscsi_dhcp_chap_secret() {
	local rc=0 hex
	NET_IMG=$(iscsi_image plain) || return 1
	hex=$(printf %s "$ISCSI_SECRET" | od -An -tx1 | tr -d ' \n')
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	trap 'iscsi_down' EXIT
	iscsi_target_start &&
		net_dhcp_start "iscsi:$ISCSI_USER:$ISCSI_SECRET@$NET_SERVER::::$ISCSI_IQN:chap" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot dhcp-chap "netroot=dhcp root=LABEL=lbext4 rd.shell=0 lifeboat.test.nosecret=$hex"
		iscsi_assert_root "$NET_LOG" "$ISCSI_IQN:chap" &&
		assert_log "$NET_LOG" "with CHAP" &&
		assert_log "$NET_LOG" "root-path 'iscsi:\*@$NET_SERVER::::$ISCSI_IQN:chap'" &&
		assert_log "$NET_LOG" "netconf ROOT_PATH=iscsi:$NET_SERVER::::$ISCSI_IQN:chap$" &&
		assert_log "$NET_LOG" "mode /run/initramfs/net.eth0.conf 600$" &&
		assert_log "$NET_LOG" "secrets: none in the kernel log, the environment and [1-9][0-9]* files under /run" &&
		assert_not_log "$NET_LOG" "$ISCSI_SECRET" || rc=1
	fi
	iscsi_down
	return $rc
}
