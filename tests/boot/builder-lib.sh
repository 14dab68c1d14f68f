# builder-lib.sh: what the disk builders' /sbin/init scripts share
# (tests/boot/stacks-build.sh, tests/boot/tpm-build.sh), sourced in the
# guest with BUILDER set to the builder's marker: the early mounts, and
# finding a disk by its virtio serial.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
fail() { echo "$BUILDER: FAILED: $*"; sync; poweroff -f; }
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /run/lock /run/cryptsetup /tmp
# The disk whose virtio serial is $1 (probe order is not the command line's).
disk() {
	for s in /sys/block/vd*/serial; do
		[ "$(cat "$s")" = "$1" ] && { d=${s%/serial}; echo "/dev/${d##*/}"; return; }
	done
	fail "no disk with serial $1"
}
