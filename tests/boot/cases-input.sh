# cases-input.sh: prompts answered on the keyboard of a machine without a
# PS/2 controller (sourced by run.sh). The console is on the serial line
# and on the screen (console=ttyS0 console=tty0): every prompt is shown on
# both, and the keys come from a USB (xHCI) or virtio keyboard, pressed
# through qemu's monitor (sendkey), so they reach the screen's terminal
# (tty1) only once the keyboard's drivers are loaded. What the test init
# prints goes to the screen; the serial line has the kernel's and
# lifeboat's log, which the assertions read once the machine is off: the
# kernel may print a log line late, so a run only waits for what the init
# writes to the consoles itself (the prompts) and for the power-off.

INPUT_MACHINE="-machine pc,i8042=off"
USB_KBD="-device qemu-xhci -device usb-kbd"
VIRTIO_KBD="-device virtio-keyboard-pci"

# key_name CHAR: qemu's sendkey name for one character.
key_name() {
	case $1 in
	[a-z0-9]) echo "$1" ;;
	[A-Z]) echo "shift-${1,,}" ;;
	-) echo minus ;;
	.) echo dot ;;
	/) echo slash ;;
	' ') echo spc ;;
	'>') echo shift-dot ;;
	'$') echo shift-4 ;;
	'*') echo shift-8 ;;
	'(') echo shift-9 ;;
	')') echo shift-0 ;;
	*) echo "key_name: no key for '$1'" >&2; return 1 ;;
	esac
}

# press_line TEXT: type TEXT and Enter on the machine's keyboard.
press_line() {
	local text=$1 i key
	MARK=$(stat -c %s "$CASE_DIR/console.log")
	for ((i = 0; i < ${#text}; i++)); do
		key=$(key_name "${text:i:1}") || return 1
		monitor "sendkey $key"
		# qemu's USB keyboard queues 16 events: a guest starved of CPU
		# polls it late, so keys are paced rather than sent at once.
		sleep 0.15
	done
	monitor "sendkey ret"
}

# The kernel's line for the keyboard's input device, once its driver bound.
USB_KBD_INPUT='input: QEMU QEMU USB Keyboard'
VIRTIO_KBD_INPUT='input: QEMU Virtio Keyboard'

# input_luks_root KEYBOARD_ARGS INPUT_LINE: the LUKS root opens with the
# passphrase typed on that keyboard; the prompt is on the serial line too.
input_luks_root() {
	local kbd=$1 input=$2 disk rc log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy luks)
	rescue_start "$IMG_STACKS" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=90 console=tty0" \
		$INPUT_MACHINE $kbd $(virtio_disk "$disk")
	{
		expect "UUID=$UUID_LUKS; opens as /dev/mapper/luks-$UUID_LUKS" 90 &&
		expect 'Passphrase \(try 1 of 3\)' 10 &&
		expect "$input" 60 &&
		press_line "$LUKS_PW" &&
		expect 'reboot: Power down' 120
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$log" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with a passphrase" &&
	assert_log "$log" 'EXT4-fs (dm-0): mounted' &&
	assert_not_log "$log" "$LUKS_PW"
}

case_input_luks_usb_kbd() {
	input_luks_root "$USB_KBD" "$USB_KBD_INPUT"
}

case_input_luks_virtio_kbd() {
	input_luks_root "$VIRTIO_KBD" "$VIRTIO_KBD_INPUT"
}

# A second LUKS container, hot-added while the root's prompt waits: the
# wait goes on under the prompt, so its disk is seen at once; its prompt
# is queued behind the root's and comes right after it. The passphrase is
# typed 3 s after the disk appeared (a person takes longer). Lifeboat's
# log lines reach the serial console through the kernel, which may print
# them late (seen under load: the "queued" line came out only a minute
# later), so they are asserted after the boot, and the run follows only
# what the init writes to the consoles itself.
case_input_luks_hotadd() {
	local root other rc log=$CASE_DIR/console.log
	stacks_setup || return 1
	root=$(stack_copy luks)
	other=$(stack_copy lvmluks)
	rescue_start "$IMG_STACKS" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.luks.uuid=$UUID_LUKS_LVM rd.lvm=0 rd.timeout=90 console=tty0" \
		$INPUT_MACHINE $USB_KBD $(virtio_disk "$root")
	{
		expect "UUID=$UUID_LUKS; opens as /dev/mapper/luks-$UUID_LUKS" 90 &&
		monitor "drive_add 0 file=$other,format=raw,if=none,id=hot0" &&
		monitor "device_add virtio-blk-pci,drive=hot0,id=hotdisk" &&
		expect 'virtio_blk virtio1: \[vdb\]' 60 &&
		expect "$USB_KBD_INPUT" 60 &&
		sleep 3 &&
		press_line "$LUKS_PW" &&
		expect "UUID=$UUID_LUKS_LVM; opens as /dev/mapper/luks-$UUID_LUKS_LVM" 60 &&
		press_line "$LUKS_PW" &&
		expect 'reboot: Power down' 120
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$log" "/dev/vdb (LUKS UUID=$UUID_LUKS_LVM) appeared while another prompt waits" &&
	assert_log "$log" "opened /dev/vda (LUKS UUID=$UUID_LUKS)" &&
	assert_log "$log" "opened /dev/vdb (LUKS UUID=$UUID_LUKS_LVM)" &&
	assert_log "$log" 'EXT4-fs (dm-0): mounted' &&
	assert_not_log "$log" "$LUKS_PW"
}

# The rescue password (--rescue-auth, in a generic image: the build host
# has no USB keyboard) typed on the USB keyboard at rd.break; the shell
# then runs on the screen, and what it writes to /dev/ttyS0 shows on the
# serial line.
case_input_rescue_auth_usb_kbd() {
	local disk img=$CASE_DIR/auth.img shadow=$CASE_DIR/shadow rc
	disk=$(disk_copy ext4.img)
	printf 'root:%s:19000:0:99999:7:::\n' \
		"$(openssl passwd -6 -salt lifeboattest "$RESCUE_PASSWORD")" >"$shadow"
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --rescue busybox \
		--rescue-auth --rescue-shadow "$shadow" -o "$img" >/dev/null ||
		{ echo "building the --rescue-auth image failed"; return 1; }
	rescue_start "$img" "root=LABEL=lbext4 rd.break=pre-mount console=tty0" \
		$INPUT_MACHINE $USB_KBD $(disk_args virtio-blk "$disk")
	{
		expect 'Give root password' 90 &&
		expect "$USB_KBD_INPUT" 60 &&
		press_line "$RESCUE_PASSWORD" &&
		expect 'the rescue shell runs on /dev/tty1' 30 &&
		press_line 'echo AUTH-$((6*7)) >/dev/ttyS0' &&
		expect 'AUTH-42' 30 &&
		press_line exit &&
		expect 'reboot: Power down' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_not_log "$CASE_DIR/console.log" "$RESCUE_PASSWORD"
}
