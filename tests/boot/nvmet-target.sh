#!/bin/sh
# nvmet-target.sh: the /init of the NVMe/TCP target guest of
# tests/boot/cases-nvmf.sh: Linux's own target (nvmet, nvmet-tcp), set up
# through configfs. One subsystem whose namespace 1 is the guest's virtio
# disk, open only to the initiator's host NQN, on two ports: IPv6 on a
# VLAN, IPv4 untagged. Its parameters come from the kernel command line
# (words without a dot reach init's environment): NVMET_NQN, NVMET_HOSTNQN,
# NVMET_VLAN, NVMET_ADDR6, NVMET_ADDR4. The kernel's messages (nvmet's
# "creating nvm controller", a "keep-alive timer ... expired") are on the
# console for the case to read.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "NVMET-TARGET: $*"; }
fail() { say "FAILED: $*"; poweroff -f; }
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
for m in virtio_pci virtio_net virtio_blk 8021q configfs nvmet nvmet_tcp; do
	modprobe "$m" || fail "modprobe $m"
done
mount -t configfs none /sys/kernel/config || fail "mounting configfs"
# iproute2's (busybox's shell would run its own applet for a bare "ip",
# which knows no nodad).
ip() { /usr/bin/ip "$@"; }
# The NIC and the disk are probed asynchronously.
i=0
while [ ! -e /sys/class/net/eth0 ] || [ ! -b /dev/vda ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "no eth0 or /dev/vda"
	sleep 0.1
done
ip link set eth0 up
ip link add link eth0 name "eth0.$NVMET_VLAN" type vlan id "$NVMET_VLAN" &&
	ip link set "eth0.$NVMET_VLAN" up &&
	ip -6 addr add "$NVMET_ADDR6/64" dev "eth0.$NVMET_VLAN" nodad &&
	ip addr add "$NVMET_ADDR4/24" dev eth0 || fail "the addresses"

N=/sys/kernel/config/nvmet
S=$N/subsystems/$NVMET_NQN
mkdir "$S" && echo 0 > "$S/attr_allow_any_host" &&
	mkdir "$N/hosts/$NVMET_HOSTNQN" && ln -s "$N/hosts/$NVMET_HOSTNQN" "$S/allowed_hosts/" &&
	mkdir "$S/namespaces/1" && echo -n /dev/vda > "$S/namespaces/1/device_path" &&
	echo 3a9c1f6e-0000-4000-8000-00000000b007 > "$S/namespaces/1/device_uuid" &&
	echo 1 > "$S/namespaces/1/enable" || fail "the subsystem"
# port PORT FAMILY ADDRESS
port() {
	mkdir "$N/ports/$1" && echo tcp > "$N/ports/$1/addr_trtype" &&
		echo "$2" > "$N/ports/$1/addr_adrfam" && echo "$3" > "$N/ports/$1/addr_traddr" &&
		echo 4420 > "$N/ports/$1/addr_trsvcid" && ln -s "$S" "$N/ports/$1/subsystems/"
}
port 1 ipv6 "$NVMET_ADDR6" && port 2 ipv4 "$NVMET_ADDR4" || fail "the ports"
say "ready: $NVMET_NQN at [$NVMET_ADDR6]:4420 (VLAN $NVMET_VLAN) and $NVMET_ADDR4:4420"
while :; do
	sleep 3600
done
