# itools-root.sh: a Debian root as an administrator has it, with packages
# that plug into initramfs-tools installed by apt and lifeboat installed
# from its own .deb (sourced by cases-itools.sh; issues 29, 30, 38).
# Debian 12 (bookworm) unless a case says itools_suite trixie (Debian 13).
#
# Once per suite and package list: mmdebstrap makes the root (minbase,
# systemd-sysv, udev, kmod, e2fsprogs, busybox) with lifeboat's
# dependencies, the kernel and the packages of ITOOLS_PACKAGES downloaded,
# not installed, as a tarball: build/itools-root/SUITE/KEY.tar.
# Once per tarball, .deb and this file (itools_disk): the tarball unpacked,
# lifeboat's .deb installed, then `apt-get install --no-download` of the
# kernel and the packages, so the kernel's postinst makes
# /boot/initrd.img-KVER with lifeboat and the packages' hooks, inside the
# root (a private mount namespace: /dev and /proc bound there vanish with
# it). The root then becomes an ext4 filesystem in partition 1 of a disk
# larger than it, the kernel and the image are copied out beside it, the
# tree is removed.
# A root whose generator was dracut then goes back to it (ITOOLS_BACK):
# the same tree, after its disk was made, gets dracut again with apt, as
# its administrator would (lifeboat removed, then purged), and becomes a
# second disk (itools_back_build).

source "$TOP/tests/boot/debian-root.sh"

ITOOLS_MIRROR=http://deb.debian.org/debian
ITOOLS_BASE=systemd-sysv,udev,kmod,e2fsprogs,busybox
ITOOLS_UUID=1b2c3d4e-00e1-4a5b-8c6d-7e8f9a0b1c2d
ITOOLS_LABEL=lbitools
# The root's partition starts at 1 MiB and is ITOOLS_PART_MB long, on a
# disk of ITOOLS_DISK_MB: growroot has the rest to grow into.
ITOOLS_PART_MB=1100
ITOOLS_DISK_MB=1600

# itools_suite SUITE [dracut]: the Debian release the root is made of,
# what the administrator installs after lifeboat with apt
# (ITOOLS_PACKAGES), and how lifeboat's .deb goes in (ITOOLS_DEB_WAY):
# - bookworm: `dpkg -i`, its dependencies installed by mmdebstrap first
#   (ITOOLS_DEPS_BY; the .deb's Depends are Debian 12's names);
# - trixie: `apt-get install ./lifeboat_*.deb`, as docs/distributions.md
#   tells administrators: Debian 13 renamed libraries for the 64-bit
#   time_t (libssl3t64 provides libssl3), which apt resolves from the
#   Provides and which mmdebstrap --include of the old names may not.
# With dracut, the root's generator was dracut before lifeboat came:
# dracut and the kernel are installed by apt first (ITOOLS_FIRST; dracut's
# kernel hook makes the image), then lifeboat's .deb with apt, which
# removes dracut (lifeboat Conflicts with linux-initramfs-tool, which
# dracut Provides) and remakes the kernel's image in its postinst. The
# suite's tarball (ITOOLS_TAR_DIR) serves both: Debian 12's has dracut
# downloaded too, apart (ITOOLS_DOWNLOAD_APART), as growroot and
# overlayroot depend on initramfs-tools, which conflicts with dracut.
# The way back (ITOOLS_BACK) installs dracut from the same tarball's
# packages, kept aside while the first disk is made (itools_build).
# With crypt (Debian 12), the administrator wrote /etc/crypttab
# (ITOOLS_CRYPTTAB), lifeboat's settings (ITOOLS_CONF) and plymouth's
# theme (ITOOLS_PLYMOUTHD: spinner, which draws on a DRM card; the
# default, emerald, is desktop-base's, so plymouth falls back to text)
# before apt installs cryptsetup-initramfs, keyutils and plymouth, so the
# image the kernel's postinst makes follows them (itools_crypttab,
# itools_admin_tree). The kernel goes in last, by an apt run of its own
# (ITOOLS_LAST): plymouth's hook copies /etc/fonts/fonts.conf for a
# graphical theme, which is there once fontconfig-config is configured,
# and apt configures the kernel first when they go in together (the
# kernel's postinst would fail, initramfs-tools' as lifeboat's); so the
# image is made once, by the kernel's postinst. The image is generic (the
# root is not this machine): block-stacks packs cryptsetup, and lvm and
# mdadm with it, which it needs installed (lvm2, mdadm); add-files the
# crypttab, which generic images carry only so. The tarball is the
# suite's: Debian 12's downloads those packages too, so one mmdebstrap
# serves every Debian 12 root.
itools_suite() {
	ITOOLS_SUITE=$1
	ITOOLS_TAR_DIR=$BUILD/itools-root/$1
	ITOOLS_DIR=$BUILD/itools-root/$1${2:+-$2}
	ITOOLS_FIRST= ITOOLS_LAST= ITOOLS_BACK= ITOOLS_CRYPTTAB= ITOOLS_CONF= ITOOLS_PLYMOUTHD=
	case $1 in
	bookworm)
		ITOOLS_PACKAGES="linux-image-amd64 cloud-initramfs-growroot overlayroot"
		ITOOLS_DOWNLOAD="$ITOOLS_PACKAGES cryptsetup-initramfs keyutils plymouth plymouth-themes lvm2 mdadm"
		ITOOLS_DOWNLOAD_APART=dracut
		ITOOLS_DEPS_BY=mmdebstrap ITOOLS_DEB_WAY=dpkg ;;
	trixie)
		# With the installer's stack packages, and lifeboat's images
		# with the stack tools: cases-debian.sh boots this root inside
		# LVM on LUKS on md RAID1 (debian_trixie_luks_md_lvm).
		ITOOLS_PACKAGES="lvm2 mdadm cryptsetup cryptsetup-initramfs systemd-cryptsetup linux-image-amd64 cloud-initramfs-growroot"
		ITOOLS_DOWNLOAD=$ITOOLS_PACKAGES ITOOLS_DOWNLOAD_APART=
		ITOOLS_DEPS_BY=apt ITOOLS_DEB_WAY=apt ITOOLS_CONF='block-stacks = yes' ;;
	*) echo "itools_suite: no settings for Debian $1"; return 1 ;;
	esac
	case ${2:-} in
	'') ;;
	dracut) ITOOLS_FIRST="dracut linux-image-amd64" ITOOLS_PACKAGES= ITOOLS_DEB_WAY=apt ITOOLS_BACK=dracut ;;
	crypt)
		[ "$1" = bookworm ] || { echo "itools_suite: crypt is a Debian 12 root"; return 1; }
		ITOOLS_PACKAGES="linux-image-amd64 cryptsetup-initramfs keyutils plymouth plymouth-themes lvm2 mdadm"
		ITOOLS_CRYPTTAB=$(itools_crypttab)
		ITOOLS_CONF=$(printf 'block-stacks = yes\nadd-files = /etc/crypttab')
		ITOOLS_PLYMOUTHD=$(printf '[Daemon]\nTheme=spinner') ITOOLS_LAST=linux-image-amd64 ;;
	*) echo "itools_suite: no root whose generator was $2"; return 1 ;;
	esac
}

# The crypt root's containers that are not cases-stacks.sh's own: copies
# of its luks disk given these LUKS UUIDs (itools_luks_copy), as one UUID
# is one crypttab line.
ITOOLS_UUID_PASS=1b2c3d4e-00e2-4a5b-8c6d-7e8f9a0b1c2d
ITOOLS_UUID_PLAIN=1b2c3d4e-00e3-4a5b-8c6d-7e8f9a0b1c2d

# itools_crypttab: the crypt root's /etc/crypttab, every line its cases
# use (cases-stacks.sh's UUIDs and passphrase; the image packs the
# keyscripts the lines name):
# - lbroot, lbswap: the luks and luksswap disks, decrypt_keyctl with one
#   key field (the passphrase typed once: cases-itools-crypt.sh);
# - lbpass: a copy of the luks disk, passdev reading the key file on the
#   stick labelled lbkeys (cases-stacks-keys.sh's keys_disk);
# - lbplain: another copy, no key file and no keyscript: the passphrase
#   asked by lifeboat (plymouth's case).
itools_crypttab() {
	printf '%s\n' \
		"lbroot UUID=$UUID_LUKS lbkey luks,keyscript=decrypt_keyctl" \
		"lbswap UUID=$UUID_LUKS_SWAP lbkey luks,keyscript=decrypt_keyctl" \
		"lbpass UUID=$ITOOLS_UUID_PASS /dev/disk/by-label/$KEYDEV_LABEL:/keys/root.key luks,keyscript=passdev" \
		"lbplain UUID=$ITOOLS_UUID_PLAIN none luks"
}

# itools_luks_copy OUT UUID: a copy of cases-stacks.sh's luks disk (its
# passphrase and root; stacks_setup first) whose LUKS UUID is UUID.
itools_luks_copy() {
	cp --sparse=always "$STACKS/luks.img" "$1" && cryptsetup luksUUID -q --uuid "$2" "$1" ||
		{ echo "copying the luks disk to $1 with the UUID $2 failed"; return 1; }
}
itools_suite bookworm

# itools_deb: ITOOLS_DEB, lifeboat's package as `make deb` left it in
# $BUILD/deb (tests/deb/run.sh makes it before the boot cases in make
# test), else made here the way that script makes it.
itools_deb() {
	ITOOLS_DEB=$(ls "$BUILD"/deb/lifeboat_*.deb 2>/dev/null | head -n 1)
	[ -n "$ITOOLS_DEB" ] && return 0
	DEB_BUILD_OPTIONS="nocheck parallel=2" make -s -C "$TOP" BUILD="$BUILD" deb >"$BUILD/deb-build.log" 2>&1 ||
		{ echo "no lifeboat .deb in $BUILD/deb, and make deb failed (log: $BUILD/deb-build.log)"; return 1; }
	ITOOLS_DEB=$(ls "$BUILD"/deb/lifeboat_*.deb | head -n 1)
}

# itools_tarball: ITOOLS_TAR, made unless there, named after everything
# mmdebstrap is given; the roots of a suite wait on its lock. With
# mmdebstrap, the .deb's dependencies (without versions or alternatives)
# are installed, so that dpkg -i needs no network; with apt, the .deb is
# copied in and apt downloads what it and the packages need, resolving the
# dependencies as the install will.
itools_tarball() {
	local deps include key hooks dir=$ITOOLS_TAR_DIR
	deps=$(dpkg-deb -f "$ITOOLS_DEB" Depends | sed 's/([^)]*)//g; s/|[^,]*//g; s/[[:space:]]//g')
	include=$ITOOLS_BASE,$deps
	hooks=(--customize-hook="chroot \"\$1\" apt-get install -y -q --no-install-recommends --download-only $ITOOLS_DOWNLOAD")
	if [ "$ITOOLS_DEPS_BY" = apt ]; then
		include=$ITOOLS_BASE
		hooks=(--customize-hook="copy-in $ITOOLS_DEB /tmp"
			--customize-hook="chroot \"\$1\" apt-get install -y -q --no-install-recommends --download-only /tmp/${ITOOLS_DEB##*/} $ITOOLS_DOWNLOAD"
			--customize-hook="rm -f \"\$1/tmp/${ITOOLS_DEB##*/}\"")
	fi
	[ -z "$ITOOLS_DOWNLOAD_APART" ] ||
		hooks+=(--customize-hook="chroot \"\$1\" apt-get install -y -q --no-install-recommends --download-only $ITOOLS_DOWNLOAD_APART")
	key=$(echo "$ITOOLS_SUITE $ITOOLS_MIRROR minbase $include $deps ${hooks[*]}" | sha256sum | cut -c1-16)
	ITOOLS_TAR=$dir/$key.tar
	mkdir -p "$dir"
	(
		flock 9
		[ -s "$ITOOLS_TAR" ] && exit 0
		find "$dir" -mindepth 1 -maxdepth 1 -name '*.tar' -delete
		mmdebstrap --variant=minbase --mode=root --format=tar --skip=cleanup/apt --include="$include" \
			"${hooks[@]}" "$ITOOLS_SUITE" "$ITOOLS_TAR.tmp" "$ITOOLS_MIRROR" >"$dir/mmdebstrap.log" 2>&1 ||
			{ echo "mmdebstrap of Debian $ITOOLS_SUITE failed (see $dir/mmdebstrap.log)"; exit 1; }
		mv "$ITOOLS_TAR.tmp" "$ITOOLS_TAR"
	) 9>"$dir/tarball.lock"
}

# itools_in_root DIR CMD...: CMD run in the root, as a maintainer script
# or an administrator's shell would run it.
itools_in_root() {
	local dir=$1
	shift
	chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"
}

# itools_in_ns LOG FUNC ARG...: FUNC (one of this file's, run with /dev
# and /proc bound in the root it names) in a private mount namespace,
# what it printed in LOG.
itools_in_ns() {
	local log=$1 func=$2
	shift 2
	unshare --mount --propagation private bash -c \
		"$(declare -f itools_in_root "$func"); $func \"\$@\"" itools "$@" >"$log" 2>&1
}

# itools_admin_tree DIR: the files the administrator writes before apt
# runs, under DIR as in the root: /etc/crypttab (ITOOLS_CRYPTTAB),
# /etc/lifeboat.conf.d/admin.conf (ITOOLS_CONF),
# /etc/plymouth/plymouthd.conf (ITOOLS_PLYMOUTHD); those set only.
itools_admin_tree() {
	local dir=$1
	rm -rf "$dir" && mkdir -p "$dir/etc" || return 1
	[ -z "$ITOOLS_CRYPTTAB" ] || printf '%s\n' "$ITOOLS_CRYPTTAB" >"$dir/etc/crypttab" || return 1
	if [ -n "$ITOOLS_CONF" ]; then
		mkdir -p "$dir/etc/lifeboat.conf.d" && printf '%s\n' "$ITOOLS_CONF" >"$dir/etc/lifeboat.conf.d/admin.conf" || return 1
	fi
	if [ -n "$ITOOLS_PLYMOUTHD" ]; then
		mkdir -p "$dir/etc/plymouth" && printf '%s\n' "$ITOOLS_PLYMOUTHD" >"$dir/etc/plymouth/plymouthd.conf" || return 1
	fi
}

# itools_install_tree DIR TARBALL DEB PACKAGES WAY FIRST BEFORE ADMIN
# LAST: the administrator's steps in the unpacked root: the files of the
# tree ADMIN (itools_admin_tree) copied in, the packages FIRST with the
# image they make copied to BEFORE, the .deb by WAY (dpkg or apt:
# itools_suite), then the packages PACKAGES but LAST, then LAST, keeping
# the administrator's version of a conffile (plymouthd.conf) as dpkg's
# prompt would by default. Run in a private mount namespace
# (itools_install); apt's cache is left to itools_build. The root is not
# this machine, so lifeboat makes a generic image
# (/etc/lifeboat.conf.d/itools.conf), as tests/deb does.
itools_install_tree() {
	local dir=$1 tar=$2 deb=$3 packages=$4 way=$5 first=$6 before=$7 admin=$8 last=$9 p now=
	tar -xf "$tar" -C "$dir" --numeric-owner --xattrs --xattrs-include='*' ||
		{ echo "unpacking $tar failed"; return 1; }
	cp -a "$admin/." "$dir/" || return 1
	mount --rbind /dev "$dir/dev" && mount -t proc proc "$dir/proc" || return 1
	# dracut's images, before lifeboat and after the way back, hold the
	# drivers the root's disk needs only (dracut's drivers=, as
	# tests/deb gives initramfs-tools MODULES=list): the test's speed, a
	# third of a generic image's build (all the kernel's block drivers).
	case " $first " in
	*" dracut "*)
		mkdir -p "$dir/etc/dracut.conf.d" &&
		echo 'drivers="virtio_pci virtio_blk ext4 crc32c_generic"' >"$dir/etc/dracut.conf.d/itools.conf" || return 1 ;;
	esac
	# One at a time: dracut then the kernel makes dracut's image once
	# (by the kernel's postinst), both at once twice (and by its trigger).
	for p in $first; do
		echo "== apt-get install $p"
		itools_in_root "$dir" apt-get install -y -q --no-install-recommends --no-download "$p" ||
			{ echo "apt-get install $p failed"; return 1; }
	done
	[ -z "$first" ] || cp "$dir"/boot/initrd.img-* "$before" || return 1
	# Before the .deb: its postinst builds for a kernel already there
	# (with dracut first).
	mkdir -p "$dir/etc/lifeboat.conf.d" && printf 'mode = generic\n' >"$dir/etc/lifeboat.conf.d/itools.conf" &&
	cp "$deb" "$dir/tmp/${deb##*/}" || return 1
	if [ "$way" = dpkg ]; then
		echo "== dpkg -i ${deb##*/}"
		itools_in_root "$dir" dpkg -i "/tmp/${deb##*/}" || { echo "dpkg -i of lifeboat's .deb failed"; return 1; }
	else
		# Not --no-download: apt 3.0 stops on a local .deb with it ("Internal
		# Error, Pathname to install is not absolute"); what the .deb needs
		# is in the tarball's apt cache, so nothing is fetched.
		echo "== apt-get install ./${deb##*/}"
		itools_in_root "$dir" apt-get install -y -q --no-install-recommends "/tmp/${deb##*/}" ||
			{ echo "apt-get install of lifeboat's .deb failed"; return 1; }
	fi
	rm -f "$dir/tmp/${deb##*/}"
	for p in $packages; do
		case " $last " in *" $p "*) ;; *) now="$now $p" ;; esac
	done
	for p in "${now# }" "$last"; do
		[ -n "$p" ] || continue
		echo "== apt-get install $p"
		# shellcheck disable=SC2086 # the package names are words
		itools_in_root "$dir" apt-get install -y -q --no-install-recommends --no-download \
			-o Dpkg::Options::=--force-confold $p ||
			{ echo "apt-get install $p failed"; return 1; }
	done
	umount -R "$dir/dev" "$dir/proc"
}

# itools_install DIR LOG: itools_install_tree in a mount namespace of its
# own, what it printed in LOG; the administrator's files from DIR's
# sibling admin.
itools_install() {
	itools_admin_tree "${1%/*}/admin" || { echo "writing the administrator's files failed"; return 1; }
	itools_in_ns "$2" itools_install_tree "$1" "$ITOOLS_TAR" "$ITOOLS_DEB" "$ITOOLS_PACKAGES" \
		"$ITOOLS_DEB_WAY" "$ITOOLS_FIRST" "${2%/*}/initrd-before.img" "${1%/*}/admin" "$ITOOLS_LAST" ||
		{ echo "installing $ITOOLS_FIRST lifeboat $ITOOLS_PACKAGES in the root failed: $(tail -n 3 "$2") (log: $2)"; return 1; }
}

# itools_back_tree DIR DEBS BACK: the way back in the root lifeboat took
# over, as its administrator goes: `apt-get install BACK` (the generator
# it had before; apt removes lifeboat, which conflicts with it, and
# BACK's postinst remakes the kernels' images), then `apt-get purge
# lifeboat` (its conffiles, the kernel hooks among them). apt's cache
# gets the packages of DEBS back first: the tarball's, kept aside.
itools_back_tree() {
	local dir=$1 debs=$2 back=$3
	mount --rbind /dev "$dir/dev" && mount -t proc proc "$dir/proc" || return 1
	cp "$debs"/*.deb "$dir/var/cache/apt/archives/" || return 1
	# The other order, lifeboat purged first, as apt would do it (not
	# done: simulated, for the case and the docs): the kernels need a
	# generator, so apt would bring initramfs-tools, their first choice.
	echo "== apt-get -s purge lifeboat"
	itools_in_root "$dir" apt-get -s purge lifeboat
	echo "== apt-get install $back"
	itools_in_root "$dir" apt-get install -y -q --no-install-recommends --no-download "$back" ||
		{ echo "apt-get install $back failed"; return 1; }
	echo "== apt-get purge lifeboat"
	itools_in_root "$dir" apt-get purge -y -q lifeboat || { echo "apt-get purge lifeboat failed"; return 1; }
	itools_in_root "$dir" apt-get clean
	umount -R "$dir/dev" "$dir/proc"
}

# itools_report_script: more report lines, before debian-root.sh's: the
# root's mount, the sizes of the disk and of the root's partition in
# sectors, the mounts under an overlay root (overlayroot's lower and upper
# layers), and a file written to / (the overlay case looks for it on the
# disk afterwards); the kernel's and systemd's versions, whether lifeboat
# left its fsck stamp, the module loads of lifeboat's timeline and whether
# the root's disk and filesystem drivers are loaded modules.
itools_report_script() {
	cat <<-EOF
	#!/bin/sh
	m=$DEBROOT_MARK
	echo "\$m: root \$(awk '\$2 == "/" { print \$1, \$3 }' /proc/mounts | tail -n 1)"
	echo "\$m: sectors \$(cat /sys/class/block/vda/size) \$(cat /sys/class/block/vda1/size)"
	awk '\$2 ~ /^\/media\/root-r[ow]\$/ { print "'\$m': under", \$2, \$3, \$4 }' /proc/mounts
	echo written-after-boot >/itools-probe && sync && echo "\$m: probe written"
	echo "\$m: versions \$(uname -r) systemd \$(systemctl --version | awk 'NR == 1 { print \$2 }')"
	echo "\$m: fsck-stamp \$(ls /run/initramfs/fsck-root 2>/dev/null || echo none)"
	grep -E '^[0-9.]+ (modules|fsmodule) ' /run/initramfs/timeline | sed "s/^/\$m: timeline /"
	echo "\$m: loaded \$(awk '\$1 == "ext4" || \$1 == "virtio_blk" { print \$1 }' /proc/modules | sort | tr '\n' ' ')"
	exit 0
	EOF
}

# itools_setup DIR: the machine's own files (debian-root.sh's test setup,
# fstab by UUID as the installer writes it) and the extra report lines,
# run by the report unit first.
itools_setup() {
	local dir=$1 drop=$1/etc/systemd/system/lifeboat-report.service.d
	echo "$DEBROOT_MACHINE_ID" >"$dir/etc/machine-id" &&
	echo lifeboat-itools >"$dir/etc/hostname" &&
	printf 'UUID=%s / ext4 errors=remount-ro 0 1\n' "$ITOOLS_UUID" >"$dir/etc/fstab" &&
	debroot_units "$dir" &&
	itools_report_script >"$dir/usr/local/sbin/lifeboat-itools-report" &&
	chmod 0755 "$dir/usr/local/sbin/lifeboat-itools-report" &&
	mkdir -p "$drop" &&
	printf '[Service]\nExecStartPre=/usr/local/sbin/lifeboat-itools-report\n' >"$drop/itools.conf"
}

# itools_make_disk DIR OUT: DIR's tree as the ext4 root in partition 1
# (MBR, from 1 MiB) of the disk OUT.
itools_make_disk() {
	local dir=$1 out=$2 fs=$2.part
	mkfs_image ext4 "$fs" "$ITOOLS_PART_MB" "$dir" "$ITOOLS_LABEL" "$ITOOLS_UUID" || return 1
	rm -f "$out" && truncate -s "${ITOOLS_DISK_MB}M" "$out" &&
	printf 'label: dos\nstart=2048, size=%d, type=83\n' $((ITOOLS_PART_MB * 2048)) | sfdisk -q "$out" >/dev/null &&
	dd if="$fs" of="$out" bs=1M seek=1 conv=notrunc,sparse status=none || return 1
	rm -f "$fs"
}

# itools_module_kinds TREE KVER: how the kernel's modules are kept in the
# root: "DIR SUFFIX COUNT" for each directory and file suffix (Debian 12:
# /lib/modules, .ko; Debian 13: /usr/lib/modules, .ko.xz).
itools_module_kinds() {
	local mods
	mods=$(readlink -f "$1/lib/modules/$2")
	find "$mods" -name '*.ko*' -type f | sed -n 's/.*\(\.ko[.a-z]*\)$/\1/p' | sort | uniq -c |
		awk -v dir="${mods#"$1"}" '{ print dir, $2, $1 }'
}

# itools_generators TREE: the state of the generators' packages in the
# root (dpkg-query's "PACKAGE STATUS", ii installed, rc removed with its
# conffiles left), the kernel hooks left in /etc/kernel/postinst.d and
# postrm.d, and which of lifeboat's files are in the root ("lifeboat
# PATH...": its program, update-initramfs, its settings).
itools_generators() {
	local f left=
	itools_in_root "$1" dpkg-query -W -f '${Package} ${db:Status-Abbrev}\n' \
		lifeboat dracut dracut-core initramfs-tools 2>/dev/null
	echo "postinst.d $(ls "$1/etc/kernel/postinst.d" | tr '\n' ' ')"
	echo "postrm.d $(ls "$1/etc/kernel/postrm.d" | tr '\n' ' ')"
	for f in /usr/bin/lifeboat /usr/sbin/update-initramfs /etc/lifeboat.conf /etc/lifeboat.conf.d/itools.conf; do
		[ ! -e "$1$f" ] || left="$left $f"
	done
	echo "lifeboat$left"
}

# itools_back_build DIR KVER: the way back (ITOOLS_BACK) in DIR/tree,
# whose first disk is made: itools_back_tree, then what it left as
# itools_build leaves it, with -back names (back.log, generators-back,
# initrd-back.img and .ls, disk-back.img), timed in DIR/times.
itools_back_build() {
	local dir=$1 tree=$1/tree start=$SECONDS
	itools_in_ns "$dir/back.log" itools_back_tree "$tree" "$dir/debs" "$ITOOLS_BACK" ||
		{ echo "the way back to $ITOOLS_BACK failed: $(tail -n 3 "$dir/back.log") (log: $dir/back.log)"; return 1; }
	echo "back install $((SECONDS - start)) s" >>"$dir/times"
	itools_generators "$tree" >"$dir/generators-back"
	[ -s "$tree/boot/initrd.img-$2" ] ||
		{ echo "going back to $ITOOLS_BACK left no /boot/initrd.img-$2 (log: $dir/back.log)"; return 1; }
	cp "$tree/boot/initrd.img-$2" "$dir/initrd-back.img" &&
	"$BUILD/lifeboat" ls "$dir/initrd-back.img" >"$dir/initrd-back.ls" 2>&1 ||
		{ echo "lifeboat ls of the image $ITOOLS_BACK made failed"; return 1; }
	start=$SECONDS
	itools_make_disk "$tree" "$dir/disk-back.img" || { echo "making the root's second disk failed"; return 1; }
	echo "back disk $((SECONDS - start)) s" >>"$dir/times"
	rm -rf "$dir/debs"
}

# itools_build DIR: the tarball, the installed root, its disk, kernel and
# image in DIR (disk.img, vmlinuz, initrd.img, initrd.ls; deb: which
# package was installed), timed in DIR/times; with ITOOLS_BACK, the way
# back's too (itools_back_build). apt's cache is emptied before the disk,
# what it held kept in DIR/debs for the way back.
itools_build() {
	local dir=$1 tree=$1/tree start=$SECONDS v
	itools_tarball || return 1
	echo "mmdebstrap $((SECONDS - start)) s" >"$dir/times"
	rm -rf "$tree" && mkdir -p "$tree" && start=$SECONDS
	itools_install "$tree" "$dir/install.log" || return 1
	echo "install $((SECONDS - start)) s" >>"$dir/times"
	if [ -n "$ITOOLS_BACK" ]; then
		mkdir -p "$dir/debs" && mv "$tree"/var/cache/apt/archives/*.deb "$dir/debs/" || return 1
	fi
	itools_in_root "$tree" apt-get clean
	v=$(ls "$tree/lib/modules" | sort -V | tail -n 1)
	[ -s "$tree/boot/initrd.img-$v" ] ||
		{ echo "installing the kernel $v made no /boot/initrd.img-$v (log: $dir/install.log)"; return 1; }
	itools_module_kinds "$tree" "$v" >"$dir/modules"
	itools_generators "$tree" >"$dir/generators"
	[ ! -s "$dir/initrd-before.img" ] || "$BUILD/lifeboat" ls "$dir/initrd-before.img" >"$dir/initrd-before.ls" 2>&1 ||
		{ echo "lifeboat ls of the image made before lifeboat's .deb failed"; return 1; }
	echo "$ITOOLS_DEB of $(date -r "$ITOOLS_DEB" '+%F %T')" >"$dir/deb"
	cp "$tree/boot/vmlinuz-$v" "$dir/vmlinuz" && cp "$tree/boot/initrd.img-$v" "$dir/initrd.img" &&
	"$BUILD/lifeboat" ls "$dir/initrd.img" >"$dir/initrd.ls" 2>&1 ||
		{ echo "lifeboat ls of the root's /boot/initrd.img-$v failed"; return 1; }
	start=$SECONDS
	itools_setup "$tree" && itools_make_disk "$tree" "$dir/disk.img" ||
		{ echo "making the root's disk failed"; return 1; }
	echo "disk $((SECONDS - start)) s ($(du -sm "$tree" | cut -f1) MB in the root)" >>"$dir/times"
	[ -z "$ITOOLS_BACK" ] || itools_back_build "$dir" "$v" || return 1
	rm -rf "$tree"
}

# itools_disk: ITOOLS_OUT, the directory of itools_build's results, made
# once per tarball, .deb, this file and crypttab; parallel cases wait on
# a lock.
itools_disk() {
	local key
	mkdir -p "$ITOOLS_DIR"
	(
		flock 9
		itools_deb || exit 1
		key=$( (sha256sum <"$ITOOLS_DEB"; cat "$TOP/tests/boot/itools-root.sh" "$TOP/tests/boot/debian-root.sh"
			echo "$ITOOLS_CRYPTTAB") |
			sha256sum | cut -c1-16)
		echo "$key" >"$ITOOLS_DIR/current"
		[ -e "$ITOOLS_DIR/$key/done" ] && exit 0
		find "$ITOOLS_DIR" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
		rm -rf "${ITOOLS_DIR:?}/$key" && mkdir -p "$ITOOLS_DIR/$key" &&
		itools_build "$ITOOLS_DIR/$key" || { rm -rf "$ITOOLS_DIR/$key/tree"; exit 1; }
		touch "$ITOOLS_DIR/$key/done"
	) 9>"$ITOOLS_DIR/lock" || return 1
	ITOOLS_OUT=$ITOOLS_DIR/$(cat "$ITOOLS_DIR/current")
}

# itools_copy FILE: the case's own copy of the root's disk.
itools_copy() {
	itools_disk && cp --sparse=always "$ITOOLS_OUT/disk.img" "$1"
}

# itools_part IMAGE: IMAGE's partition 1 as debugfs opens it.
itools_part() {
	echo "$1?offset=1048576"
}

# itools_boot LOG DISK APPEND [IMAGE]: the root's own kernel and image
# (IMAGE of ITOOLS_OUT, initrd.img unless given) boot DISK, with the
# command line of Debian's boot entries and APPEND.
itools_boot() {
	QEMU_TIMEOUT=${DEBROOT_TIMEOUT:-420} boot_qemu "$1" "$ITOOLS_OUT/vmlinuz" "$ITOOLS_OUT/${4:-initrd.img}" \
		"root=UUID=$ITOOLS_UUID ro $3" -m 1024 -drive "file=$2,format=raw,if=virtio"
}
