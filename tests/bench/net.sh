#!/bin/bash
# net.sh: a network root boot, lifeboat against initramfs-tools (BOOT=nfs,
# klibc ipconfig and nfsmount), in the same namespace, server and VM: the
# time from the kernel's "Run /init" to the DHCP lease and to the NFS root's
# init, as the serial console shows them (each line stamped as it arrives),
# median of N boots each; then the same over IPv6 only with ip=dhcp6.
# Everything runs in a private network namespace as in
# tests/boot/cases-net.sh.
#   WORK=build/bench-net tests/bench/net.sh [N]
set -u
source "$(dirname "$0")/../boot/lib.sh"
source "$(dirname "$0")/../boot/cases.sh"
source "$(dirname "$0")/../boot/cases-net.sh"
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
N=${1:-3}
CASE_DIR=$WORK/bench-net
mkdir -p "$CASE_DIR"
CASE_DIR=$(cd "$CASE_DIR" && pwd)

# initramfs-tools' image for an NFS root: its own configuration directory,
# so the host's /etc/initramfs-tools is not read.
itools_image() {
	local conf=$CASE_DIR/itools-conf
	mkdir -p "$conf/conf.d" "$conf/scripts" "$conf/hooks"
	sed 's/^MODULES=.*/MODULES=netboot/; s/^BOOT=.*/BOOT=nfs/' /etc/initramfs-tools/initramfs.conf \
		>"$conf/initramfs.conf" && touch "$conf/modules" &&
	mkinitramfs -d "$conf" -o "$CASE_DIR/itools.img" "$KVER" >"$CASE_DIR/itools-build.log" 2>&1
}

# boot_stamped IMAGE APPEND LOG: each console line prefixed with the seconds
# since qemu started, as it arrives.
boot_stamped() {
	timeout --foreground -k 5 "$QEMU_TIMEOUT" ip netns exec "$NET_NS" qemu-system-x86_64 \
		-accel tcg -cpu max -m 512 -nographic -no-reboot -monitor none -serial stdio \
		-kernel "$KERNEL" -initrd "$1" -append "$GUEST_APPEND $2" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no \
		-device virtio-net-pci,netdev=n0,mac=$NET_MAC </dev/null 2>&1 |
	python3 -u -c '
import sys, time
t0 = time.monotonic()
for line in sys.stdin.buffer:
    sys.stdout.write("%.3f %s\n" % (time.monotonic() - t0, line.decode("utf-8", "replace").rstrip("\r\n")))
' >"$3"
}

# "LEASE ROOT": seconds from "Run /init" to the lease line and to the root's init.
measure() {
	local log=$1 lease_re=$2
	awk -v re="$lease_re" '
		/Run \/init/ && !s { s = $1 }
		$0 ~ re && !l { l = $1 }
		/LIFEBOAT-TEST: root reached/ && !r { r = $1 }
		END { if (s && l && r) printf "%.2f %.2f\n", l - s, r - s; else print "fail fail" }' "$log"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# bench_row TOOL IMAGE ARGS LEASE-RE BOOTS: BOOTS boots, the row of medians.
bench_row() {
	local tool=$1 img=$2 args=$3 lease_re=$4 boots=$5 i
	for i in $(seq 1 "$boots"); do
		boot_stamped "$img" "$args" "$CASE_DIR/$tool-$i.log"
		measure "$CASE_DIR/$tool-$i.log" "$lease_re"
	done >"$CASE_DIR/$tool.times"
	printf '%-22s %7.1fM %8s %8s\n' "$tool" "$(echo "$(stat -c %s "$img") / 1048576" | bc -l)" \
		"$(cut -d' ' -f1 "$CASE_DIR/$tool.times" | median)" \
		"$(cut -d' ' -f2 "$CASE_DIR/$tool.times" | median)"
}

LB_IMG=$(net_image) || exit 1
itools_image || { echo "mkinitramfs failed: $CASE_DIR/itools-build.log"; exit 1; }
net_ns_up || exit 1
net_nfs_start && net_dhcp_start "$NET_SERVER:/nfsroot" || exit 1
printf '%-22s %8s %8s %8s  (%s boots, median; seconds from "Run /init")\n' tool image lease root "$N"
bench_row lifeboat "$LB_IMG" "ip=dhcp" "lifeboat: eth0: .* from DHCP" "$N"
bench_row initramfs-tools "$CASE_DIR/itools.img" "root=/dev/nfs nfsroot=$NET_SERVER:/nfsroot,tcp,v3 ip=dhcp" \
	"IP-Config: .* complete" "$N"
net_ns_down

# IPv6 only (BENCH_V6=0 leaves it out): a namespace of its own, dnsmasq's
# router advertisements and DHCPv6 with the boot file URL, ganesha on
# [2001:db8::1] alone. initramfs-tools 0.142 has no DHCPv6 (klibc ipconfig
# is IPv4 only): one boot, bounded, shows what it does with ip=dhcp6.
[ "${BENCH_V6:-1}" = 1 ] || exit 0
net_ns_up || exit 1
NET_NFS_BIND=$NET6_SERVER
net_nfs_start && net_dhcp6_start "nfs4://[$NET6_SERVER]/nfsroot" || exit 1
bench_row lifeboat-dhcp6 "$LB_IMG" "ip=dhcp6" "lifeboat: eth0: 2001:db8:.* by dhcp6" "$N"
QEMU_TIMEOUT=${BENCH_V6_ITOOLS_TIMEOUT:-90} bench_row initramfs-tools-dhcp6 "$CASE_DIR/itools.img" \
	"root=/dev/nfs nfsroot=[$NET6_SERVER]:/nfsroot,tcp,v4 ip=dhcp6" "IP-Config: .* complete" 1
grep -h "IP-Config\|ipconfig\|nfsmount\|Kernel panic" "$CASE_DIR/initramfs-tools-dhcp6-1.log" | tail -n 4
net_ns_down
