# cases-hooks.sh: hooks.d (docs/extending.md), sourced by run.sh. One hook
# adds a file, a program, a module and a command-line default, and boot
# scripts at every stage that leave markers in /run/hooks-markers (the test
# init prints it: lifeboat.test.show); a mount script mounts the root
# itself. The kernel's hooktest=fail or hooktest=hang makes a pre-mount
# script fail or a pre-udev script hang.

# hooks_image IMAGE: the hook, its scripts and the image built with them.
hooks_image() {
	local img=$1 hooks=$CASE_DIR/hooks.d s=$CASE_DIR/scripts m=/run/hooks-markers
	mkdir -p "$hooks" "$s"/cmdline "$s"/pre-udev "$s"/settled "$s"/pre-mount "$s"/mount \
		"$s"/pre-pivot "$s"/cleanup
	echo hook-file-content >"$s/hook-file"
	printf '#!/bin/sh\necho "cmdline root=$root newroot=$NEWROOT stage=$LIFEBOAT_STAGE" >>%s\n' "$m" >"$s/cmdline/10-mark"
	printf '#!/bin/sh\necho "pre-udev dummy=$([ -d /sys/module/dummy ] && echo loaded || echo missing)" >>%s\n' "$m" >"$s/pre-udev/10-module"
	printf '#!/bin/sh\ngrep -q hooktest=hang /proc/cmdline || exit 0\necho hook-hanging-now\nsleep 600\n' >"$s/pre-udev/30-hang"
	printf '#!/bin/sh\necho "$LIFEBOAT_STAGE" >>%s\n' "$m" >"$s/settled/10-mark"
	printf '#!/bin/sh\necho "pre-mount sysroot=$(grep -c " /sysroot " /proc/mounts)" >>%s\n' "$m" >"$s/pre-mount/10-mark"
	printf '#!/bin/sh\ngrep -q hooktest=fail /proc/cmdline || exit 0\necho hook-failing-now\nexit 3\n' >"$s/pre-mount/20-fail"
	printf '#!/bin/sh\nmodprobe ext4\nmount -o ro /dev/vda "$NEWROOT" && echo "mount by-script" >>%s\n' "$m" >"$s/mount/10-mount"
	printf '#!/bin/sh\necho "pre-pivot sysroot=$(grep -c " /sysroot " /proc/mounts) file=$(cat /etc/hook-file) program=$(numfmt --to=iec 2048)" >>%s\n' "$m" >"$s/pre-pivot/10-check"
	printf '#!/bin/sh\necho cleanup >>%s\n' "$m" >"$s/cleanup/10-mark"
	chmod 0755 "$s"/*/*
	cat >"$hooks/50-test" <<-HOOK
	#!/bin/sh
	# what the test's image needs
	echo "file $s/hook-file /etc/hook-file"
	echo "program /usr/bin/numfmt"
	echo "module dummy"
	echo "cmdline rd.driver.pre=dummy"
	for f in cmdline/10-mark pre-udev/10-module pre-udev/30-hang pre-mount/10-mark pre-mount/20-fail \
		mount/10-mount pre-pivot/10-check cleanup/10-mark; do
		echo "script \${f%%/*} $s/\$f"
	done
	echo "script initqueue/settled $s/settled/10-mark"
	HOOK
	chmod 0755 "$hooks/50-test"
	chmod 0755 "$hooks" "$s" "$s"/*
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --hooks-dir "$hooks" \
		-o "$img" >"$CASE_DIR/build.log" 2>&1 || { echo "the build failed: $(cat "$CASE_DIR/build.log")"; return 1; }
}

# hooks_markers N LOG: the test init showed N markers (each script ran once).
hooks_markers() {
	local n
	n=$(grep -c '^LIFEBOAT-TEST: show ' "$2")
	[ "$n" -eq "$1" ] || { echo "$n markers, not $1: a script ran twice or not at all"; return 1; }
}

# Every stage's script ran once, in the boot's order, with dracut's
# environment; the file, the program, the module and the cmdline default
# the hook asked for were there; the mount script's root was used.
case_hooks_stages() {
	local img=$CASE_DIR/hooks.img log=$CASE_DIR/console.log
	hooks_image "$img" || return 1
	boot_ok "$img" "root=LABEL=lbext4 lifeboat.test.show=/run/hooks-markers" ext4.img virtio-blk &&
	assert_log_order "$log" "show cmdline root=LABEL=lbext4 newroot=/sysroot stage=cmdline" "show pre-udev dummy=loaded" &&
	assert_log_order "$log" "show pre-udev dummy=loaded" "show initqueue/settled" &&
	assert_log_order "$log" "show initqueue/settled" "show pre-mount sysroot=0" &&
	assert_log_order "$log" "show pre-mount sysroot=0" "show mount by-script" &&
	assert_log_order "$log" "show mount by-script" "show pre-pivot sysroot=1 file=hook-file-content program=2.0K" &&
	assert_log_order "$log" "show pre-pivot sysroot=1" "show cleanup" &&
	hooks_markers 7 "$log" &&
	assert_log "$log" "timeline [0-9.]* hook pre-mount/20-fail exit 0 after" &&
	assert_log "$log" "timeline [0-9.]* mounted by a mount script" &&
	assert_log "$log" "rootmount /dev/vda ext4 ro"
}

# hooks_boot_fails APPEND OUTPUT WHY: a boot of the hooks' image with
# APPEND (and rd.shell=0: the report, then the reboot) where the script's
# OUTPUT comes before the rescue's "boot failed: WHY", and the root is not
# reached.
hooks_boot_fails() {
	local img=$CASE_DIR/hooks.img log=$CASE_DIR/console.log disk
	hooks_image "$img" || return 1
	disk=$(disk_copy ext4.img)
	# shellcheck disable=SC2046
	boot_qemu "$log" "$KERNEL" "$img" "root=LABEL=lbext4 rd.shell=0 $1" $(disk_args virtio-blk "$disk")
	assert_log_order "$log" "$2" "boot failed: $3" &&
	assert_not_log "$log" "LIFEBOAT-TEST: root reached"
}

# A script that fails: the rescue names it and its stage.
case_hooks_script_fails() {
	hooks_boot_fails "hooktest=fail" "hook-failing-now" \
		"boot script pre-mount/20-fail exited with status 3"
}

# A script that hangs: killed at rd.hook.timeout, named in the rescue.
case_hooks_script_hangs() {
	hooks_boot_fails "hooktest=hang rd.hook.timeout=3" "hook-hanging-now" \
		"boot script pre-udev/30-hang did not end within 3 s (rd.hook.timeout=) and was stopped"
}

# After a failing script the rescue shell opens; leaving it goes on with
# the next script of the stage and the boot (the mount script mounts the
# root), each script having run once.
case_hooks_fail_then_go_on() {
	local img=$CASE_DIR/hooks.img disk
	hooks_image "$img" || return 1
	disk=$(disk_copy ext4.img)
	rescue_start "$img" "root=LABEL=lbext4 hooktest=fail lifeboat.test.show=/run/hooks-markers" \
		$(disk_args virtio-blk "$disk")
	{
		expect "$SHELL_PROMPT" 120 &&
		assert_log "$CASE_DIR/console.log" "boot failed: boot script pre-mount/20-fail exited with status 3" &&
		type_line exit &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_root_reached "$CASE_DIR/console.log" &&
	assert_log_order "$CASE_DIR/console.log" "show pre-mount sysroot=0" "show mount by-script" &&
	hooks_markers 7 "$CASE_DIR/console.log"
}
