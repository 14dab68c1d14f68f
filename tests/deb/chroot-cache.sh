#!/bin/sh
# chroot-cache.sh TARBALL PACKAGES: a Debian 12 root made by mmdebstrap from Debian's
# archive, as a tarball the package test unpacks afresh for each run. It
# keeps apt's lists and holds, downloaded but not installed, the kernel
# (linux-image-amd64), initramfs-tools and cloud-initramfs-growroot (a
# package that plugs into initramfs-tools), so the test installs them
# without the network. PACKAGES (comma-separated) are installed too: the package's
# own dependencies, so that dpkg -i needs no network either. Made once per
# PACKAGES (run.sh names the tarball after them).
set -eu
out=${1:?usage: chroot-cache.sh TARBALL PACKAGES}
packages=${2:?usage: chroot-cache.sh TARBALL PACKAGES}
[ -s "$out" ] && exit 0
mkdir -p "$(dirname "$out")"
# busybox: the rescue shell of lifeboat's generic images.
mmdebstrap --variant=apt --mode=root --format=tar --skip=cleanup/apt \
	--include="kmod,busybox,linux-base,$packages" \
	--customize-hook='chroot "$1" apt-get install -y -q --no-install-recommends --download-only linux-image-amd64 initramfs-tools cloud-initramfs-growroot' \
	bookworm "$out.tmp" http://deb.debian.org/debian
mv "$out.tmp" "$out"
