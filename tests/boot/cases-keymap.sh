# cases-keymap.sh: the keyboard layout at the prompts (sourced by run.sh;
# uses the keyboard helpers of cases-input.sh and the stacked disks of
# cases-stacks.sh).

# A passphrase with y and z, which trade places between the US and the
# German layouts (letters and digits only: the other keys it could hold
# move too).
KEYMAP_PW=zyzzyva42y

# press_line_de TEXT: type TEXT on a German keyboard: the keys pressed are
# where TEXT's letters are on it (qemu's key names are the US positions).
press_line_de() {
	press_line "$(printf '%s' "$1" | tr yzYZ zyZY)"
}

# An image with --keymap de (what a host's KEYMAP=de or XKBLAYOUT=de
# gives; tests/unit/test_kbdhost.c reads those files): the LUKS root's
# passphrase, typed where a German keyboard has its letters, opens the
# root. Without the layout the keys would give y for z and the passphrase
# would be refused.
case_input_keymap_de() {
	local disk img=$CASE_DIR/de.img rc log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy luks)
	printf '%s' "$LUKS_PW" | cryptsetup luksAddKey -q --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--key-file=- "$disk" <(printf '%s' "$KEYMAP_PW") ||
		{ echo "adding the y/z passphrase to the LUKS disk failed"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
		--keymap de -o "$img" >/dev/null 2>&1 ||
		{ echo "building the --keymap de image failed"; return 1; }
	rescue_start "$img" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=90 console=tty0" \
		$INPUT_MACHINE $USB_KBD $(virtio_disk "$disk")
	{
		expect 'Passphrase \(try 1 of 3\)' 90 &&
		expect "$USB_KBD_INPUT" 60 &&
		press_line_de "$KEYMAP_PW" &&
		expect 'reboot: Power down' 120
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$log" 'keyboard layout de loaded' &&
	assert_not_log "$log" 'try 2 of 3' &&
	assert_log "$log" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with a passphrase" &&
	assert_not_log "$log" "$KEYMAP_PW"
}

# The console font: an image with --font Lat15-Terminus16 loads it, with
# its Unicode table, before anything can prompt, and boots on. One boot,
# with a VGA display nobody looks at (-display none): under -nographic
# SeaBIOS reports a CGA text console, which takes no font (the kernel
# refuses with EINVAL, which the init reports as a warning).
case_input_console_font() {
	local img=$CASE_DIR/font.img log=$CASE_DIR/console.log disk
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --font Lat15-Terminus16 \
		-o "$img" >"$CASE_DIR/build.log" 2>&1 ||
		{ echo "building the --font image failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	disk=$(disk_copy ext4.img)
	timeout --foreground -k 5 "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 512 \
		-display none -vga std -no-reboot -nic none -monitor none -serial stdio \
		-kernel "$KERNEL" -initrd "$img" -append "$GUEST_APPEND root=LABEL=lbext4 rd.timeout=60" \
		$(virtio_disk "$disk") </dev/null >"$log" 2>&1
	assert_root_reached "$log" &&
	assert_log "$log" 'Console: colour VGA+' &&
	assert_log "$log" 'console font /usr/lib/lifeboat/consolefonts/Lat15-Terminus16.psf loaded (PSF1, 8x16, 256 glyphs)' &&
	assert_not_log "$log" 'its Unicode table was not'
}
