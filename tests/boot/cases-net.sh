# cases-net.sh: network root boots (sourced by run.sh). Everything runs in a
# network namespace each case creates: a bridge (198.51.100.1/24) and a tap
# for qemu, dnsmasq for DHCP, nfs-ganesha (VFS) with rpcbind for NFSv3 and
# NFSv4. Nothing touches the host's network; the case ends the processes it
# started by PID and deletes the namespace. Setup notes:
# /work/shared/reference/netboot-in-qemu.md.

NET_SERVER=198.51.100.1
NET_MAC=52:54:00:00:00:01
NET_GUEST=198.51.100.11
# IPv6: the namespace's bridge, and the guest's static address.
NET6_SERVER=2001:db8::1
NET6_GUEST=2001:db8::21
# Where ganesha listens (net_nfs_start); an IPv6 case sets $NET6_SERVER.
NET_NFS_BIND=$NET_SERVER

# The image with the network modules, made once per run (cases may run in
# parallel: the lock keeps one builder).
net_image() {
	cached_image net --generic --net
}

net_ns_up() {
	NET_NS=lbnet-$BASHPID-$RANDOM
	NET_PIDS=()
	ip netns add "$NET_NS" || return 1
	# A case stopped half-way (the run interrupted) still cleans up.
	trap 'net_ns_down' EXIT
	trap 'net_ns_down; exit 1' TERM INT
	ip -n "$NET_NS" link set lo up &&
	ip -n "$NET_NS" link add br0 type bridge &&
	ip -n "$NET_NS" link set br0 type bridge stp_state 0 forward_delay 0 &&
	ip -n "$NET_NS" addr add "$NET_SERVER/24" dev br0 &&
	ip -n "$NET_NS" addr add "$NET6_SERVER/64" dev br0 nodad &&
	ip -n "$NET_NS" link set br0 up &&
	ip -n "$NET_NS" tuntap add dev tap0 mode tap &&
	ip -n "$NET_NS" link set tap0 master br0 &&
	ip -n "$NET_NS" link set tap0 up &&
	# tap1 leads nowhere: a NIC that no DHCP server answers on; tap2 is a
	# second NIC on the bridge.
	ip -n "$NET_NS" tuntap add dev tap1 mode tap &&
	ip -n "$NET_NS" link set tap1 up &&
	ip -n "$NET_NS" tuntap add dev tap2 mode tap &&
	ip -n "$NET_NS" link set tap2 master br0 &&
	ip -n "$NET_NS" link set tap2 up
}

# A second NIC for net_boot: net_nic TAP MAC PCI-SLOT
net_nic() {
	echo "-netdev tap,id=n$1,ifname=$1,script=no,downscript=no -device virtio-net-pci,netdev=n$1,mac=$2,addr=$3"
}

# Ends what the case started (by PID), then the namespace with its devices.
net_ns_down() {
	local pid
	for pid in "${NET_PIDS[@]}"; do
		kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null
	done
	sleep 0.5
	for pid in "${NET_PIDS[@]}"; do
		kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	NET_PIDS=()
	[ -z "${NET_NS:-}" ] || ip netns del "$NET_NS" 2>/dev/null
	NET_NS=
}

# net_dhcp_start [ROOT_PATH]: dnsmasq, DHCP only, the guest at $NET_GUEST.
# With NET_DNS_RECORD=NAME,ADDRESS it also answers DNS on the bridge for
# that one name (and nothing else: no upstream, no hosts file).
net_dhcp_start() {
	local opts=() dns=(--port=0)
	[ -z "${1:-}" ] || opts=(--dhcp-option=option:root-path,"$1")
	[ -z "${NET_DNS_RECORD:-}" ] ||
		dns=(--no-resolv --no-hosts --host-record="$NET_DNS_RECORD" --log-queries)
	setsid ip netns exec "$NET_NS" dnsmasq --no-daemon --conf-file=/dev/null "${dns[@]}" \
		--interface=br0 --bind-interfaces --except-interface=lo \
		--dhcp-range=198.51.100.100,198.51.100.150,255.255.255.0,1h --dhcp-authoritative \
		--no-ping --dhcp-leasefile="$CASE_DIR/dnsmasq.leases" --log-dhcp \
		--dhcp-host="$NET_MAC,$NET_GUEST" --dhcp-option=option:dns-server,"$NET_SERVER" \
		--dhcp-option=option:domain-name,lifeboat.test \
		"${opts[@]}" >"$CASE_DIR/dnsmasq.log" 2>&1 &
	NET_PIDS+=($!)
	NET_DHCP_PID=$!
}

# net_dhcp6_start BOOT_FILE_URL: dnsmasq with router advertisements (the
# prefix with the A flag, for SLAAC, and M, for DHCPv6) and DHCPv6 on
# 2001:db8::/64, a name server and the boot file URL (option 59). No DHCPv4.
net_dhcp6_start() {
	setsid ip netns exec "$NET_NS" dnsmasq --no-daemon --conf-file=/dev/null --port=0 \
		--interface=br0 --bind-interfaces --except-interface=lo \
		--dhcp-range=2001:db8::100,2001:db8::1ff,slaac,64,1h --enable-ra \
		--dhcp-authoritative --dhcp-leasefile="$CASE_DIR/dnsmasq.leases" --log-dhcp \
		--dhcp-option=option6:dns-server,"[$NET6_SERVER]" \
		--dhcp-option=option6:domain-search,lifeboat.test \
		--dhcp-option=option6:bootfile-url,"$1" >"$CASE_DIR/dnsmasq.log" 2>&1 &
	NET_PIDS+=($!)
	NET_DHCP_PID=$!
}

net_dhcp_stop() {
	kill -- "-$NET_DHCP_PID" 2>/dev/null
	wait "$NET_DHCP_PID" 2>/dev/null
}

# The export and ganesha (NFSv3 and v4, the NFSv4 minor versions $1, by
# default all three) with rpcbind on a private /run, so neither sees the
# host's rpcbind socket.
net_nfs_start() {
	local top dir minors=${1:-0, 1, 2}
	top=$(cd "$CASE_DIR" && pwd)   # ganesha wants absolute paths
	dir=$top/ganesha
	mkdir -p "$dir/recov"
	make_root_tree "$top/nfsroot"
	cat >"$dir/ganesha.conf" <<-EOT
	NFS_CORE_PARAM {
		Protocols = 3, 4; Bind_addr = $NET_NFS_BIND; NFS_Port = 2049; MNT_Port = 20048;
		Enable_RQUOTA = false; Enable_NLM = false; Enable_UDP = false; Mount_Path_Pseudo = true;
	}
	NFSv4 {
		Graceless = true; RecoveryBackend = fs; RecoveryRoot = $dir/recov;
		Minor_Versions = $minors; Allow_Numeric_Owners = true; Only_Numeric_Owners = true;
	}
	NFS_KRB5 { Active_krb5 = false; }
	EXPORT {
		Export_Id = 1; Path = $top/nfsroot; Pseudo = /nfsroot; Access_Type = RW;
		Squash = No_Root_Squash; Protocols = 3, 4; Transports = TCP; SecType = sys;
		FSAL { Name = VFS; }
	}
	LOG { Default_Log_Level = EVENT; }
	EOT
	setsid ip netns exec "$NET_NS" unshare -m --propagation private sh -c "
		mount -t tmpfs tmpfs /run && rpcbind -f -w & sleep 1
		exec ganesha.nfsd -F -f $dir/ganesha.conf -L $dir/ganesha.log -p $dir/ganesha.pid" \
		>"$dir/stdout.log" 2>&1 &
	NET_PIDS+=($!)
	net_wait_port 2049 && net_wait_port 20048
}

net_wait_port() {
	local i
	for i in $(seq 1 100); do
		ip netns exec "$NET_NS" ss -ltn | grep -qF "$NET_NFS_BIND]:$1 " && return 0
		ip netns exec "$NET_NS" ss -ltn | grep -qF "$NET_NFS_BIND:$1 " && return 0
		sleep 0.2
	done
	echo "nothing listened on $NET_SERVER:$1 (see the server's log in $CASE_DIR)"
	return 1
}

# net_boot_late NAME APPEND SECONDS START...: net_boot in the background,
# and SECONDS after the guest's first DHCP request run START (a server that
# comes up after its clients) in this shell; NET_LOG is the boot's console.
net_boot_late() {
	local name=$1 append=$2 delay=$3 qpid rc=0
	shift 3
	net_boot "$name" "$append" &
	qpid=$!
	net_wait_dhcp tap0 || rc=1
	sleep "$delay"
	"$@" || rc=1
	wait "$qpid"
	NET_LOG=$CASE_DIR/$name.log.txt
	return $rc
}

# net_boot NAME APPEND [QEMU-ARGS...]: one boot on the tap (or the first
# NIC's -netdev in NET_NETDEV0; its model is NET_NIC0_MODEL, virtio by
# default); the console goes to NAME.log.
net_boot() {
	local log=$CASE_DIR/$1.log append=$2
	shift 2
	timeout --foreground -k 5 "$QEMU_TIMEOUT" ip netns exec "$NET_NS" qemu-system-x86_64 \
		-accel tcg -cpu max -m 512 -nographic -no-reboot -monitor none -serial stdio \
		-kernel "$KERNEL" -initrd "$NET_IMG" -append "$GUEST_APPEND $append" "$@" \
		-netdev "${NET_NETDEV0:-tap,id=n0,ifname=tap0,script=no,downscript=no}" \
		-device "${NET_NIC0_MODEL:-virtio-net-pci},netdev=n0,mac=$NET_MAC,addr=0x5" </dev/null >"$log" 2>&1
	tr -d '\r' <"$log" >"$log.txt"
	NET_LOG=$log.txt
}

# The NFS root reached with the lease, the conf file and the mount as asked.
net_assert_nfs_root() {
	local log=$1 vers=$2
	assert_root_reached "$log" &&
	assert_log "$log" "rootmount $NET_SERVER:/nfsroot $vers " &&
	assert_log "$log" "timeline [0-9.]* lease eth0 $NET_GUEST" &&
	assert_log "$log" "timeline [0-9.]* mounted $NET_SERVER:/nfsroot"
}

# DHCP gives the address and the root-path; NFSv3 by default, NFSv4 from
# root=nfs4:, root=nfs:SERVER:/PATH with ip=dhcp, and a static ip= with no
# DHCP server present.
case_net_nfs_root() {
	local rc=0
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start && net_dhcp_start "$NET_SERVER:/nfsroot" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot dhcp-rootpath "ip=dhcp"
		net_assert_nfs_root "$NET_LOG" nfs || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_boot nfs4 "root=nfs4:$NET_SERVER:/nfsroot ip=dhcp rw"
		net_assert_nfs_root "$NET_LOG" nfs4 && assert_log "$NET_LOG" "rootmount .* rw,.*vers=4.2" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		cp --sparse=always "$DISKS/ext4.img" "$CASE_DIR/ext4.img"
		net_boot neednet "root=LABEL=lbext4 rd.neednet=1 ip=dhcp" \
			-drive "file=$CASE_DIR/ext4.img,format=raw,if=virtio"
		assert_root_reached "$NET_LOG" && assert_log "$NET_LOG" "rootmount /dev/vda ext4" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 $NET_GUEST dhcp" &&
		assert_log "$NET_LOG" "netconf ADDRESS=$NET_GUEST" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		# Two NICs on the bridge: bootdev= picks eth1, eth0 is never asked.
		# shellcheck disable=SC2046
		net_boot bootdev "bootdev=eth1 ip=dhcp" $(net_nic tap2 52:54:00:00:00:02 0x6)
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth1 198.51.100.1[0-9]* dhcp" &&
		assert_not_log "$NET_LOG" "asking for an address on eth0" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_dhcp_stop
		net_boot static "root=nfs:$NET_SERVER:/nfsroot:vers=3 ip=198.51.100.21::$NET_SERVER:255.255.255.0:guest:eth0:none rd.net.timeout.dhcp=3"
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 198.51.100.21 static" || rc=1
	fi
	net_ns_down
	return $rc
}

# net_assert_gap WHAT FROM TO MAX WHY: from FROM to TO (seconds of uptime)
# is less than MAX; both go to the case's measure file.
net_assert_gap() {
	echo "$1: ${2:-?} s to ${3:-?} s of uptime" >>"$CASE_DIR/measure"
	awk -v a="${2:-0}" -v b="${3:-99999}" -v m="$4" 'BEGIN { exit !(b - a < m) }' ||
		{ echo "$1: ${2:-?} s to ${3:-?} s of uptime, not under $4 s: $5"; return 1; }
}

# Two NICs, only the second (slot 5) on the DHCP server's bridge, the first
# (slot 4) on nothing, no bootdev= and the default DHCP time (30 s): DHCP
# asks on both at once, so the lease comes as fast as with one NIC. The root
# is named on the command line, not taken from the DHCP root-path.
case_net_every_nic() {
	local rc=0 carrier lease
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start && net_dhcp_start "$NET_SERVER:/nfsroot" || rc=1
	if [ $rc -eq 0 ]; then
		# shellcheck disable=SC2046
		net_boot every-nic "root=nfs:$NET_SERVER:/nfsroot ip=dhcp" \
			$(net_nic tap1 52:54:00:00:00:09 0x4)
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth[01] $NET_GUEST dhcp" || rc=1
		# From the carrier to the lease: before, 30 s (the DHCP time on the
		# first NIC) and more; asking both at once, a fraction of a second.
		carrier=$(sed -n 's/.*timeline \([0-9.]*\) carrier .*/\1/p' "$NET_LOG" | head -n1)
		lease=$(sed -n 's/.*timeline \([0-9.]*\) lease eth[01] .*/\1/p' "$NET_LOG" | head -n1)
		net_assert_gap "from the carrier to the lease" "$carrier" "$lease" 5 \
			"a NIC without a server held DHCP up" || rc=1
	fi
	net_ns_down
	return $rc
}

# IPv6 only: the guest gets no IPv4 address, ganesha listens on
# [$NET6_SERVER] alone. DHCPv6 gives the address and the root (the boot
# file URL); SLAAC (ip=auto6) with the root on the command line; a static
# ip=[ADDR]. Each address is used only once DAD is done.
case_net_ipv6_root() {
	local rc=0 url="nfs4://[$NET6_SERVER]/nfsroot"
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	NET_NFS_BIND=$NET6_SERVER
	net_nfs_start && net_dhcp6_start "$url" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot dhcp6 "ip=dhcp6"
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 2001:db8::1[0-9a-f][0-9a-f] dhcp6" &&
		assert_log "$NET_LOG" "timeline [0-9.]* mounted \[$NET6_SERVER\]:/nfsroot nfs4" &&
		assert_log "$NET_LOG" "netconf METHOD=dhcp6" &&
		assert_log "$NET_LOG" "netconf DNS6_0=$NET6_SERVER" &&
		assert_log "$NET_LOG" "netconf BOOT_URL=nfs4://\[$NET6_SERVER\]/nfsroot" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_boot auto6 "ip=auto6 root=nfs:[$NET6_SERVER]:/nfsroot:vers=4.2"
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 2001:db8::5054:ff:fe00:1 auto6" &&
		assert_log "$NET_LOG" "timeline [0-9.]* mounted \[$NET6_SERVER\]:/nfsroot nfs4" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		net_dhcp_stop
		net_boot static6 "ip=[$NET6_GUEST]::[$NET6_SERVER]:64::eth0:none root=nfs4:[$NET6_SERVER]:/nfsroot"
		assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 $NET6_GUEST static" || rc=1
	fi
	net_ns_down
	return $rc
}

# A server with NFSv4.0 alone: root=nfs4: asks for 4.2, is refused, and
# steps down to 4.1, then 4.0, which mounts.
case_net_nfs4_minor_stepdown() {
	local rc=0
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start 0 && net_dhcp_start "$NET_SERVER:/nfsroot" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot nfs40 "root=nfs4:$NET_SERVER:/nfsroot ip=dhcp"
		net_assert_nfs_root "$NET_LOG" nfs4 &&
		assert_log "$NET_LOG" "rootmount .*vers=4.0" &&
		assert_log "$NET_LOG" "the server has no NFSv4.2; trying vers=4.1," &&
		assert_log "$NET_LOG" "the server has no NFSv4.1; trying vers=4.0," || rc=1
	fi
	net_ns_down
	return $rc
}

# net_assert_failed LOG TEXT START: the boot stopped with TEXT, did not reach
# the root and did not hang.
net_assert_failed() {
	local log=$1 text=$2 start=$3
	assert_not_log "$log" "LIFEBOAT-TEST: root reached" &&
	assert_log "$log" "$text" &&
	{ [ $(( $(date +%s) - start )) -lt 90 ] || { echo "the failing boot took too long: $text"; return 1; }; }
}

# net_uptime LOG TEXT: the kernel's timestamp (seconds of uptime) of the
# first console line "lifeboat: TEXT...".
net_uptime() {
	sed -n "s/^\[ *\([0-9.]*\)\] lifeboat: $2.*/\1/p" "$1" | head -n 1
}

# net_assert_within LOG SECONDS [NAME]: from the init's start to the failure
# it reports (then writes in the rescue report), by the guest's own clock, at
# most SECONDS.
net_assert_within() {
	local start end
	start=$(net_uptime "$1" "starting; the root is on")
	end=$(net_uptime "$1" "boot failed: ")
	echo "${3:-boot}: the init started at ${start:-?} s, failed at ${end:-?} s of uptime" >>"$CASE_DIR/measure"
	[ -n "$start" ] && [ -n "$end" ] || { echo "no start or failure time on the console"; return 1; }
	awk -v s="$start" -v e="$end" -v m="$2" 'BEGIN { exit !(e - s <= m) }' ||
		{ echo "the failure came $start..$end s of uptime, more than $2 s after the start"; return 1; }
}

# A DHCP server that comes up 45 s after the client's first DISCOVER, no
# timeout word given (issue 39): the client keeps asking until rd.timeout,
# says once that it still waits, and asks again within the backoff's cap
# (16 s, 2 s before the end at the latest) after the server is up; the
# root is reached.
case_net_late_dhcp_server() {
	local rc=0
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_nfs_start || rc=1
	if [ $rc -eq 0 ]; then
		QEMU_TIMEOUT=300 net_boot_late late-dhcp "root=dhcp ip=dhcp rd.shell=0" 45 net_dhcp_lease_after || rc=1
		[ -n "$NET_LEASE_AFTER" ] && [ "$NET_LEASE_AFTER" -le 20 ] ||
			{ echo "no lease within 20 s of the server's start (lease after ${NET_LEASE_AFTER:-} s)"; rc=1; }
		[ $rc -ne 0 ] || { net_assert_nfs_root "$NET_LOG" nfs &&
			assert_log "$NET_LOG" "no server has answered on eth0 for 30 s; still asking"; } || rc=1
	fi
	net_ns_down
	return $rc
}

# net_dhcp_lease_after: dnsmasq started now; NET_LEASE_AFTER is how many
# seconds later the guest held its lease (empty: not within 60 s).
net_dhcp_lease_after() {
	local up
	net_dhcp_start "$NET_SERVER:/nfsroot"
	up=$SECONDS
	NET_LEASE_AFTER=
	while [ $((SECONDS - up)) -lt 60 ]; do
		grep -q " $NET_GUEST " "$CASE_DIR/dnsmasq.leases" 2>/dev/null &&
			{ NET_LEASE_AFTER=$((SECONDS - up)); return 0; }
		sleep 0.5
	done
}

# The same for DHCPv6: the server (and its router advertisements) up 45 s
# after the first SOLICIT, ip=dhcp6 with no timeout word: the root from the
# boot file URL is reached (issue 39).
case_net_late_dhcp6_server() {
	local rc=0
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	NET_NFS_BIND=$NET6_SERVER
	net_nfs_start || rc=1
	[ $rc -ne 0 ] || QEMU_TIMEOUT=240 net_boot_late late-dhcp6 "ip=dhcp6 rd.shell=0" 45 \
		net_dhcp6_start "nfs4://[$NET6_SERVER]/nfsroot" || rc=1
	[ $rc -ne 0 ] || { assert_root_reached "$NET_LOG" &&
		assert_log "$NET_LOG" "timeline [0-9.]* lease eth0 2001:db8::1[0-9a-f][0-9a-f] dhcp6" &&
		assert_log "$NET_LOG" "no server has answered on eth0 for 30 s; still asking"; } || rc=1
	net_ns_down
	return $rc
}

# The NFS server up 10 s after the lease (dnsmasq answers first, ganesha
# is still starting): the mount is tried again with a growing pause until
# rd.timeout, and the root is reached (issue 39).
case_net_late_nfs_server() {
	local rc=0
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_dhcp_start "$NET_SERVER:/nfsroot"
	QEMU_TIMEOUT=240 net_boot_late late-nfs "root=dhcp ip=dhcp rd.shell=0" 10 net_nfs_start || rc=1
	[ $rc -ne 0 ] || { net_assert_nfs_root "$NET_LOG" nfs &&
		assert_log "$NET_LOG" "mounting $NET_SERVER:/nfsroot failed: .*; trying again"; } || rc=1
	net_ns_down
	return $rc
}

# What fails ends in a clear message within its deadline, and a summary of
# the interfaces (not of the block devices): a DHCP server that
# never answers, a DHCPv6 one that never answers either, within rd.timeout
# (shorter than rd.net.timeout.dhcp's 30 s), an NFS server that refuses
# (retried until rd.timeout), an export path the server does not have.
case_net_failures() {
	local rc=0 start static="ip=198.51.100.21:::255.255.255.0::eth0:none rd.shell=0"
	NET_IMG=$(net_image) || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	start=$(date +%s)
	net_boot no-dhcp "ip=dhcp rd.net.timeout.dhcp=4 rd.shell=0"
	# The summary lists what an NFS root needs: the interface, its link,
	# address and lease; not the CD drive, which cannot be the root.
	net_assert_failed "$NET_LOG" "network root: no DHCP server answered on eth0 within 4 s" "$start" &&
	assert_log "$NET_LOG" "lifeboat: network interfaces:" &&
	assert_log "$NET_LOG" "  eth0 $NET_MAC: carrier yes, state up" &&
	assert_log "$NET_LOG" "    no lease" &&
	assert_not_log "$NET_LOG" "/dev/sr0" || rc=1
	if [ $rc -eq 0 ]; then
		# No router, no DHCPv6 server: rd.timeout=10 ends the 30 s DHCPv6
		# wait; the margin is for a loaded machine, the wait alone was 30 s.
		start=$(date +%s)
		net_boot no-dhcp6 "ip=dhcp6 rd.timeout=10 rd.shell=0"
		net_assert_failed "$NET_LOG" "network root: no DHCPv6 server answered on eth0 within [0-9]* s;.* raise rd.timeout=," "$start" &&
		net_assert_within "$NET_LOG" 22 no-dhcp6 || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		# rd.timeout counts from the network step's start (the carrier, the
		# NFS modules): 15 s leave several retries on a loaded machine.
		net_boot refused "root=nfs:$NET_SERVER:/nfsroot rd.timeout=15 $static"
		net_assert_failed "$NET_LOG" "mounting the NFS root $NET_SERVER:/nfsroot failed: Connection refused" "$start" &&
		assert_log "$NET_LOG" "trying again" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_nfs_start &&
		net_boot wrong-path "root=nfs4:$NET_SERVER:/nosuch $static" &&
		net_assert_failed "$NET_LOG" "mounting the NFS root $NET_SERVER:/nosuch failed" "$start" || rc=1
	fi
	net_ns_down
	return $rc
}
