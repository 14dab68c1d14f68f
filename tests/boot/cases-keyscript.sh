# cases-keyscript.sh: crypttab keyscript= with Debian's own keyscripts
# (the host's cryptsetup package: /lib/cryptsetup/scripts), packed by the
# generator from the image's crypttab (sourced by run.sh after
# cases-stacks.sh, whose stacked disks and helpers these cases use).

# keyscript_image CRYPTTAB: the --block-stacks image carrying CRYPTTAB as
# its /etc/crypttab, and so the keyscripts it names.
keyscript_image() {
	[ -x /lib/cryptsetup/scripts/passdev ] ||
		{ echo "the host has no Debian keyscripts: apt-get install cryptsetup keyutils"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
		--add-files "$1:/etc/crypttab" -o "$CASE_DIR/keyscript.img" > "$CASE_DIR/build.log" 2>&1 ||
		{ echo "building the image failed: $(grep error "$CASE_DIR/build.log")"; return 1; }
	echo "$CASE_DIR/keyscript.img"
}

# decrypt_keyctl: two containers (the root's, and the swap resume= names)
# with the same passphrase and the same key field: it is typed once, for
# the first, and the keyring gives it to the second; both open in the
# resume wait, before the resume decision.
case_keyscript_keyctl() {
	local root swap img log=$CASE_DIR/console.log script=/lib/cryptsetup/scripts/decrypt_keyctl
	stacks_setup || return 1
	root=$(stack_copy luks)
	swap=$(stack_copy luksswap)
	printf 'lbroot UUID=%s lbkey luks,keyscript=decrypt_keyctl\nlbswap UUID=%s lbkey luks,keyscript=decrypt_keyctl\n' \
		"$UUID_LUKS" "$UUID_LUKS_SWAP" > "$CASE_DIR/crypttab"
	img=$(keyscript_image "$CASE_DIR/crypttab") || { echo "$img"; return 1; }
	luks_boot "$log" "$img" "root=/dev/mapper/lbroot resume=UUID=$UUID_LUKS_SWAP_INNER rd.timeout=120" \
		'Caching passphrase for lb(root|swap)' '^LIFEBOAT-TEST: end' \
		$(virtio_disk "$root") $(virtio_disk "$swap") || return 1
	assert_root_reached "$log" &&
	assert_log "$log" "as /dev/mapper/lbroot with the key of the keyscript $script" &&
	assert_log "$log" "as /dev/mapper/lbswap with the key of the keyscript $script" &&
	assert_log "$log" 'Using cached passphrase for lb' &&
	assert_log "$log" 'resume: /dev/dm-[0-9]* at page 0: swap without a hibernation image' &&
	assert_not_log "$log" 'Passphrase (try' || return 1
	[ "$(grep -c 'Caching passphrase for' "$log")" -eq 1 ] ||
		{ echo "the passphrase was asked more than once"; return 1; }
}

# passdev: the key file on a USB stick (cases-stacks-keys.sh's key disk,
# an ext4 labelled lbkeys), named by its label through udev's link (which
# lifeboat makes when a keyscript may look); no prompt; the stick is
# mounted read-only and left unchanged.
case_keyscript_passdev() {
	local root keys img log=$CASE_DIR/console.log
	stacks_setup || return 1
	root=$(stack_copy luks)
	keys=$(keys_disk) || { echo "making the key stick failed"; return 1; }
	printf 'lbroot UUID=%s /dev/disk/by-label/%s:/keys/root.key luks,keyscript=passdev\n' \
		"$UUID_LUKS" "$KEYDEV_LABEL" > "$CASE_DIR/crypttab"
	img=$(keyscript_image "$CASE_DIR/crypttab") || { echo "$img"; return 1; }
	boot_qemu "$log" "$KERNEL" "$img" "root=/dev/mapper/lbroot rd.timeout=90 rd.shell=0" \
		$(virtio_disk "$root") -device qemu-xhci,id=xhci \
		-drive "file=$keys,format=raw,if=none,id=stick" -device usb-storage,bus=xhci.0,drive=stick
	assert_root_reached "$log" &&
	assert_log "$log" "as /dev/mapper/lbroot with the key of the keyscript /lib/cryptsetup/scripts/passdev" &&
	assert_not_log "$log" 'Passphrase' &&
	assert_not_log "$log" "$LUKS_PW" || return 1
	e2fsck -fn "$keys" >/dev/null 2>&1 || { echo "the key stick was changed"; return 1; }
}

# A keyscript that prints a wrong key, then fails: each run is a try, with
# CRYPTTAB_TRIED counting; after tries=2 the container stays locked and
# the rescue's report names the container and the script.
case_keyscript_fails() {
	local root img log=$CASE_DIR/console.log
	stacks_setup || return 1
	root=$(stack_copy luks)
	cat > "$CASE_DIR/lbkey.sh" <<-'EOF'
	#!/bin/sh
	echo "lbkey: $CRYPTTAB_NAME tried=$CRYPTTAB_TRIED arg=$1 src=$CRYPTTAB_SOURCE" >&2
	[ "$CRYPTTAB_TRIED" = 0 ] && printf 'wrong-%s' "$1" && exit 0
	exit 3
	EOF
	chmod 0755 "$CASE_DIR/lbkey.sh"
	printf 'lbroot UUID=%s lbarg luks,tries=2,keyscript=%s\n' "$UUID_LUKS" "$CASE_DIR/lbkey.sh" \
		> "$CASE_DIR/crypttab"
	img=$(keyscript_image "$CASE_DIR/crypttab") || { echo "$img"; return 1; }
	boot_qemu "$log" "$KERNEL" "$img" "root=/dev/mapper/lbroot rd.timeout=20 rd.shell=0" \
		$(virtio_disk "$root")
	assert_log "$log" 'lbkey: lbroot tried=0 arg=lbarg src=/dev/vda' &&
	assert_log "$log" 'lbkey: lbroot tried=1 arg=lbarg' &&
	assert_not_log "$log" 'lbkey: lbroot tried=2' &&
	assert_log "$log" "the key the keyscript $CASE_DIR/lbkey.sh printed does not open /dev/vda" &&
	assert_log "$log" "the keyscript $CASE_DIR/lbkey.sh exited with 3 and printed no key" &&
	assert_log "$log" "the keyscript $CASE_DIR/lbkey.sh gave no key that opens /dev/vda (UUID=$UUID_LUKS, crypttab's lbroot) in 2 tries" &&
	assert_not_log "$log" 'LIFEBOAT-TEST: root reached'
}

# A host-only image made in a guest (cases-stacks.sh's hostonly disk: LVM
# on LUKS) whose crypttab names decrypt_keyctl for the root's container:
# the image's crypttab keeps the key field (the script's argument, not a
# key file), the image carries the keyscript, keyctl, askpass and, being
# host-only (no busybox by default), the host's /bin/sh; the root opens
# with the passphrase typed at askpass's prompt.
case_keyscript_hostonly() {
	local disk img=$CASE_DIR/share/hostonly.img log=$CASE_DIR/console.log
	local prompt="UUID=$UUID_HOST_LUKS; opens as /dev/mapper/lbhcrypt"
	stacks_setup || return 1
	disk=$(stack_copy hostonly)
	mkdir -p "$CASE_DIR/share/etc"
	printf 'lbhcrypt UUID=%s lbkey luks,keyscript=decrypt_keyctl\n' "$UUID_HOST_LUKS" \
		> "$CASE_DIR/share/etc/crypttab"
	hostonly_generate "/dev/mapper/lbhvg-root rd.luks.name=$UUID_HOST_LUKS=lbhcrypt" "$prompt" \
		$(virtio_disk "$disk") || return 1
	grep -qx "lbhcrypt UUID=$UUID_HOST_LUKS lbkey luks,keyscript=decrypt_keyctl" \
		<(image_file "$img" etc/crypttab) ||
		{ echo "the image's crypttab is not the host's line: $(image_file "$img" etc/crypttab)"; return 1; }
	"$BUILD/lifeboat" ls "$img" > "$CASE_DIR/hostonly.ls" || return 1
	for f in usr/lib/cryptsetup/scripts/decrypt_keyctl usr/lib/cryptsetup/askpass usr/bin/keyctl usr/bin/sh; do
		grep -q " $f\( ->.*\)\?\$" "$CASE_DIR/hostonly.ls" || { echo "the host-only image lacks $f"; return 1; }
	done
	luks_boot "$log" "$img" "root=/dev/mapper/lbhvg-root rd.timeout=90" \
		'Caching passphrase for lbhcrypt' '^LIFEBOAT-TEST: end' $(virtio_disk "$disk") || return 1
	assert_root_reached "$log" &&
	assert_log "$log" "as /dev/mapper/lbhcrypt with the key of the keyscript /lib/cryptsetup/scripts/decrypt_keyctl" &&
	assert_not_log "$log" 'Passphrase (try'
}
