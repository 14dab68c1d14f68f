#!/bin/bash
# net.sh: a network root boot, lifeboat against initramfs-tools (BOOT=nfs,
# klibc ipconfig and nfsmount), in the same namespace, server and VM: the
# time from the kernel's "Run /init" to the DHCP lease and to the NFS root's
# init, as the serial console shows them (each line stamped as it arrives),
# median of N boots each. Everything runs in a private network namespace as
# in tests/boot/cases-net.sh.
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

LB_IMG=$(net_image) || exit 1
itools_image || { echo "mkinitramfs failed: $CASE_DIR/itools-build.log"; exit 1; }
net_ns_up || exit 1
net_nfs_start && net_dhcp_start "$NET_SERVER:/nfsroot" || exit 1

declare -A tool_img=([lifeboat]=$LB_IMG [initramfs-tools]=$CASE_DIR/itools.img)
declare -A tool_args=([lifeboat]="ip=dhcp" \
	[initramfs-tools]="root=/dev/nfs nfsroot=$NET_SERVER:/nfsroot,tcp,v3 ip=dhcp")
declare -A tool_lease=([lifeboat]="lifeboat: eth0: .* from DHCP" [initramfs-tools]="IP-Config: .* complete")
printf '%-16s %8s %8s %8s  (%s boots, median; seconds from "Run /init")\n' tool image lease root "$N"
for tool in lifeboat initramfs-tools; do
	for i in $(seq 1 "$N"); do
		boot_stamped "${tool_img[$tool]}" "${tool_args[$tool]}" "$CASE_DIR/$tool-$i.log"
		measure "$CASE_DIR/$tool-$i.log" "${tool_lease[$tool]}"
	done >"$CASE_DIR/$tool.times"
	printf '%-16s %7.1fM %8s %8s\n' "$tool" \
		"$(echo "$(stat -c %s "${tool_img[$tool]}") / 1048576" | bc -l)" \
		"$(cut -d' ' -f1 "$CASE_DIR/$tool.times" | median)" \
		"$(cut -d' ' -f2 "$CASE_DIR/$tool.times" | median)"
done
net_ns_down
