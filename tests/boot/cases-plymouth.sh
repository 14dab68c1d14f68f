# cases-plymouth.sh: Debian's plymouth in lifeboat's image (issue 30's
# proof; docs/blockstacks.md, "Plymouth"), sourced by run.sh. The image is
# the one a Debian 12 root's kernel postinst made (itools-root.sh's crypt
# variant): apt installed plymouth and plymouth-themes after lifeboat, the
# administrator chose the spinner theme and wrote crypttab's lbplain line,
# and plymouth's own initramfs-tools hook and scripts went in through the
# bridge. That image and the root's kernel boot the copy of the stacks'
# LUKS disk crypttab names lbplain, in a guest with a VGA card (-vga std:
# bochs-drm) and the serial console, with `splash`: plymouthd, started by
# the package's init-premount script, draws the splash and the prompt on
# the card while lifeboat asks on the serial console too. qemu's monitor
# takes screenshots (screendump, PPM) while the prompt is up, kept in
# CASE_DIR: the frame is a graphics mode's and not uniform, and typing on
# the VGA keyboard (sendkey) changes it (plymouth's bullets), which a text
# console with echo off would not.

# After GUEST_APPEND's console=ttyS0: the VGA console too, the serial one
# still /dev/console (the last named).
PLYMOUTH_APPEND="console=tty0 console=ttyS0 splash plymouth.ignore-serial-consoles"

# screenshot NAME: the VGA card's frame now, as CASE_DIR/NAME.ppm.
screenshot() {
	local file=$CASE_DIR/$1.ppm i
	rm -f "$file"
	monitor "screendump $file"
	for ((i = 0; i < 50; i++)); do
		[ -s "$file" ] && sleep 0.2 && return 0
		sleep 0.1
	done
	echo "qemu wrote no screenshot $file"
	return 1
}

# ppm_check A [B]: A is a graphics mode's frame (not the 720x400 of VGA
# text) and not of one colour; with B, the pixels that differ between A
# and B (typing's bullets) are some, and all in the middle half of the
# frame, where plymouth's entry is (a text console would print at its
# cursor, and with echo off nothing at all).
ppm_check() {
	python3 - "$@" <<-'EOF'
	import sys
	def load(path):
	    data = open(path, 'rb').read()
	    parts, pos = [], 0
	    while len(parts) < 4:
	        while data[pos:pos + 1].isspace(): pos += 1
	        end = pos
	        while not data[end:end + 1].isspace(): end += 1
	        parts.append(data[pos:end]); pos = end
	    w, h = int(parts[1]), int(parts[2])
	    return w, h, data[pos + 1:pos + 1 + w * h * 3]
	w, h, a = load(sys.argv[1])
	if (w, h) == (720, 400) or w < 640:
	    sys.exit("%s is %dx%d: a text mode, not plymouth's graphics" % (sys.argv[1], w, h))
	colours = len(set(a[i:i + 3] for i in range(0, len(a), 3 * 7)))
	if colours < 3:
	    sys.exit("%s has %d colours: nothing is drawn" % (sys.argv[1], colours))
	if len(sys.argv) > 2:
	    _, _, b = load(sys.argv[2])
	    changed = [i // 3 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3]]
	    if len(changed) < 20:
	        sys.exit("typing changed %d pixels: plymouth drew no bullets" % len(changed))
	    out = [p for p in changed if not (w // 4 <= p % w < 3 * w // 4 and h // 4 <= p // w < 3 * h // 4)]
	    if out:
	        sys.exit("typing changed %d pixels outside the frame's middle (first at %d,%d)" %
	                 (len(out), out[0] % w, out[0] // w))
	    print("PLYMOUTH-PPM: %dx%d, %d colours, %d pixels changed by typing" % (w, h, colours, len(changed)))
	else:
	    print("PLYMOUTH-PPM: %dx%d, %d colours" % (w, h, colours))
	EOF
}

# sendkeys TEXT: type TEXT on the VGA card's keyboard (qemu's sendkey:
# letters and '-' only), then Enter when $2 is "ret".
sendkeys() {
	local text=$1 i c
	for ((i = 0; i < ${#text}; i++)); do
		c=${text:i:1}
		[ "$c" = - ] && c=minus
		monitor "sendkey $c"
		sleep 0.1
	done
	[ "${2:-}" != ret ] || monitor "sendkey ret"
}

# plymouth_prompt_up: the prompt is up on the serial console and then on
# plymouth's splash: plymouthd hears no udev events in lifeboat's image
# and takes the card when it looks again, its DeviceTimeout (8 s) after it
# started, so the frame is taken until it shows plymouth's drawing (at
# most 40 s).
plymouth_prompt_up() {
	local i
	expect "$PLYMOUTH_OPENS" 120 &&
	expect 'Passphrase \(try 1 of 3\)' 10 || return 1
	for ((i = 0; i < 40; i++)); do
		screenshot prompt && ppm_check "$CASE_DIR/prompt.ppm" >"$CASE_DIR/ppm-check" 2>&1 &&
			sleep 2 && screenshot prompt && ppm_check "$CASE_DIR/prompt.ppm" && return 0
		sleep 1
	done
	cat "$CASE_DIR/ppm-check"
	return 1
}

# plymouth_boot: the Debian root's image, made with plymouth's hook, boots
# lbplain's disk; what the console says when it asks (PLYMOUTH_OPENS) and
# when it opened (PLYMOUTH_OPENED).
plymouth_boot() {
	local disk=$CASE_DIR/plain.img
	PLYMOUTH_OPENS="UUID=$ITOOLS_UUID_PLAIN; opens as /dev/mapper/lbplain"
	PLYMOUTH_OPENED="opened /dev/vda \(LUKS UUID=$ITOOLS_UUID_PLAIN\) as /dev/mapper/lbplain"
	stacks_setup && itools_suite bookworm crypt && itools_disk || return 1
	itools_assert_image plymouth usr/sbin/plymouthd &&
	itools_assert_image plymouth usr/share/plymouth/themes/spinner/spinner.plymouth &&
	itools_luks_copy "$disk" "$ITOOLS_UUID_PLAIN" || return 1
	KERNEL=$ITOOLS_OUT/vmlinuz RESCUE_VGA=std rescue_start "$ITOOLS_OUT/initrd.img" \
		"$PLYMOUTH_APPEND root=/dev/mapper/lbplain rd.timeout=120" $(virtio_disk "$disk")
}

# The passphrase typed once, on the serial console, while plymouth shows
# its prompt on the VGA card: the container opens and the root is entered.
# The frame after the answer is kept (answered.ppm): plymouth 22 keeps its
# entry on the splash when the client is stopped (docs/blockstacks.md).
case_plymouth_serial_answer() {
	local rc
	plymouth_boot || return 1
	{
		plymouth_prompt_up &&
		type_line "$LUKS_PW" &&
		expect "$PLYMOUTH_OPENED" 60 &&
		screenshot answered &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# The passphrase typed on the VGA card's keyboard, through plymouth: each
# key draws a bullet (the frame changes in its middle), a wrong one is
# asked again through both, the right one opens the container; the serial
# prompt is withdrawn.
case_plymouth_vga_answer() {
	local rc
	plymouth_boot || return 1
	{
		plymouth_prompt_up &&
		sendkeys wrong &&
		sleep 2 && screenshot typed &&
		ppm_check "$CASE_DIR/prompt.ppm" "$CASE_DIR/typed.ppm" &&
		monitor "sendkey ret" &&
		expect 'Passphrase \(try 2 of 3\)' 60 &&
		sleep 3 && sendkeys "$LUKS_PW" ret &&
		expect "$PLYMOUTH_OPENED" 90 &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] && assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}


