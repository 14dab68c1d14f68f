# systemd-root.sh: a test root that Debian's real systemd boots and shuts
# down (sourced by cases-shutdown.sh, for shutdown_systemd_md).
#
# Made from the build host's own files: no mirror, no debootstrap. The
# tree holds systemd (PID 1), systemd-shutdown, systemctl and the shell,
# each with the libraries ldd lists for it, the host's os-release, a fixed
# machine-id, the host's units of the power-off (poweroff.target and what
# it pulls in) and two of its own: default.target, which wants
# lifeboat-marker.service, a oneshot that writes a marker on the root and
# then asks for the power-off with `systemctl poweroff`. Nothing else is
# there: no generators (so no fstab, no getty), no udev (the md array is
# assembled by the initramfs before systemd starts, and no unit waits for a
# device), no journald (systemd and its service log to the console).
# About 20 MB (39 files), written onto the md RAID1 root of cases-stacks.sh.

SDROOT_PROGRAMS="/lib/systemd/systemd /lib/systemd/systemd-shutdown /bin/systemctl /bin/sh"
SDROOT_HOST_UNITS="poweroff.target systemd-poweroff.service shutdown.target umount.target final.target"
SDROOT_MACHINE_ID=1b2c3d4e00194a5b8c6d7e8f9a0b1c2d
SDROOT_MARKER="written by lifeboat-marker.service under systemd"

# sdroot_copy DIR FILE: FILE's content at its host path in DIR, the
# directories resolved as the host resolves them (/lib is usr/lib on a
# merged-/usr host; the tree's /bin, /sbin, /lib and /lib64 point into usr
# as well), a symlink to a library copied as the file it names.
sdroot_copy() {
	local dir=$1 file=$2 where
	where=$(realpath "$(dirname "$file")") || return 1
	mkdir -p "$dir$where" && cp -L "$file" "$dir$where/$(basename "$file")"
}

# sdroot_libs FILE: the shared libraries and the loader FILE needs, by path.
sdroot_libs() {
	ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
}

# The units: the host's for the power-off, and this test's own.
sdroot_units() {
	local dir=$1 u
	mkdir -p "$dir/usr/lib/systemd/system" "$dir/etc/systemd/system"
	for u in $SDROOT_HOST_UNITS; do
		cp "/lib/systemd/system/$u" "$dir/usr/lib/systemd/system/$u" || return 1
	done
	cat > "$dir/etc/systemd/system/default.target" <<-'EOF'
	[Unit]
	Description=lifeboat test: the marker, then the power-off
	Wants=lifeboat-marker.service
	After=lifeboat-marker.service
	EOF
	# The marker line goes to the root and, for the order of events, to
	# the console. No sync: that it reaches the array is the shutdown's
	# work (systemd-shutdown's, then the way out's unmount).
	cat > "$dir/etc/systemd/system/lifeboat-marker.service" <<-EOF
	[Unit]
	Description=lifeboat test: write a marker on the root, then power off
	DefaultDependencies=no

	[Service]
	Type=oneshot
	StandardOutput=tty
	ExecStart=/bin/sh -c 'echo "$SDROOT_MARKER" > /systemd-marker && echo "LIFEBOAT-TEST: systemd marker written"'
	ExecStart=/bin/systemctl --no-block poweroff
	EOF
}

# sdroot_tree DIR: the systemd test root in DIR (made anew).
sdroot_tree() {
	local dir=$1 prog lib d
	[ -x /lib/systemd/systemd ] && [ -x /lib/systemd/systemd-shutdown ] ||
		{ echo "no systemd on the build host (tests/install-deps.sh installs it)"; return 1; }
	rm -rf "$dir"
	mkdir -p "$dir/usr/bin" "$dir/usr/sbin" "$dir/usr/lib" "$dir/usr/lib64" \
		"$dir/proc" "$dir/sys" "$dir/dev" "$dir/run" "$dir/tmp" "$dir/etc"
	for d in bin sbin lib lib64; do
		ln -s "usr/$d" "$dir/$d"
	done
	mkdir -p "$dir/var" && ln -s ../run "$dir/var/run"
	for prog in $SDROOT_PROGRAMS; do
		sdroot_copy "$dir" "$prog" || return 1
		for lib in $(sdroot_libs "$prog"); do
			[ -e "$dir$lib" ] || sdroot_copy "$dir" "$lib" || return 1
		done
	done
	cp /usr/lib/os-release "$dir/usr/lib/os-release" && ln -s ../usr/lib/os-release "$dir/etc/os-release" &&
	echo "$SDROOT_MACHINE_ID" > "$dir/etc/machine-id" &&
	echo "lifeboat systemd test root" > "$dir/etc/issue" &&
	sdroot_units "$dir"
}

# sdroot_md_data MEMBER: "OFFSET SIZE" in bytes of the array's data on
# the member (md-super.py data).
sdroot_md_data() {
	"$MD_SUPER" data "$1" | sed -n 's/^data_offset=\([0-9]*\) size=\([0-9]*\)$/\1 \2/p'
}

# sdroot_on_md A B TREE: the md RAID1 root's filesystem (members A and B)
# made anew from TREE with its UUID and label, and written into both
# members where the array's data starts (md-super.py data). A RAID1
# member holds the whole of the array's data, and the builder made the
# array --assume-clean without a write-intent bitmap, so the two stay in
# sync.
sdroot_on_md() {
	local a=$1 b=$2 tree=$3 fs=$CASE_DIR/sdroot-fs.img off size m
	read -r off size < <(sdroot_md_data "$a")
	[ -n "$size" ] || { echo "$a: no md superblock to read the data offset from"; return 1; }
	rm -f "$fs" && truncate -s "$size" "$fs" &&
	mkfs.ext4 -q -F -L lbmdfs -U "$UUID_MD_FS" -d "$tree" "$fs" ||
		{ echo "mkfs.ext4 -d $tree failed"; return 1; }
	for m in "$a" "$b"; do
		dd if="$fs" of="$m" bs=1M oflag=seek_bytes seek="$off" conv=notrunc status=none ||
			{ echo "writing the systemd root into $m failed"; return 1; }
	done
	rm -f "$fs"
}

# sdroot_marker_on MEMBER: the marker file as the member's copy of the
# array's filesystem holds it (read with debugfs, nothing mounted).
sdroot_marker_on() {
	local member=$1 fs=$CASE_DIR/sdroot-check.img off size
	read -r off size < <(sdroot_md_data "$member")
	[ -n "$size" ] && dd if="$member" of="$fs" bs=1M iflag=skip_bytes,count_bytes skip="$off" count="$size" status=none &&
	debugfs -R 'cat /systemd-marker' "$fs" 2>/dev/null
	rm -f "$fs"
}
