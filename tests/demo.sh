#!/bin/bash
# demo.sh (`sudo make demo`): install what is missing, build, make an image
# for the newest installed kernel, and boot it in qemu to a throwaway root
# disk whose init prints the boot timeline.
set -eu
cd "$(dirname "$0")/.."
tests/install-deps.sh
make -s all build/test-init
source tests/boot/lib.sh
KVER=$(newest_kernel)
[ -n "$KVER" ] || { echo "demo: no kernel in /boot; apt-get install linux-image-amd64" >&2; exit 1; }
DEMO=build/demo
mkdir -p "$DEMO"
echo "demo: building a generic image for kernel $KVER"
start=$(date +%s.%N)
build/lifeboat build --config /dev/null --generic --kver "$KVER" -o "$DEMO/initramfs.img"
end=$(date +%s.%N)
printf "demo: built %s (%s bytes) in %s s\n" "$DEMO/initramfs.img" \
	"$(stat -c %s "$DEMO/initramfs.img")" "$(awk -v a="$start" -v b="$end" "BEGIN { printf \"%.2f\", b - a }")"
make_root_tree "$DEMO/tree"
mkfs_image ext4 "$DEMO/root.img" 32 "$DEMO/tree" demoroot "$(cat /proc/sys/kernel/random/uuid)"
echo "demo: booting qemu (TCG) to root=LABEL=demoroot; the real root's init prints the timeline"
boot_qemu "$DEMO/console.log" "/boot/vmlinuz-$KVER" "$DEMO/initramfs.img" "root=LABEL=demoroot quiet" \
	-drive "file=$DEMO/root.img,format=raw,if=virtio" || true
grep -E 'lifeboat|LIFEBOAT-TEST' "$DEMO/console.log" | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g'
# No ^ anchor: with quiet, the firmware's terminal reset shares the line.
if grep -q 'LIFEBOAT-TEST: root reached' "$DEMO/console.log"; then
	echo "demo: the real root was reached. Full console log: $DEMO/console.log"
else
	echo "demo: the boot did not reach the root; see $DEMO/console.log" >&2
	exit 1
fi
