# cases-netdev.sh: network roots over interfaces the command line makes or
# names: a tagged VLAN, an active-backup bond with its first NIC's link
# down, a bridge, BOOTIF= and ifname= (sourced by run.sh after
# cases-net.sh, whose namespace, servers and net_boot they use).

NET_MAC2=52:54:00:00:00:02

# net_monitor SOCKET COMMAND...: once qemu's monitor listens on SOCKET, send
# each COMMAND (qemu was started with -S, so the guest has not run yet).
net_monitor() {
	python3 - "$@" <<-'EOT'
	import socket, sys, time
	path, cmds = sys.argv[1], sys.argv[2:]
	s = socket.socket(socket.AF_UNIX)
	for _ in range(200):
	    try:
	        s.connect(path)
	        break
	    except OSError:
	        time.sleep(0.05)
	for c in cmds:
	    s.sendall((c + "\n").encode())
	    time.sleep(0.2)
	s.close()
	EOT
}

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
		net_monitor "$CASE_DIR/bond.mon" "set_link n0 off" "cont" &
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
