# cases-itools.sh: packages that plug into initramfs-tools, run unmodified
# by lifeboat (issue 30's proof, issue 38), and Debian 13 as a target
# (issue 29), sourced by run.sh. The Debian roots of
# tests/boot/itools-root.sh have them installed by apt after lifeboat's
# .deb; the kernel's postinst made its image, which boots the root with
# the root's own kernel. The report unit prints LIFEBOAT-DEB: lines
# (debian-root.sh's and itools-root.sh's).

source "$TOP/tests/boot/itools-root.sh"

# itools_assert_image WHAT FILE: the root's image carries FILE (a path as
# `lifeboat ls` prints it), which the package's hook put there.
itools_assert_image() {
	grep -q "$2\$" "$ITOOLS_OUT/initrd.ls" ||
		{ echo "the image has no $2: $1's hook did not run at the build (list: $ITOOLS_OUT/initrd.ls; lifeboat from $(cat "$ITOOLS_OUT/deb"))"; return 1; }
}

# itools_sectors LOG: the disk's and the root partition's sizes in
# sectors, as the report printed them.
itools_sectors() {
	debroot_value "$1" sectors
}

# itools_assert_grown LOG DISK: the root's partition (1100 of 1600 MiB)
# fills the disk after the boot (growpart keeps the last 33 sectors free,
# room for a GPT's backup, on an MBR disk too), growroot's local-bottom
# script said GROWROOT: CHANGED on the console, and the root came up
# writable (the probe reached the disk: what the overlay case checks it
# does not).
itools_assert_grown() {
	local sizes disk_end part_end
	assert_log "$1" 'GROWROOT: CHANGED' || return 1
	sizes=$(itools_sectors "$1")
	disk_end=${sizes% *} part_end=$((2048 + ${sizes#* }))
	[ "$part_end" -le "$disk_end" ] && [ "$part_end" -ge $((disk_end - 33)) ] ||
		{ echo "the root's partition ends at sector $part_end after the boot, not in the disk's last 33 of $disk_end"; return 1; }
	debugfs -R 'cat /itools-probe' "$(itools_part "$2")" 2>/dev/null | grep -q written-after-boot ||
		{ echo "the file written to / after the boot is not on the disk"; return 1; }
}

# cloud-initramfs-growroot on Debian 12: the root's partition grows to the
# disk's end at the boot (itools_assert_grown) and systemd reaches
# multi-user with no failed unit.
case_itools_growroot() {
	local disk=$CASE_DIR/disk.img log=$CASE_DIR/console.log
	itools_copy "$disk" || return 1
	itools_assert_image cloud-initramfs-growroot bin/growpart || return 1
	itools_boot "$log" "$disk" ""
	debroot_assert_clean "$log" && itools_assert_grown "$log" "$disk"
}

# overlayroot, set in /etc/overlayroot.conf as its comments say: the root
# comes up as an overlay of a tmpfs (/media/root-rw) on the disk's
# filesystem mounted read-only (/media/root-ro); a file written to / after
# the boot is not on the disk. growroot is off
# (/etc/growroot-disabled), so the case proves only the overlay.
case_itools_overlayroot() {
	local disk=$CASE_DIR/disk.img log=$CASE_DIR/console.log root
	itools_copy "$disk" || return 1
	itools_assert_image overlayroot init-bottom/overlayroot || return 1
	debroot_write "$(itools_part "$disk")" /etc/overlayroot.conf 'overlayroot="tmpfs"' &&
	debroot_write "$(itools_part "$disk")" /etc/growroot-disabled 'the overlay case' || return 1
	itools_boot "$log" "$disk" ""
	debroot_assert_clean "$log" || return 1
	root=$(debroot_value "$log" root)
	case $root in
	*' overlay') ;;
	*) echo "/ is '$root' in /proc/mounts after the boot, not an overlay"; return 1 ;;
	esac
	assert_log "$log" "$DEBROOT_MARK: under /media/root-ro ext4 ro[,$(printf '\r')]" &&
	assert_log "$log" "$DEBROOT_MARK: under /media/root-rw tmpfs " &&
	assert_log "$log" "$DEBROOT_MARK: probe written" || return 1
	! debugfs -R 'cat /itools-probe' "$(itools_part "$disk")" 2>/dev/null | grep -q written-after-boot ||
		{ echo "the file written to / after the boot reached the disk: the root was not under an overlay"; return 1; }
}

# itools_assert_xz_modules: the root's kernel keeps its modules only as
# .ko.xz under /usr/lib/modules (as Debian 13's does), and the image,
# which lifeboat made from them, holds the root's disk and filesystem
# drivers.
itools_assert_xz_modules() {
	local kinds
	kinds=$(cat "$ITOOLS_OUT/modules")
	case $kinds in
	"/usr/lib/modules/"*" .ko.xz "[1-9]*) ;;
	*) echo "the root's modules are not all .ko.xz under /usr/lib/modules: $kinds"; return 1 ;;
	esac
	[ "$(echo "$kinds" | wc -l)" -eq 1 ] || { echo "the root's modules are of more than one kind: $kinds"; return 1; }
	itools_assert_image linux-image-amd64 /virtio_blk.ko && itools_assert_image linux-image-amd64 /ext4.ko
}

# itools_assert_checked_once LOG: lifeboat checked the root and left its
# stamp, so systemd-fsck-root was skipped (its condition failed, it never
# started).
itools_assert_checked_once() {
	local stamp fsck
	stamp=$(debroot_value "$1" fsck-stamp)
	fsck=$(debroot_value "$1" fsck-root)
	[ "$stamp" = /run/initramfs/fsck-root ] || { echo "lifeboat left no /run/initramfs/fsck-root ($stamp)"; return 1; }
	case " $fsck " in
	*" ConditionResult=no "*) ;;
	*) echo "systemd-fsck-root's condition did not fail after lifeboat's check: $fsck"; return 1 ;;
	esac
	case " $fsck " in
	*" ExecMainStartTimestampMonotonic=0 "*) ;;
	*) echo "systemd-fsck-root ran after lifeboat's check: $fsck"; return 1 ;;
	esac
}

# Debian 13 (trixie, issue 29): its own kernel (6.12, modules as .ko.xz
# under /usr/lib/modules) boots the root with the image its postinst made
# with lifeboat (installed with apt from the .deb, its Debian 12 library
# names met by Debian 13's t64 packages); systemd 257 reaches multi-user
# with no failed unit, the root was checked once (by lifeboat), growroot
# grew the root's partition, and lifeboat's timeline shows the modules it
# loaded (the disk's and ext4's drivers are loaded modules).
case_itools_trixie_systemd() {
	local disk=$CASE_DIR/disk.img log=$CASE_DIR/console.log versions
	itools_suite trixie && itools_copy "$disk" || return 1
	itools_assert_xz_modules && itools_assert_image cloud-initramfs-growroot bin/growpart || return 1
	itools_boot "$log" "$disk" ""
	debroot_assert_clean "$log" && itools_assert_checked_once "$log" && itools_assert_grown "$log" "$disk" ||
		return 1
	versions=$(debroot_value "$log" versions)
	case $versions in
	"6.12."*" systemd 257"*) ;;
	*) echo "the root booted kernel and systemd '$versions', not Debian 13's 6.12 and 257"; return 1 ;;
	esac
	assert_log "$log" "$DEBROOT_MARK: timeline [0-9.]* modules [1-9][0-9]* loaded" &&
	assert_log "$log" "$DEBROOT_MARK: loaded ext4 virtio_blk "
}

# itools_assert_took_over_dracut: before lifeboat's .deb, the root's image
# was dracut's (its kernel hook made it: dracut's files in it); apt
# removed dracut when it installed lifeboat, and lifeboat's postinst made
# the kernel's image again (lifeboat's build settings in it).
itools_assert_took_over_dracut() {
	local out=$ITOOLS_OUT
	grep -q 'dracut: Generating /boot/initrd.img-' "$out/install.log" &&
	grep -q ' usr/lib/dracut/' "$out/initrd-before.ls" ||
		{ echo "dracut made no image before lifeboat came (log: $out/install.log)"; return 1; }
	grep -qx 'dracut rc ' "$out/generators" && grep -qx 'lifeboat ii ' "$out/generators" &&
	! grep -q '^dracut-core ii' "$out/generators" ||
		{ echo "after apt installed lifeboat: $(tr '\n' ';' <"$out/generators"), not dracut removed and lifeboat installed"; return 1; }
	itools_assert_image lifeboat etc/lifeboat/build.conf
}

# itools_assert_back_to_dracut: on the root lifeboat took over, `apt-get
# install dracut` removed lifeboat (it conflicts with dracut) and dracut's
# postinst made the kernel's image again (dracut's files in it, lifeboat's
# not); `apt-get purge lifeboat` left no lifeboat package, kernel hook or
# file of its own, only the administrator's /etc/lifeboat.conf.d. The
# other order, `apt-get purge lifeboat` first (simulated), keeps the
# kernel: apt brings initramfs-tools in lifeboat's place.
itools_assert_back_to_dracut() {
	local out=$ITOOLS_OUT purge_first
	purge_first=$(sed -n '/^== apt-get -s purge lifeboat/,/^== /p' "$out/back.log")
	echo "$purge_first" | grep -q '^Purg lifeboat ' && echo "$purge_first" | grep -q '^Inst initramfs-tools ' &&
	! echo "$purge_first" | grep -q '^Remv linux-image' ||
		{ echo "apt-get -s purge lifeboat would not keep the kernel with initramfs-tools (log: $out/back.log)"; return 1; }
	grep -q '^Removing lifeboat ' "$out/back.log" &&
	grep -q 'dracut: Generating /boot/initrd.img-' "$out/back.log" ||
		{ echo "apt-get install dracut did not remove lifeboat and make dracut's image (log: $out/back.log)"; return 1; }
	grep -qx 'dracut ii ' "$out/generators-back" && grep -qx 'dracut-core ii ' "$out/generators-back" &&
	! grep -Eq '^lifeboat (ii|rc)|^post(inst|rm)\.d .*lifeboat' "$out/generators-back" &&
	grep -qx 'lifeboat /etc/lifeboat.conf.d/itools.conf' "$out/generators-back" ||
		{ echo "after the way back: $(tr '\n' ';' <"$out/generators-back"), not dracut installed and lifeboat purged"; return 1; }
	grep -q ' usr/lib/dracut/' "$out/initrd-back.ls" ||
		{ echo "the image after the way back has no usr/lib/dracut/: not dracut's (list: $out/initrd-back.ls)"; return 1; }
	! grep -q ' etc/lifeboat/build.conf$' "$out/initrd-back.ls" ||
		{ echo "the image after the way back is still lifeboat's (list: $out/initrd-back.ls)"; return 1; }
}

# itools_assert_dracut_booted LOG: dracut's init, not lifeboat's, mounted
# the root: the console shows dracut's initramfs, and lifeboat left no
# timeline.
itools_assert_dracut_booted() {
	assert_log "$1" 'dracut-[0-9][^ ]* (Initramfs)' || return 1
	! grep -aq "$DEBROOT_MARK: timeline " "$1" || { echo "lifeboat's timeline is in the root: lifeboat's init ran"; return 1; }
}

# The takeover from dracut and the way back (issue 29): a Debian 12 root
# whose generator is dracut (installed by apt, then the kernel: dracut's
# hook made the image) gets lifeboat's .deb with apt; dracut is removed,
# lifeboat remakes the kernel's image, which boots the root with the
# command line dracut's users have: root=UUID= and rd.* words, one of them
# (rd.dm=0, dracut's dmraid) not lifeboat's. systemd reaches multi-user
# with no failed unit and the root checked once, by lifeboat. Then the
# way back, made on the same root when its disk was made
# (itools_back_build): `apt-get install dracut`, `apt-get purge
# lifeboat`; dracut's image boots that root with the same command line to
# multi-user with no failed unit.
case_itools_dracut_takeover() {
	local disk=$CASE_DIR/disk.img log=$CASE_DIR/console.log back=$CASE_DIR/disk-back.img
	local args="rd.luks=0 rd.lvm=0 rd.md=0 rd.dm=0 rd.shell=0"
	itools_suite bookworm dracut && itools_copy "$disk" || return 1
	itools_assert_took_over_dracut || return 1
	itools_boot "$log" "$disk" "$args"
	debroot_assert_clean "$log" && itools_assert_checked_once "$log" || return 1
	itools_assert_back_to_dracut && rm -f "$disk" && cp --sparse=always "$ITOOLS_OUT/disk-back.img" "$back" || return 1
	itools_boot "$CASE_DIR/console-back.log" "$back" "$args" initrd-back.img
	debroot_assert_clean "$CASE_DIR/console-back.log" && itools_assert_dracut_booted "$CASE_DIR/console-back.log"
}
