#!/bin/sh
# chroot-cache.sh TARBALL: a Debian 12 root made by mmdebstrap from Debian's
# archive, as a tarball the package test unpacks afresh for each run. It
# keeps apt's lists and holds, downloaded but not installed, the kernel
# (linux-image-amd64) and initramfs-tools, so the test installs them without
# the network. Made once; delete the tarball to make it again.
set -eu
out=${1:?usage: chroot-cache.sh TARBALL}
[ -s "$out" ] && exit 0
mkdir -p "$(dirname "$out")"
# busybox: the rescue shell of lifeboat's generic images; the rest is what
# lifeboat links (libkmod2 comes with kmod).
mmdebstrap --variant=apt --mode=root --format=tar --skip=cleanup/apt \
	--include=kmod,busybox,libblkid1,zlib1g,liblzma5,libzstd1,liblz4-1,linux-base \
	--customize-hook='chroot "$1" apt-get install -y -q --no-install-recommends --download-only linux-image-amd64 initramfs-tools' \
	bookworm "$out.tmp" http://deb.debian.org/debian
mv "$out.tmp" "$out"
