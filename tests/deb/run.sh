#!/bin/bash
# run.sh: the Debian package in a throwaway Debian 12 root, never on this
# machine: the root is unpacked from a tarball made once by mmdebstrap
# (chroot-cache.sh, under build/deb-chroot/), the package is built by
# `make deb`, and everything happens in a private mount namespace inside
# that root. Checks, in order:
#   the package installs where initramfs-tools is not;
#   installing linux-image-amd64 makes /boot/initrd.img-VERSION with lifeboat,
#   with the settings of /etc/lifeboat.conf.d;
#   packages that depend on initramfs-tools install beside it (growroot and
#   overlayroot, whose hooks and scripts lifeboat runs; cryptsetup-,
#   dropbear- and clevis-initramfs, which it stands in for);
#   update-initramfs -u|-c|-d -k VERSION|all, and the usage error;
#   update-initramfs -u from another package's maintainer script is deferred
#   to the update-initramfs trigger, which lifeboat's postinst answers;
#   the image boots in qemu with that kernel to a test root;
#   installing initramfs-tools and purging lifeboat hands the job back;
#   installing lifeboat again takes it over, remaking the kernel's image,
#   and those packages stay, their hooks' additions in the image;
#   removing the kernel removes its image.
# With --suite trixie the same package (built on Debian 12) goes into a
# Debian 13 root: it installs there (its libraries' t64 names provide the
# old ones), Debian 13's kernel (6.12, modules in .ko.xz under
# /usr/lib/modules) gets a lifeboat image (booted by the boot case
# itools_trixie_systemd), the same packages
# install beside it, and it takes over from initramfs-tools (split into
# -core and -bin there) with them installed, the other order.
# Usage: tests/deb/run.sh [--no-build] [--suite bookworm|trixie]
#   prints "N passed, N failed" last
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
passed=0 failed=0

if [ -z "${LIFEBOAT_DEB_NS:-}" ]; then
	# Mounts made in the root vanish with this namespace, whatever happens.
	exec unshare --mount --propagation private env LIFEBOAT_DEB_NS=1 "$0" "$@"
fi

build=y suite=bookworm
while [ $# -gt 0 ]; do
	case $1 in
	--no-build) build= ;;
	--suite) suite=$2; shift ;;
	*) echo "usage: tests/deb/run.sh [--no-build] [--suite bookworm|trixie]" >&2; exit 2 ;;
	esac
	shift
done
if [ -n "$build" ]; then
	DEB_BUILD_OPTIONS="nocheck parallel=2" make -s -C "$TOP" deb >"$BUILD/deb-build.log" 2>&1 ||
		{ echo "deb: make deb failed (log: $BUILD/deb-build.log)"; echo "0 passed, 1 failed"; exit 1; }
fi
# The package's dependencies, without versions or alternatives, go into
# the root; the tarball is named after them, so a new dependency makes a
# new root.
deps=$(dpkg-deb -f "$(ls "$BUILD"/deb/lifeboat_*.deb | head -n 1)" Depends |
	sed 's/([^)]*)//g; s/|[^,]*//g; s/[[:space:]]//g')
# What the root holds changes with chroot-cache.sh too.
TARBALL=$BUILD/deb-chroot/$suite-$({ printf '%s' "$deps"; cat "$TOP/tests/deb/chroot-cache.sh"; } |
	sha1sum | cut -c1-12).tar
"$TOP/tests/deb/chroot-cache.sh" "$TARBALL" "$deps" "$suite" >"$BUILD/deb-chroot-$suite.log" 2>&1 ||
	{ echo "deb: mmdebstrap of $suite failed (log: $BUILD/deb-chroot-$suite.log)"; echo "0 passed, 1 failed"; exit 1; }

R=$(mktemp -d "$BUILD/deb-root.XXXXXX")
cleanup() {
	umount -R "$R/dev" "$R/proc" 2>/dev/null
	rm -rf --one-file-system "$R"
}
trap cleanup EXIT
tar -C "$R" -xf "$TARBALL"
mount --rbind /dev "$R/dev"
mount -t proc proc "$R/proc"
cp "$BUILD"/deb/lifeboat_*.deb "$R/tmp/lifeboat.deb"

# in_root CMD...: run in the root, as a package's maintainer would see it.
in_root() {
	chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"
}

# The kernel version the cached linux-image-amd64 brings.
kernel_version() {
	ls "$R"/usr/lib/modules 2>/dev/null | sort -V | tail -n 1
}

inode() {
	stat -c %i "$R/boot/initrd.img-$1" 2>/dev/null
}

# The image is lifeboat's: its /init and the settings it was built with.
assert_lifeboat_image() {
	local img=$R/boot/initrd.img-$1
	[ -s "$img" ] || { echo "no $img"; return 1; }
	in_root lifeboat ls "/boot/initrd.img-$1" > "$R/tmp/ls.txt" 2>&1 || { echo "lifeboat ls failed: $(head -n 3 "$R/tmp/ls.txt")"; return 1; }
	grep -q ' etc/lifeboat/build.conf$' "$R/tmp/ls.txt" || { echo "the image has no etc/lifeboat/build.conf: not lifeboat's"; return 1; }
}

test_install_package() {
	in_root dpkg -i /tmp/lifeboat.deb > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	in_root dpkg-query -W -f='${Status}\n${Provides}\n' lifeboat > "$R/tmp/status"
	grep -qx 'install ok installed' "$R/tmp/status" &&
	grep -q 'linux-initramfs-tool' "$R/tmp/status" && grep -q 'initramfs-tools (= ' "$R/tmp/status" ||
		{ echo "lifeboat is not installed, or does not provide linux-initramfs-tool and initramfs-tools: $(tr '\n' ' ' < "$R/tmp/status")"; return 1; }
	grep -q lifeboat "$R/usr/sbin/update-initramfs" || { echo "update-initramfs is not lifeboat's"; return 1; }
	# The settings the kernel hooks must use: a generic image (this root
	# is not the machine's), zstd.
	mkdir -p "$R/etc/lifeboat.conf.d"
	printf 'mode = generic\ncompress = zstd\n' > "$R/etc/lifeboat.conf.d/test.conf"
}

# Every package of Debian 12's and 13's archives that depends on
# initramfs-tools is satisfied by lifeboat's Provides (tests/deb/provides.py).
test_provides_meet_archives() {
	python3 "$TOP/tests/deb/provides.py" "$BUILD/deb-archive" > "$BUILD/deb-provides.log" 2>&1 ||
		{ grep FAIL "$BUILD/deb-provides.log" | head -n 5; tail -n 1 "$BUILD/deb-provides.log"; return 1; }
}

# The packages that plug into initramfs-tools: two whose hooks and scripts
# lifeboat runs, three it stands in for (itools/initramfs-tools/native).
RUN_PACKAGES="cloud-initramfs-growroot overlayroot"
NATIVE_PACKAGES="cryptsetup-initramfs dropbear-initramfs clevis-initramfs"

# all_installed PACKAGE...: each is "install ok installed".
all_installed() {
	local p
	for p in "$@"; do
		in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			{ echo "$p is not installed"; return 1; }
	done
}

# image_has_hooks: update-initramfs -u made an image with what the run
# packages' hooks and scripts add, and said the natives' are left to lifeboat.
image_has_hooks() {
	local p
	in_root update-initramfs -u -k "$(kernel_version)" > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	grep -q '^lifeboat: initramfs-tools: ran [1-9][0-9]* hooks' "$R/tmp/out" ||
		{ echo "the build ran no initramfs-tools hook: $(tail -n 2 "$R/tmp/out")"; return 1; }
	for p in $NATIVE_PACKAGES; do
		grep -q "^lifeboat: initramfs-tools: .* ($p) is not run: " "$R/tmp/out" ||
			{ echo "the build did not say that $p's hooks are left to lifeboat: $(grep initramfs-tools: "$R/tmp/out" | head -n 3)"; return 1; }
	done
	in_root lifeboat ls "/boot/initrd.img-$(kernel_version)" > "$R/tmp/ls" 2>&1 || { tail -n 2 "$R/tmp/ls"; return 1; }
	grep -q ' scripts/local-bottom/growroot$' "$R/tmp/ls" && grep -q ' usr/sbin/growpart$' "$R/tmp/ls" ||
		{ echo "the image lacks growroot's boot script or the growpart its hook copies"; return 1; }
	grep -q ' scripts/init-bottom/overlayroot$' "$R/tmp/ls" ||
		{ echo "the image lacks overlayroot's boot script"; return 1; }
	! grep -q ' scripts/local-top/cryptroot$' "$R/tmp/ls" ||
		{ echo "cryptsetup-initramfs's boot script is in the image: it would ask for the passphrase a second time"; return 1; }
}

# Lifeboat first, then the packages that depend on initramfs-tools: apt
# takes lifeboat's Provides, brings no initramfs-tools back, and the next
# image carries what the hooks add (lifeboat's bridge, itools/).
test_package_installs_beside_lifeboat() {
	# shellcheck disable=SC2086
	in_root apt-get install -y -q --no-install-recommends --no-download $RUN_PACKAGES $NATIVE_PACKAGES \
		> "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	# shellcheck disable=SC2086
	all_installed $RUN_PACKAGES $NATIVE_PACKAGES lifeboat || return 1
	in_root dpkg-query -W -f='${Status}' initramfs-tools 2>/dev/null | grep -q 'ok installed' &&
		{ echo "initramfs-tools was brought back"; return 1; }
	image_has_hooks
}

test_kernel_install_makes_image() {
	local v magic
	in_root apt-get install -y -q --no-install-recommends --no-download linux-image-amd64 > "$R/tmp/out" 2>&1 || { tail -n 8 "$R/tmp/out"; return 1; }
	v=$(kernel_version)
	[ -n "$v" ] || { echo "no kernel in /lib/modules after installing linux-image-amd64"; return 1; }
	grep -q "lifeboat: making /boot/initrd.img-$v" "$R/tmp/out" || { echo "the kernel's postinst did not run lifeboat's hook"; return 1; }
	[ ! -e "$R/usr/sbin/mkinitramfs" ] || { echo "initramfs-tools came with the kernel"; return 1; }
	assert_lifeboat_image "$v" || return 1
	magic=$(head -c 4 "$R/boot/initrd.img-$v" | od -An -tx1 | tr -d ' \n')
	[ "$magic" = 28b52ffd ] || { echo "the image starts with $magic, not zstd's magic: /etc/lifeboat.conf.d was not read"; return 1; }
}

test_update_initramfs() {
	local v=$(kernel_version) before
	before=$(inode "$v")
	in_root update-initramfs -u -k all > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	[ "$(inode "$v")" != "$before" ] || { echo "-u -k all did not remake initrd.img-$v"; return 1; }
	assert_lifeboat_image "$v" || return 1
	in_root update-initramfs -d -k "$v" >/dev/null || { echo "-d -k $v failed"; return 1; }
	[ ! -e "$R/boot/initrd.img-$v" ] || { echo "-d -k $v left the image"; return 1; }
	in_root update-initramfs -c -k "$v" >/dev/null 2>&1 || { echo "-c -k $v failed"; return 1; }
	assert_lifeboat_image "$v" || return 1
	before=$(inode "$v")
	in_root update-initramfs -u > /dev/null 2>&1 || { echo "-u (the newest kernel) failed"; return 1; }
	[ "$(inode "$v")" != "$before" ] || { echo "-u did not remake the newest image"; return 1; }
	in_root update-initramfs -c 2>/dev/null; [ $? -eq 2 ] || { echo "-c without -k is not a usage error"; return 1; }
	in_root update-initramfs -x 2>/dev/null; [ $? -eq 2 ] || { echo "-x is not a usage error"; return 1; }
	! ls "$R"/boot/*.tmp* >/dev/null 2>&1 || { echo "a temporary file was left in /boot"; return 1; }
}

test_trigger_defers_to_postinst() {
	local v=$(kernel_version) before out
	before=$(inode "$v")
	out=$(in_root env DPKG_MAINTSCRIPT_PACKAGE=busybox update-initramfs -u 2>&1) || { echo "$out"; return 1; }
	echo "$out" | grep -q 'deferring update (trigger activated)' || { echo "not deferred: $out"; return 1; }
	[ "$(inode "$v")" = "$before" ] || { echo "the image was remade at once"; return 1; }
	in_root dpkg-query -W -f='${Status}' lifeboat | grep -q triggers-pending || { echo "lifeboat has no pending trigger"; return 1; }
	in_root dpkg --triggers-only --pending > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	[ "$(inode "$v")" != "$before" ] || { echo "the trigger did not remake the image"; return 1; }
}

# The kernel and the image the package made boot to a test root.
test_boots_in_qemu() {
	local v=$(kernel_version) dir=$BUILD/deb-boot
	[ -x "$BUILD/test-init" ] || make -s -C "$TOP" BUILD="$BUILD" "$BUILD/test-init" >/dev/null || return 1
	source "$TOP/tests/boot/lib.sh"
	rm -rf "$dir" && mkdir -p "$dir"
	make_root_tree "$dir/tree"
	mkfs_image ext4 "$dir/root.img" 32 "$dir/tree" lbdeb 5d0c8a31-4f2e-4b7a-9c61-0e2d4a8b7f13 || return 1
	boot_qemu "$dir/console.log" "$R/boot/vmlinuz-$v" "$R/boot/initrd.img-$v" "root=LABEL=lbdeb" \
		-drive "file=$dir/root.img,format=raw,if=virtio"
	assert_root_reached "$dir/console.log" || { echo "(console: $dir/console.log)"; return 1; }
}

# initramfs-tools back: lifeboat goes (Conflicts), is purged, the kernel's
# image is initramfs-tools' again and nothing of lifeboat's stays in /etc.
test_hand_back_to_initramfs_tools() {
	local v=$(kernel_version) left
	# A small initramfs-tools image, made quickly: only the test's speed.
	mkdir -p "$R/etc/initramfs-tools/conf.d"
	printf 'MODULES=list\nCOMPRESS=gzip\n' > "$R/etc/initramfs-tools/conf.d/test.conf"
	in_root apt-get install -y -q --no-install-recommends --no-download initramfs-tools > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	# The administrator's own settings stay after a purge; the test's go first.
	rm -f "$R/etc/lifeboat.conf.d/test.conf"
	in_root dpkg --purge lifeboat > "$R/tmp/purge" 2>&1 || { tail -n 5 "$R/tmp/purge"; return 1; }
	in_root dpkg-query -W -f='${Status}' lifeboat 2>/dev/null | grep -q 'ok installed' && { echo "lifeboat is still installed"; return 1; }
	left=$(cd "$R" && ls -d etc/lifeboat* etc/kernel/*/lifeboat usr/lib/kernel/install.d/50-lifeboat.install 2>/dev/null)
	[ -z "$left" ] || { echo "left after the purge: $left"; return 1; }
	grep -q lifeboat "$R/usr/sbin/update-initramfs" && { echo "update-initramfs is still lifeboat's"; return 1; }
	[ -s "$R/boot/initrd.img-$v" ] || { echo "initramfs-tools made no initrd.img-$v"; return 1; }
	# shellcheck disable=SC2086
	all_installed $RUN_PACKAGES $NATIVE_PACKAGES || return 1
	"$BUILD/lifeboat" ls "$R/boot/initrd.img-$v" > "$R/tmp/ls.txt" 2>&1 || { echo "lifeboat ls failed on initramfs-tools' image"; return 1; }
	grep -q ' conf/initramfs.conf$' "$R/tmp/ls.txt" || { echo "initrd.img-$v is not initramfs-tools' (no conf/initramfs.conf)"; return 1; }
}

# And back to lifeboat: it replaces initramfs-tools, the installed kernel's
# image is remade by lifeboat's postinst.
test_takes_over_from_initramfs_tools() {
	local v=$(kernel_version)
	mkdir -p "$R/etc/lifeboat.conf.d"
	printf 'mode = generic\ncompress = zstd\n' > "$R/etc/lifeboat.conf.d/test.conf"
	# dpkg removes initramfs-tools itself: lifeboat conflicts with and
	# replaces it, and provides what the kernel depends on.
	in_root dpkg -i /tmp/lifeboat.deb > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	grep -q "Removing initramfs-tools" "$R/tmp/out" || { echo "dpkg did not remove initramfs-tools"; return 1; }
	in_root dpkg-query -W -f='${Status}' initramfs-tools | grep -q 'ok installed' && { echo "initramfs-tools was not removed"; return 1; }
	# What depended on initramfs-tools stays: lifeboat provides it, and
	# the image carries what their hooks add.
	# shellcheck disable=SC2086
	all_installed $RUN_PACKAGES $NATIVE_PACKAGES || return 1
	assert_lifeboat_image "$v" && image_has_hooks
}

test_kernel_remove_removes_image() {
	local v=$(kernel_version)
	in_root apt-get remove -y -q "linux-image-$v" linux-image-amd64 > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	[ ! -e "$R/boot/initrd.img-$v" ] || { echo "initrd.img-$v is still there after the kernel was removed"; return 1; }
	# initramfs-tools' hooks stay until it is purged; they call
	# update-initramfs -d, lifeboat's now, before lifeboat's own hook.
	grep -Eq "(lifeboat: removing|update-initramfs: Deleting) /boot/initrd.img-$v" "$R/tmp/out" ||
		{ echo "neither lifeboat's postrm.d hook nor its update-initramfs removed the image"; return 1; }
}

# Debian 13: what differs there (the libraries' names, the kernel and its
# modules, initramfs-tools' split); the scripts' own paths are Debian 12's.
if [ "$suite" = bookworm ]; then
	tests="provides_meet_archives install_package kernel_install_makes_image package_installs_beside_lifeboat
		update_initramfs trigger_defers_to_postinst boots_in_qemu hand_back_to_initramfs_tools
		takes_over_from_initramfs_tools kernel_remove_removes_image"
else
	# Debian 13's kernel and image boot a systemd root in the boot case
	# itools_trixie_systemd (tests/boot/cases-itools.sh).
	tests="install_package kernel_install_makes_image package_installs_beside_lifeboat
		hand_back_to_initramfs_tools takes_over_from_initramfs_tools"
fi
for t in $tests; do
	start=$SECONDS
	if reason=$("test_$t" 2>&1); then
		echo "deb: PASS $suite $t ($((SECONDS - start))s)"
		passed=$((passed + 1))
	else
		echo "deb: FAIL $suite $t: $reason" | head -n 20
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
