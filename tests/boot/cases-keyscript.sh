# cases-keyscript.sh: crypttab keyscript=, packed by the generator from
# the image's crypttab: a keyscript of the case's own that fails, and
# Debian's decrypt_keyctl in a host-only image made in a guest (sourced
# by run.sh after cases-stacks.sh, whose stacked disks and helpers these
# cases use). Debian's passdev and decrypt_keyctl as a Debian root's
# administrator has them: cases-itools-crypt.sh.

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
