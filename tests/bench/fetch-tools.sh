#!/bin/bash
# fetch-tools.sh: get the other initramfs generators the benchmark compares
# against, without installing them (dracut and tiny-initramfs conflict with
# the installed initramfs-tools).
#
# Usage: tests/bench/fetch-tools.sh        (as root; idempotent: .debs already
#        in build/bench/debs are not downloaded again)
#
# Downloads Debian's dracut, dracut-core, tiny-initramfs and
# tiny-initramfs-core with `apt-get download` into build/bench/debs and
# unpacks each with `dpkg -x` into build/bench/root-<package>. Then:
#  - dracut runs from there with its documented `dracutbasedir` variable
#    pointing at root-dracut-core/usr/lib/dracut (run.sh sets it), and the
#    package's own /etc/dracut.conf passed with --conf;
#  - mktirfs has its two install paths hard-coded (the config file and the
#    library directory, plus the functions file it sources), so a copy,
#    build/bench/root-tiny-initramfs-core/usr/sbin/mktirfs.local, is made with
#    those three paths rewritten to the unpacked tree and the config file
#    pointed at build/bench/tirfs.conf (the package's defaults: none set).
# Also installs, with apt-get, the host tools these need that are missing
# (dracut-core's dependencies cpio, kmod, udev, e2fsprogs; kpartx is needed
# only for multipath/dm setups and is not installed).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$TOP/build/bench}
DEBS=$BENCH/debs
PACKAGES="dracut dracut-core tiny-initramfs tiny-initramfs-core"

need=()
for tool in cpio:cpio kmod:kmod udevadm:udev mkfs.ext4:e2fsprogs \
	qemu-system-x86_64:qemu-system-x86 mkinitramfs:initramfs-tools; do
	command -v "${tool%%:*}" >/dev/null || need+=("${tool#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "fetch-tools: installing ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi

mkdir -p "$DEBS"
# apt-get download writes to the current directory; as root it warns that
# the _apt user cannot write there, which is harmless.
missing=()
for pkg in $PACKAGES; do
	ls "$DEBS/${pkg}_"*.deb >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
	(cd "$DEBS" && apt-get download "${missing[@]}" 2>&1 |
		grep -v '^W: Download is performed unsandboxed' || true)
fi

for pkg in $PACKAGES; do
	deb=$(ls "$DEBS/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n 1)
	[ -n "$deb" ] || { echo "fetch-tools: no .deb for $pkg in $DEBS" >&2; exit 1; }
	rm -rf "$BENCH/root-$pkg"
	mkdir -p "$BENCH/root-$pkg"
	dpkg -x "$deb" "$BENCH/root-$pkg"
	echo "fetch-tools: $(basename "$deb") -> $BENCH/root-$pkg"
done

# tiny-initramfs: a copy of mktirfs whose hard-coded paths lead to the tree.
tirfs=$BENCH/root-tiny-initramfs-core
: > "$BENCH/tirfs.conf"
sed -e "s|^CFGFILE=.*|CFGFILE=\"$BENCH/tirfs.conf\"|" \
	-e "s|^PKGLIBEXECDIR=\"|PKGLIBEXECDIR=\"$tirfs|" \
	-e "s|^\. /usr/share/tiny-initramfs/functions|. $tirfs/usr/share/tiny-initramfs/functions|" \
	"$tirfs/usr/sbin/mktirfs" > "$tirfs/usr/sbin/mktirfs.local"
chmod 0755 "$tirfs/usr/sbin/mktirfs.local"
grep -q "^CFGFILE=\"$BENCH" "$tirfs/usr/sbin/mktirfs.local" &&
	grep -q "^PKGLIBEXECDIR=\"$tirfs" "$tirfs/usr/sbin/mktirfs.local" &&
	grep -q "^\. $tirfs/" "$tirfs/usr/sbin/mktirfs.local" ||
	{ echo "fetch-tools: mktirfs changed; its paths were not rewritten" >&2; exit 1; }

[ -x "$BENCH/root-dracut-core/usr/lib/dracut/dracut-install" ] ||
	{ echo "fetch-tools: dracut-core has no dracut-install" >&2; exit 1; }
echo "fetch-tools: ready"
