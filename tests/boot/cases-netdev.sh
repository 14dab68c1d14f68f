# cases-netdev.sh: network roots over interfaces the command line makes or
# names: a tagged VLAN, an active-backup bond with its first NIC's link
# down, a bridge, BOOTIF= and ifname= (sourced by run.sh after
# cases-net.sh, whose namespace, servers and net_boot they use).

NET_MAC2=52:54:00:00:00:02

# VLAN 5 as a switch port would carry it: the guest's first NIC is a UDP
# socket to tests/boot/vlan-relay.py, which passes frames tagged 5 untagged
# to tapv on the bridge (and tags what comes back), and drops the rest.
net_vlan_port() {
	ip -n "$NET_NS" tuntap add dev tapv mode tap &&
	ip -n "$NET_NS" link set tapv master br0 &&
	ip -n "$NET_NS" link set tapv up || return 1
	setsid ip netns exec "$NET_NS" python3 "$(dirname "$0")/vlan-relay.py" tapv 5 5601 5600 \
		>"$CASE_DIR/vlan-relay.log" 2>&1 &
	NET_PIDS+=($!)
	NET_NETDEV0=socket,id=n0,udp=127.0.0.1:5601,localaddr=127.0.0.1:5600
}

# An active-backup bond of two NICs (named by ifname= from their MACs)
# whose first has no link from the start: the bond's second reaches DHCP
# and the NFS root. Then a bridge over one NIC, and BOOTIF= choosing the
# second of two NICs with no interface named (the first, on the bus
# before it and on a network with no DHCP server, is never asked). Last, a
# tagged VLAN: the guest's port carries VLAN 5 only.
case_net_netdevs() {
	local rc=0 nic2 dev
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start && net_dhcp_start "$NET_SERVER:/nfsroot" || rc=1
	nic2=$(net_nic tap2 $NET_MAC2 0x6)
	if [ $rc -eq 0 ]; then
		qemu_monitor "$CASE_DIR/bond.mon" "set_link n0 off" "cont" &
		# shellcheck disable=SC2086
		net_boot bond "ifname=lan0:$NET_MAC ifname=lan1:$NET_MAC2 ip=bond0:dhcp \
bond=bond0:lan0,lan1:mode=active-backup,miimon=100" $nic2 -S \
			-monitor "unix:$CASE_DIR/bond.mon,server=on,wait=off"
		wait $!
		net_assert_nfs_root_on "$NET_LOG" bond0 &&
		assert_log "$NET_LOG" "ifname=lan0:$NET_MAC: eth[0-9] is now lan0" &&
		assert_log "$NET_LOG" "bond=bond0:lan0,lan1:mode=active-backup,miimon=100: bond0 made" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_boot bridge "bridge=br0:eth0 ip=br0:dhcp"
		net_assert_nfs_root_on "$NET_LOG" br0 || rc=1
	fi
	if [ $rc -eq 0 ]; then
		# shellcheck disable=SC2046
		net_boot bootif "BOOTIF=01-${NET_MAC//:/-} ip=dhcp" $(net_nic tap1 52:54:00:00:00:09 0x4)
		# The kernel's names follow the probe order: the NIC is found by its MAC.
		dev=$(sed -n 's/.*BOOTIF: the firmware booted from \(eth[0-9]\).*/\1/p' "$NET_LOG" | head -n 1)
		[ -n "$dev" ] && net_assert_nfs_root_on "$NET_LOG" "$dev" &&
		[ "$(grep -c "asking for an address on" "$NET_LOG")" -eq 1 ] || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_vlan_port && net_boot vlan "vlan=vlan5:eth0 ip=vlan5:dhcp" &&
		net_assert_nfs_root_on "$NET_LOG" vlan5 || rc=1
		NET_NETDEV0=
	fi
	net_ns_down
	return $rc
}

# net_wait_dhcp TAP: until a DHCP request (DHCPv4 to port 67, or DHCPv6
# to port 547) comes out of the guest on TAP (at most 120 s). The console
# cannot say when: the kernel may print a line of the init's many seconds
# after it was written.
net_wait_dhcp() {
	ip netns exec "$NET_NS" python3 - "$1" <<-'EOT'
	import socket, sys
	# ETH_P_ALL: a bridge port's frames reach only the sockets of every
	# protocol (the bridge takes them before IPv4's are handed out).
	s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
	s.bind((sys.argv[1], 0))
	s.settimeout(120)
	while True:
	    f = s.recv(2048)
	    if len(f) >= 42 and f[12:14] == b"\x08\x00":
	        ihl = (f[14] & 15) * 4
	        if f[23] == 17 and f[14 + ihl + 2:14 + ihl + 4] == b"\x00\x43":
	            break
	    # IPv6 with UDP as its next header (no extension headers: DHCPv6's).
	    if len(f) >= 62 and f[12:14] == b"\x86\xdd" and f[20] == 17 and f[56:58] == b"\x02\x23":
	        break
	EOT
}

# A carrier that comes while DHCP runs, as reported (a virtio NIC on no
# DHCP server, an e1000 on one): the virtio NIC in slot 4 is on nothing;
# the e1000 in slot 5 (the DHCP server's bridge, $NET_MAC) starts with its
# link off (qemu's -S, then set_link on its monitor) and gets it once the
# init asks on the other (the first DHCP request on tap1). It joins the race
# at once: its lease comes long before the other's 30 s are over (it came
# at 35 s of uptime when it was asked only after them). The kernel names
# the NICs in the order their drivers probed, so the case goes by what the
# console says, not by name.
case_net_late_carrier() {
	local rc=0 mon=$CASE_DIR/late.mon qpid asked lease
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start && net_dhcp_start "$NET_SERVER:/nfsroot" || rc=1
	if [ $rc -eq 0 ]; then
		qemu_monitor "$mon" "set_link n0 off" "cont" &
		# shellcheck disable=SC2046
		NET_NIC0_MODEL=e1000 net_boot late-carrier "root=dhcp ip=dhcp rd.shell=0" \
			$(net_nic tap1 52:54:00:00:00:09 0x4) -S -monitor "unix:$mon,server=on,wait=off" &
		qpid=$!
		net_wait_dhcp tap1 || rc=1
		qemu_monitor "$mon" "set_link n0 on" || rc=1
		wait "$qpid"
		NET_LOG=$CASE_DIR/late-carrier.log.txt
		[ $rc -ne 0 ] || { assert_root_reached "$NET_LOG" &&
			assert_log "$NET_LOG" "timeline [0-9.]* lease eth[01] $NET_GUEST dhcp"; } || rc=1
		asked=$(net_uptime "$NET_LOG" "DHCP: asking for an address on eth")
		lease=$(sed -n "s/.*timeline \([0-9.]*\) lease eth[01] $NET_GUEST .*/\1/p" "$NET_LOG" | head -n1)
		net_assert_gap "from the race's start to the late NIC's lease" "$asked" "$lease" 15 \
			"it waited for the other NIC's DHCP time" || rc=1
	fi
	net_ns_down
	return $rc
}

# net_assert_nfs_root_on LOG IFACE: the lease on IFACE, the NFS root mounted.
net_assert_nfs_root_on() {
	assert_root_reached "$1" &&
	assert_log "$1" "timeline [0-9.]* lease $2 $NET_GUEST dhcp" &&
	assert_log "$1" "timeline [0-9.]* mounted $NET_SERVER:/nfsroot"
}

# A malformed word and a missing parent end the boot with one message
# naming the word, within seconds; no DHCP server is needed to see it.
case_net_netdev_failures() {
	local rc=0 start
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	start=$(date +%s)
	net_boot bad-bond "bond=bond0:eth0:mode=fastest ip=bond0:dhcp rd.shell=0"
	net_assert_failed "$NET_LOG" "network root: bond=bond0:eth0:mode=fastest: bond option 'mode=fastest' is malformed" "$start" || rc=1
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot no-parent "vlan=vlan5:eth7 ip=vlan5:dhcp rd.net.timeout.iflink=3 rd.shell=0"
		net_assert_failed "$NET_LOG" "network root: vlan=vlan5:eth7: the interface eth7 does not exist" "$start" || rc=1
	fi
	net_ns_down
	return $rc
}
