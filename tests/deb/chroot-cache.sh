#!/bin/sh
# chroot-cache.sh TARBALL PACKAGES [SUITE]: a Debian root (SUITE, default
# bookworm: Debian 12; trixie: Debian 13) made by mmdebstrap from Debian's
# archive, as a tarball the package test unpacks afresh for each run. It
# keeps apt's lists and holds, downloaded but not installed, the kernel
# (linux-image-amd64), initramfs-tools and packages that plug into it
# (cloud-initramfs-growroot, overlayroot, and cryptsetup-initramfs, dropbear-initramfs
# and clevis-initramfs, which lifeboat stands in for), so the test installs them
# without the network. PACKAGES (comma-separated) are installed too: the package's
# own dependencies, so that dpkg -i needs no network either. Made once per
# PACKAGES (run.sh names the tarball after them).
set -eu
out=${1:?usage: chroot-cache.sh TARBALL PACKAGES}
packages=${2:?usage: chroot-cache.sh TARBALL PACKAGES [SUITE]}
suite=${3:-bookworm}
[ -s "$out" ] && exit 0
mkdir -p "$(dirname "$out")"
# busybox: the rescue shell of lifeboat's generic images.
mmdebstrap --variant=apt --mode=root --format=tar --skip=cleanup/apt \
	--include="kmod,busybox,linux-base,$packages" \
	--customize-hook='chroot "$1" apt-get install -y -q --no-install-recommends --download-only linux-image-amd64 initramfs-tools cloud-initramfs-growroot overlayroot cryptsetup-initramfs dropbear-initramfs clevis-initramfs' \
	"$suite" "$out.tmp" http://deb.debian.org/debian
mv "$out.tmp" "$out"
