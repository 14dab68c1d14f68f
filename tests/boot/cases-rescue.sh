# cases-rescue.sh: the rescue shell's boot scenarios (sourced by run.sh).
# Each boots qemu with the serial console and the monitor on pipes
# (qemu -chardev pipe: NAME.in carries what is typed, NAME.out what the
# machine prints), types into the rescue shell or prompt and asserts on what
# comes back. Typed text is echoed, so every assertion looks for output the
# typed line does not contain (computed by the shell: $((6*7)) -> 42).

RESCUE_PASSWORD=lifeboat-rescue-pw

# rescue_start INITRD APPEND QEMU_ARGS...: boot in the background; inside
# the network namespace RESCUE_NETNS when it is set (its tap devices); with
# the VGA card RESCUE_VGA (qemu's -vga: none by default; no window).
rescue_start() {
	local initrd=$1 append=$2 ser=$CASE_DIR/serial mon=$CASE_DIR/monitor
	shift 2
	mkfifo "$ser.in" "$ser.out" "$mon.in" "$mon.out"
	timeout -k 5 "$QEMU_TIMEOUT" ${RESCUE_NETNS:+ip netns exec "$RESCUE_NETNS"} qemu-system-x86_64 -accel tcg -cpu max -m 512 \
		-display none -vga "${RESCUE_VGA:-none}" -no-reboot -nic none \
		-chardev "pipe,id=ser,path=$ser" -serial chardev:ser \
		-chardev "pipe,id=mon,path=$mon" -mon chardev=mon,mode=readline \
		-kernel "$KERNEL" -initrd "$initrd" -append "$GUEST_APPEND $append" \
		"$@" </dev/null >"$CASE_DIR/qemu.out" 2>&1 &
	QEMU_PID=$!
	# Read-write opens never block on a FIFO, whoever comes first.
	exec 7<>"$ser.in" 8<>"$mon.in"
	cat 0<>"$ser.out" >"$CASE_DIR/console.log" &
	SER_CAT=$!
	cat 0<>"$mon.out" >"$CASE_DIR/monitor.log" &
	MON_CAT=$!
	MARK=0
}

# rescue_stop RC: wait for qemu to end (it powers off or reboots:
# -no-reboot); after a failed step (RC not 0) stop it instead of waiting for
# the test's timeout.
rescue_stop() {
	[ "$1" -eq 0 ] || kill "$QEMU_PID" 2>/dev/null
	wait "$QEMU_PID"
	kill "$SER_CAT" "$MON_CAT" 2>/dev/null
	wait "$SER_CAT" "$MON_CAT" 2>/dev/null
	exec 7>&- 8>&-
}

# expect PATTERN [SECONDS]: the console shows PATTERN (grep -E) after the
# last thing typed.
expect() {
	local pattern=$1 limit=${2:-60} i
	for ((i = 0; i < limit * 5; i++)); do
		tail -c "+$((MARK + 1))" "$CASE_DIR/console.log" | tr -d '\r' | grep -Eq -- "$pattern" && return 0
		kill -0 "$QEMU_PID" 2>/dev/null || break
		sleep 0.2
	done
	tail -c "+$((MARK + 1))" "$CASE_DIR/console.log" | tr -d '\r' | grep -Eq -- "$pattern" && return 0
	echo "the console never showed '$pattern'"
	return 1
}

# type_line TEXT: type a line on the serial console.
type_line() {
	MARK=$(stat -c %s "$CASE_DIR/console.log")
	printf '%s\n' "$1" >&7
}

monitor() {
	printf '%s\n' "$1" >&8
}

SHELL_PROMPT='lifeboat:/# '

# A missing root: summary and report name the devices seen, the shell runs
# commands with the console as its controlling terminal, exit retries and
# fails again cleanly; a disk hot-added through the monitor then lets exit
# continue to the real root.
case_rescue_missing_root_hotadd() {
	local gpt ext4
	gpt=$(disk_copy gpt.img)
	ext4=$(disk_copy ext4.img)
	# The report is root's only and has no secret of the kernel's command line.
	rescue_start "$IMG_GENERIC" "root=UUID=$UUID_EXT4 rd.timeout=3 \"rd.iscsi.password=Rescue-Secret-1\"" \
		$(disk_args virtio-blk "$gpt")
	{
		expect "$SHELL_PROMPT" 90 &&
		assert_log "$CASE_DIR/console.log" "boot failed: root device root=UUID=$UUID_EXT4 did not appear" &&
		assert_log "$CASE_DIR/console.log" '/dev/vda2 TYPE="ext4" LABEL="lbgptfs"' &&
		type_line 'r=/run/initramfs/rdsosreport.txt; echo REPORT-$(grep -c "vda2 TYPE=.ext4. LABEL=.lbgptfs" $r)-$(grep -c "Rescue-Secret" $r)-$(grep -c "rd.iscsi.password=\*" $r)-$(stat -c %a $r)-$((6*7))' &&
		expect 'REPORT-1-0-[1-9]-600-42' &&
		type_line 'echo CTTY-$( (: </dev/tty) 2>/dev/null && echo yes || echo no)-$(tty)' &&
		expect 'CTTY-yes-/dev/ttyS0' &&
		type_line exit &&
		expect "boot failed: root device root=UUID=$UUID_EXT4 did not appear" 40 &&
		expect "$SHELL_PROMPT" &&
		monitor "drive_add 0 file=$ext4,format=raw,if=none,id=hot0" &&
		monitor "device_add virtio-blk-pci,drive=hot0,id=hotdisk" &&
		type_line 'while [ ! -b /dev/vdb ]; do sleep 0.2; done; echo HOT-$((40+2))' &&
		expect 'HOT-42' 40 &&
		type_line exit &&
		expect '^LIFEBOAT-TEST: end' 60
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vdb ext4"
}

# rd.break=pre-mount and rd.break (before switch_root) in one boot: each
# stops where asked (/sysroot not mounted, then mounted), exit goes on.
case_rescue_break_stages() {
	local disk
	disk=$(disk_copy ext4.img)
	rescue_start "$IMG_GENERIC" "root=LABEL=lbext4 rd.break=pre-mount rd.break" $(disk_args virtio-blk "$disk")
	{
		expect "$SHELL_PROMPT" 90 &&
		assert_log "$CASE_DIR/console.log" "rd.break=pre-mount: the boot stops here" &&
		type_line "echo SYSROOT-\$(grep -c ' /sysroot ' /proc/mounts)-X" &&
		expect 'SYSROOT-0-X' &&
		type_line exit &&
		expect "rd.break=pre-pivot: the boot stops here" 40 &&
		expect "$SHELL_PROMPT" &&
		type_line "echo SYSROOT-\$(grep -c ' /sysroot ' /proc/mounts)-X" &&
		expect 'SYSROOT-1-X' &&
		type_line exit &&
		expect '^LIFEBOAT-TEST: end' 60
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_root_reached "$CASE_DIR/console.log" && assert_timeline "$CASE_DIR/console.log"
}

# --rescue none: the built-in prompt lists devices, shows the report,
# refuses what it does not know, retries the missing root, powers off.
case_rescue_builtin_prompt() {
	local disk img=$CASE_DIR/none.img
	disk=$(disk_copy gpt.img)
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" --rescue none -o "$img" >/dev/null || return 1
	rescue_start "$img" "root=LABEL=nosuchlabel rd.timeout=2" $(disk_args virtio-blk "$disk")
	{
		expect 'lifeboat> ' 90 &&
		# rd.timeout=2 may end before a loaded host's guest has probed
		# the disk: list the devices once the kernel has its partitions.
		expect ' vda: vda1 vda2' 60 &&
		type_line devices &&
		expect '/dev/vda2 TYPE="ext4" LABEL="lbgptfs"' &&
		type_line report &&
		expect '=== loaded modules' &&
		type_line frobnicate &&
		expect 'unknown command' &&
		type_line retry &&
		expect 'boot failed: root device root=LABEL=nosuchlabel' 40 &&
		expect 'lifeboat> ' &&
		type_line poweroff
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_not_log "$CASE_DIR/console.log" "$SHELL_PROMPT"
}

# auth_shadow: a test shadow file whose root password is RESCUE_PASSWORD;
# prints its path.
auth_shadow() {
	printf 'daemon:*:19000:0:99999:7:::\nroot:%s:19000:0:99999:7:::\n' \
		"$(openssl passwd -6 -salt lifeboattest "$RESCUE_PASSWORD")" >"$CASE_DIR/shadow"
	echo "$CASE_DIR/shadow"
}

# auth_image IMAGE: busybox and root's password (a test shadow file).
auth_image() {
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" --rescue busybox \
		--rescue-auth --rescue-shadow "$(auth_shadow)" -o "$1" >/dev/null
}

# --rescue-auth: a wrong password is refused, the right one opens the shell.
case_rescue_auth() {
	local disk img=$CASE_DIR/auth.img
	disk=$(disk_copy ext4.img)
	auth_image "$img" || return 1
	rescue_start "$img" "root=LABEL=lbext4 rd.break=pre-mount" $(disk_args virtio-blk "$disk")
	{
		expect 'Give root password' 90 &&
		type_line not-the-password &&
		expect 'Login incorrect' &&
		expect 'Give root password' &&
		type_line "$RESCUE_PASSWORD" &&
		expect "$SHELL_PROMPT" &&
		type_line 'echo AUTH-$((6*7))' &&
		expect 'AUTH-42' &&
		type_line exit &&
		expect '^LIFEBOAT-TEST: end' 60
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_root_reached "$CASE_DIR/console.log" &&
	assert_not_log "$CASE_DIR/console.log" "$RESCUE_PASSWORD"
}

type_wrong_passwords() {
	local i
	for ((i = 1; i <= $1; i++)); do
		expect 'Give root password' 90 && type_line "wrong-$i" && expect 'Login incorrect' || return 1
	done
}

# Three wrong passwords: no shell, the report, a reboot.
case_rescue_auth_refused() {
	local disk img=$CASE_DIR/auth.img start end
	disk=$(disk_copy gpt.img)
	auth_image "$img" || return 1
	start=$(date +%s)
	rescue_start "$img" "root=LABEL=nosuchlabel rd.timeout=2" $(disk_args virtio-blk "$disk")
	type_wrong_passwords 3 && expect 'the root password was refused: no shell.*rebooting' 30
	local rc=$?
	rescue_stop $rc
	end=$(date +%s)
	[ $rc -eq 0 ] && assert_not_log "$CASE_DIR/console.log" "$SHELL_PROMPT" &&
	{ [ $((end - start)) -lt $((QEMU_TIMEOUT - 10)) ] || { echo "no reboot: qemu ran until the test's timeout"; return 1; }; }
}

# rescue_luks_repair_steps DEVICE: the repair of a root in a LUKS container
# on DEVICE that the boot left closed (rd.luks=0) with its filesystem's
# module not loaded, as a person types it in a rescue shell: lifeboat's
# modprobe by name, with a parameter, and -r; the unlock (its ciphers
# loaded by the kernel through /sbin/modprobe); a mount without -t (ext4
# loaded on demand). One step a line, "TYPED<tab>MARKER": each typed line
# prints a marker it does not contain itself (computed: $((40+2)) -> 42),
# so that a driver (rescue_console_steps here; cases-ssh.sh over SSH) can
# type a step and wait for its marker.
rescue_luks_repair_steps() {
	local dev=$1
	printf '%s\t%s\n' \
		'echo FS-$(grep -cw ext4 /proc/filesystems)-$((40+2))' 'FS-0-42' \
		'modprobe dm_crypt && echo MOD-$(lsmod | grep -c "^dm_crypt ")-$((40+3))' 'MOD-1-43' \
		'modprobe loop max_loop=3 && echo PARAM-$(cat /sys/module/loop/parameters/max_loop)-$((40+4))' 'PARAM-3-44' \
		'modprobe xfs && modprobe -r xfs && echo RM-$(grep -c "^xfs " /proc/modules)-$(grep -c "^libcrc32c " /proc/modules)-$((40+5))' 'RM-0-0-45' \
		"printf %s '$LUKS_PW' | cryptsetup open --key-file=- $dev lbroot && echo OPEN-\$((40+6))" 'OPEN-46' \
		'mount -o ro /dev/dm-0 /sysroot && echo MOUNT-$(grep -cw ext4 /proc/filesystems)-$((40+7))' 'MOUNT-1-47'
}

# rescue_console_steps: type each "TYPED<tab>MARKER" line of stdin on the
# serial console and wait for its marker.
rescue_console_steps() {
	local typed marker
	while IFS=$'\t' read -r typed marker; do
		type_line "$typed" && expect "$marker" 120 || return 1
	done
}

# Issue 34: a root= that does not exist, the real root in LUKS on
# virtio-scsi: the rescue shell loads modules with modprobe, unlocks,
# mounts /sysroot by hand, and exit goes on to that root, saying so.
case_rescue_luks_repair_by_hand() {
	local disk
	stacks_setup || return 1
	disk=$(stack_copy luks)
	QEMU_TIMEOUT=400 rescue_start "$IMG_STACKS" "root=UUID=$UUID_GONE rd.luks=0 rd.timeout=5" \
		$(disk_args virtio-scsi "$disk")
	{
		expect "$SHELL_PROMPT" 150 &&
		rescue_console_steps < <(rescue_luks_repair_steps /dev/sda) &&
		type_line exit &&
		expect "/sysroot is mounted: the boot goes on with it" 60 &&
		expect '^LIFEBOAT-TEST: end' 120
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_root_reached "$CASE_DIR/console.log"
}
