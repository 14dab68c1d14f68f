#!/bin/sh
# install-deps.sh: install with apt what building and testing lifeboat needs,
# only what is missing (a fresh Debian 12 machine has none of it).
set -e
PACKAGES="build-essential pkg-config libkmod-dev libblkid-dev zlib1g-dev liblzma-dev libzstd-dev liblz4-dev
libcmocka-dev clang libclang-rt-14-dev cppcheck cpio kmod e2fsprogs xfsprogs btrfs-progs fdisk
qemu-system-x86 linux-image-amd64 busybox-static xz-utils zstd lz4 scdoc libxml2-utils groff-base man-db"

# The network-root boot tests' servers, run only inside their namespaces.
PACKAGES="$PACKAGES dnsmasq-base nfs-ganesha nfs-ganesha-vfs rpcbind"

# The rescue boot tests hash their test password with openssl passwd.
PACKAGES="$PACKAGES openssl"
# A live root's images in the boot cases (tests/boot/cases-live.sh).
PACKAGES="$PACKAGES squashfs-tools erofs-utils"

# iSCSI root: iscsistart goes into the images; tgtd is the test target.
PACKAGES="$PACKAGES open-iscsi tgt"
# Multipath root: multipath and kpartx go into the images (multipathd must
# not start here: policy-rc.d below).
PACKAGES="$PACKAGES multipath-tools kpartx"

# kdump: libcurl's header (the init dlopens libcurl for URL targets), and
# makedumpfile, which the tests use to read the dumps lifeboat writes;
# python3 runs the kdump tests' page check and HTTP server.
PACKAGES="$PACKAGES libcurl4-openssl-dev makedumpfile python3"
# kdump's LZO pages: liblzo2's header (the init dlopens liblzo2 when the
# image is built with --kdump-options compress=lzo).
PACKAGES="$PACKAGES liblzo2-dev"
# The URL targets' test servers, run only inside the tests' namespaces with
# their own settings: an FTP server (pyftpdlib) and sshd for sftp.
PACKAGES="$PACKAGES python3-pyftpdlib openssh-server"

# Block stacks: the tools the images carry (lvm, mdadm, cryptsetup) and that
# build the stacked test disks inside a qemu guest.
PACKAGES="$PACKAGES lvm2 mdadm cryptsetup-bin"
# crypttab keyscripts: Debian's own (/lib/cryptsetup/scripts, askpass) and
# decrypt_keyctl's keyctl, packed into the keyscript cases' images.
PACKAGES="$PACKAGES cryptsetup keyutils"
# TPM2 unlock: the libraries systemd's cryptsetup token plugin dlopen()s
# (the images carry them), and the software TPM the boot tests attach.
PACKAGES="$PACKAGES libtss2-esys-3.0.2-0 libtss2-rc0 libtss2-mu0 libtss2-tcti-device0 swtpm swtpm-tools"

# Packaging: the Debian package (debhelper, lintian) and its test root
# (mmdebstrap); unified kernel images: systemd's EFI stub, sbsign/sbverify,
# OVMF and an ESP made with mkfs.vfat and mtools; the RPM spec's check.
PACKAGES="$PACKAGES debhelper lintian mmdebstrap systemd-boot-efi sbsigntool ovmf dosfstools mtools rpm rpmlint"
# tests/deb/provides.py checks Debian's InRelease files with gpgv and the
# archive keyring; the way out links libcrypt statically (libcrypt-dev).
PACKAGES="$PACKAGES gpgv debian-archive-keyring libcrypt-dev"
# The way out under Debian's real systemd: shutdown_systemd_md's test root
# is made from the host's systemd (systemd, systemd-shutdown, systemctl);
# debugfs (e2fsprogs, above) reads its marker back.
PACKAGES="$PACKAGES systemd"
# --ssh: dropbear goes into the images, dropbearkey makes their host key;
# the SSH boot tests' client is OpenSSH's ssh (openssh-client, with the
# server above).
PACKAGES="$PACKAGES dropbear-bin openssh-client"

# The keyboard layout: loadkeys (kbd) compiles it, console-data has the
# console keymaps by name, ckbcomp (console-setup) converts XKB layouts.
PACKAGES="$PACKAGES kbd console-data console-setup"

# Tang unlock: lifeboat-clevis links OpenSSL's libcrypto and json-c (what
# cryptsetup brings into the image anyway); its tests bind with the real
# clevis and answer with the real tangd (socat serves it in the boot tests).
PACKAGES="$PACKAGES libssl-dev libjson-c-dev clevis clevis-luks tang socat"
# The clevis tpm2 pin: lifeboat-clevis links libtss2's ESAPI (libtss2-dev); its
# tests seal with the real clevis-tpm2 (tpm2-tools) into swtpm.
PACKAGES="$PACKAGES libtss2-dev clevis-tpm2 tpm2-tools"
# FIDO2 unlock: tests/softfido (libcbor) checked by libfido2 itself in the
# unit tests; fido2-token sets a test key's PIN.
PACKAGES="$PACKAGES libfido2-dev libcbor-dev fido2-tools"
# PKCS#11 unlock: softhsm2 is the tests' token (its module goes into the
# --pkcs11 images through p11-kit's configuration); p11tool and certtool
# (gnutls-bin) put a key and its self-signed certificate on it.
PACKAGES="$PACKAGES softhsm2 gnutls-bin"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: everything is installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing:$missing; run as root (sudo make deps)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# Server packages (rpcbind, nfs-ganesha, tgt, ...) must not start on this
# machine's network when installed: the tests start their own, inside
# network namespaces. Debian's policy-rc.d answer 101 forbids starting them.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod 0755 /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
# sshd is for the sftp test's namespace only: this file keeps Debian's unit
# from ever starting it on the machine, now or at the next boot.
if echo "$missing" | grep -q openssh-server; then
	mkdir -p /etc/ssh
	touch /etc/ssh/sshd_not_to_be_run
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
