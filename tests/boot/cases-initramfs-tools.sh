# cases-initramfs-tools.sh: initramfs-tools' hooks and boot scripts through
# lifeboat's bridge (itools/, docs/initramfs-tools.md), sourced by run.sh.
# The build runs in a mount namespace of its own where tmpfs hides the
# host's /usr/share/initramfs-tools and /etc/initramfs-tools and holds the
# test's: lifeboat's hook-functions, hooks that use it as packages' hooks
# do, and boot scripts of every phase that leave markers in
# /run/itools-markers (the test init prints it: lifeboat.test.show). The
# bridge is the source tree's itools/hooks.d/50-initramfs-tools, unchanged.

IBRIDGE_MARKS=/run/itools-markers

# ibridge_script PHASE NAME PREREQ BODY: a boot script as packages write them.
ibridge_script() {
	local f=$IBRIDGE_TREE/share/scripts/$1/$2
	mkdir -p "${f%/*}"
	cat >"$f" <<-EOF
	#!/bin/sh
	PREREQ="$3"
	case \$1 in
	prereqs) echo "\$PREREQ"; exit 0 ;;
	esac
	. /scripts/functions
	$4
	EOF
	chmod 0755 "$f"
}

# ibridge_hook NAME PREREQ BODY: a build hook as packages write them.
ibridge_hook() {
	local f=$IBRIDGE_TREE/$1
	cat >"$f" <<-EOF
	#!/bin/sh
	set -e
	PREREQ="$2"
	case \$1 in
	prereqs) echo "\$PREREQ"; exit 0 ;;
	esac
	. /usr/share/initramfs-tools/hook-functions
	$3
	EOF
	chmod 0755 "$f"
}

# ibridge_tree: the test's initramfs-tools hooks and scripts, in IBRIDGE_TREE.
ibridge_tree() {
	local m=$IBRIDGE_MARKS
	IBRIDGE_TREE=$CASE_DIR/itools
	mkdir -p "$IBRIDGE_TREE/share/hooks" "$IBRIDGE_TREE/etc/hooks"
	echo from-copy-file >"$IBRIDGE_TREE/lbtest.conf"
	# A hook that needs another's work first (its PREREQ), and one of
	# each kind of request.
	ibridge_hook zz-first "" 'echo first >"$DESTDIR/etc/zz-first"'
	ibridge_hook aa-second "zz-first" "[ -e \"\$DESTDIR/etc/zz-first\" ] || { echo 'aa-second ran before zz-first'; exit 1; }
	copy_exec /usr/bin/numfmt /bin
	copy_file config $IBRIDGE_TREE/lbtest.conf /etc/lbtest.conf
	force_load dummy numdummies=3
	manual_add_modules overlayfs
	echo written >\"\$DESTDIR/etc/lbtest-written\"
	ln -s lbtest.conf \"\$DESTDIR/etc/lbtest-link\"
	mkdir -p \"\$DESTDIR/var/lib/lbtest\""
	mv "$IBRIDGE_TREE/zz-first" "$IBRIDGE_TREE/aa-second" "$IBRIDGE_TREE/share/hooks/"
	# The admin's hook runs after the packages'.
	ibridge_hook lbadmin "" 'copy_exec /usr/bin/numfmt /usr/bin/numfmt-admin'
	mv "$IBRIDGE_TREE/lbadmin" "$IBRIDGE_TREE/etc/hooks/"
	# busybox's own hook: lifeboat brings its busybox itself, and this
	# one would fail the build if it ran.
	printf '#!/bin/sh\necho "zz-busybox ran"; exit 1\n' >"$IBRIDGE_TREE/share/hooks/zz-busybox"
	chmod 0755 "$IBRIDGE_TREE/share/hooks/zz-busybox"
	ibridge_script init-top lbtest "" "echo \"init-top rootmnt=\$rootmnt BOOT=\$BOOT readonly=\$readonly\" >>$m"
	ibridge_script init-premount lbtest "" "echo \"init-premount dummies=\$(ls /sys/class/net | grep -c '^dummy')\" >>$m"
	ibridge_script local-top zz-first "" "echo local-top-zz-first >>$m; echo blacklist=from-param >>/conf/param.conf"
	ibridge_script local-top aa-second "zz-first" "echo \"local-top-aa-second ROOT=\$ROOT\" >>$m"
	ibridge_script local-premount lbtest "" "echo \"local-premount sysroot=\$(grep -c ' /sysroot ' /proc/mounts)\" >>$m
	grep -q itoolstest=panic /proc/cmdline && panic 'lbtest asked to stop'
	true"
	ibridge_script local-bottom lbtest "" "log_success_msg itools-local-bottom-said
	echo \"local-bottom sysroot=\$(grep -c ' /sysroot ' /proc/mounts) fstype=\$(get_fstype \$ROOT) program=\$(numfmt --to=iec 2048) conf=\$(cat /etc/lbtest.conf) written=\$(cat /etc/lbtest-written) link=\$(cat /etc/lbtest-link)\" >>$m"
	ibridge_script local-bottom lbfail "lbtest" "echo itools-failing-now; exit 3"
	ibridge_script nfs-top lbtest "" "echo nfs-top-ran >>$m"
	ibridge_script init-bottom lbtest "" "echo \"init-bottom blacklist=\$blacklist\" >>$m"
	ibridge_script panic lbtest "" "echo itools-panic-script-ran"
}

# ibridge_build IMAGE: the image, built with the tree in a namespace of its own.
ibridge_build() {
	local img=$1 d made="" r=0
	ibridge_tree || return 1
	for d in /usr/share/initramfs-tools /etc/initramfs-tools; do
		[ -d "$d" ] || { mkdir -p "$d" && made="$made $d"; }
	done
	unshare -m /bin/bash -c '
		set -e
		tree=$1 functions=$2; shift 2
		mount -t tmpfs none /usr/share/initramfs-tools
		mount -t tmpfs none /etc/initramfs-tools
		cp -a "$tree/share/." /usr/share/initramfs-tools/
		cp -a "$tree/etc/." /etc/initramfs-tools/
		cp "$functions" /usr/share/initramfs-tools/
		exec "$@"' itools "$IBRIDGE_TREE" "$TOP/itools/hook-functions" \
		"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" \
		--hooks-dir "$TOP/itools/hooks.d" -o "$img" >"$CASE_DIR/build.log" 2>&1 || r=$?
	for d in $made; do rmdir "$d"; done
	[ "$r" -eq 0 ] || { echo "the build failed: $(tail -n 20 "$CASE_DIR/build.log")"; return 1; }
}

# The hooks ran in their PREREQ order (the admin's after the packages'),
# busybox's was left to lifeboat, and what they copied, wrote, linked and
# loaded is in the image; every phase's scripts ran where initramfs-tools
# runs them, in their order, with its environment and functions; a
# script's failure is said and the boot goes on; param.conf carries a
# variable to later phases; the NFS phases do not run for a disk root.
case_initramfs_tools_hooks_scripts() {
	local img=$CASE_DIR/itools.img log=$CASE_DIR/console.log
	ibridge_build "$img" || return 1
	assert_log "$CASE_DIR/build.log" "share/initramfs-tools/hooks/zz-busybox (busybox[a-z-]*) is not run" &&
	assert_log "$CASE_DIR/build.log" "initramfs-tools: ran 3 hooks; 10 boot scripts" &&
	assert_not_log "$CASE_DIR/build.log" "zz-busybox ran" &&
	boot_ok "$img" "root=LABEL=lbext4 lifeboat.test.show=$IBRIDGE_MARKS" ext4.img virtio-blk &&
	assert_log_order "$log" "show init-top rootmnt=/sysroot BOOT=local readonly=y" "show init-premount dummies=3" &&
	assert_log_order "$log" "show init-premount dummies=3" "show local-top-zz-first" &&
	assert_log_order "$log" "show local-top-zz-first" "show local-top-aa-second ROOT=/dev/vda" &&
	assert_log_order "$log" "show local-top-aa-second" "show local-premount sysroot=0" &&
	assert_log_order "$log" "show local-premount sysroot=0" "show local-bottom sysroot=1" &&
	assert_log "$log" "Success: itools-local-bottom-said" &&
	assert_log "$log" "show local-bottom sysroot=1 fstype=ext4 program=2.0K conf=from-copy-file written=written link=from-copy-file" &&
	assert_log_order "$log" "itools-failing-now" "initramfs-tools script local-bottom/lbfail exited with status 3; the boot goes on" &&
	assert_log_order "$log" "show local-bottom sysroot=1" "show init-bottom blacklist=from-param" &&
	assert_not_log "$log" "show nfs-top-ran"
}

# A script that calls panic stops the boot: the panic phase's scripts run,
# and the rescue names it.
case_initramfs_tools_panic() {
	local img=$CASE_DIR/itools.img log=$CASE_DIR/console.log disk
	ibridge_build "$img" || return 1
	disk=$(disk_copy ext4.img)
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$img" "root=LABEL=lbext4 rd.shell=0 itoolstest=panic" $(disk_args virtio-blk "$disk")
	assert_log_order "$log" "itools-panic-script-ran" "initramfs-tools script local-premount/lbtest stopped" &&
	assert_log_order "$log" "initramfs-tools script local-premount/lbtest stopped the boot: lbtest asked to stop" \
		"boot failed: boot script pre-mount/50-initramfs-tools exited with status 1" &&
	assert_not_log "$log" "LIFEBOAT-TEST: root reached"
}
