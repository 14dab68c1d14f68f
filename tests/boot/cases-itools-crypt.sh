# cases-itools-crypt.sh: Debian's keyscripts on a Debian 12 root (issue
# 30's proof), sourced by run.sh. The root is itools-root.sh's crypt
# variant: its administrator wrote /etc/crypttab (itools_crypttab) and
# lifeboat's settings before apt installed cryptsetup-initramfs and
# keyutils, so the image the kernel's postinst made in the root carries
# the root's crypttab and the root's keyscripts. That image and the root's
# kernel open cases-stacks.sh's LUKS disks by those crypttab lines (the
# stacks' test root, not the Debian root, is mounted: its small disks
# and static init keep each boot short; the containers' UUIDs are the
# crypttab's).

source "$TOP/tests/boot/itools-root.sh"

# itools_crypt_setup: the stacked disks and the crypt root's kernel and
# image (ITOOLS_OUT).
itools_crypt_setup() {
	stacks_setup && itools_suite bookworm crypt && itools_disk
}

# itools_crypt_assert_image NAME HELPER: the root's image was made by
# lifeboat from the root's crypttab (its /etc/crypttab, byte for byte)
# and carries the root's keyscript NAME: the file of the root's
# cryptsetup package (dpkg's list: /lib/cryptsetup/scripts/NAME, which
# is /usr/lib/cryptsetup/scripts/NAME in the root, /lib being /usr/lib),
# of the same size, and HELPER, what the keyscript calls (passdev: the
# busybox whose mount it runs); the build said that
# cryptsetup-initramfs's own hook is left out for lifeboat's unlock.
itools_crypt_assert_image() {
	local out=$ITOOLS_OUT part script=/usr/lib/cryptsetup/scripts/$1 size
	part=$(itools_part "$out/disk.img")
	debugfs -R 'cat /var/lib/dpkg/info/cryptsetup.list' "$part" 2>/dev/null | grep -qx "/lib/cryptsetup/scripts/$1" ||
		{ echo "the root's cryptsetup package has no /lib/cryptsetup/scripts/$1"; return 1; }
	[ "$(debugfs -R 'cat /etc/crypttab' "$part" 2>/dev/null)" = "$ITOOLS_CRYPTTAB" ] ||
		{ echo "the root's /etc/crypttab is not the administrator's"; return 1; }
	size=$(debugfs -R "stat $script" "$part" 2>/dev/null | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$size" ] && grep -q " $size ${script#/}\$" "$out/initrd.ls" ||
		{ echo "the image has no ${script#/} of the root's ${size:-?} bytes (list: $out/initrd.ls)"; return 1; }
	itools_assert_image cryptsetup "$2" &&
	itools_assert_image lifeboat etc/crypttab &&
	itools_assert_image lifeboat 'lib -> usr/lib' || return 1
	grep -q 'hooks/cryptroot (cryptsetup-initramfs) is not run' "$out/install.log" ||
		{ echo "the build did not say that cryptsetup-initramfs's hook is left out (log: $out/install.log)"; return 1; }
}

# decrypt_keyctl: the root's container (lbroot) and the swap that
# resume= names (lbswap), one passphrase and one key field: askpass asks
# once, for the first; the second takes it from the kernel's keyring.
# The keyscript is the root's (the path crypttab's bare name stands for,
# /lib being /usr/lib in the root and its image).
case_itools_crypt_keyctl() {
	local root swap log=$CASE_DIR/console.log script=/lib/cryptsetup/scripts/decrypt_keyctl
	itools_crypt_setup && itools_crypt_assert_image decrypt_keyctl usr/bin/keyctl || return 1
	root=$(stack_copy luks)
	swap=$(stack_copy luksswap)
	KERNEL=$ITOOLS_OUT/vmlinuz luks_boot "$log" "$ITOOLS_OUT/initrd.img" \
		"root=/dev/mapper/lbroot resume=UUID=$UUID_LUKS_SWAP_INNER rd.timeout=120" \
		'Caching passphrase for lb(root|swap)' '^LIFEBOAT-TEST: end' \
		$(virtio_disk "$root") $(virtio_disk "$swap") || return 1
	assert_root_reached "$log" &&
	assert_log "$log" "as /dev/mapper/lbroot with the key of the keyscript $script" &&
	assert_log "$log" "as /dev/mapper/lbswap with the key of the keyscript $script" &&
	assert_log "$log" 'Using cached passphrase for lb' &&
	assert_log "$log" 'resume: /dev/dm-[0-9]* at page 0: swap without a hibernation image' &&
	assert_not_log "$log" 'Passphrase (try' || return 1
	# askpass redraws its prompt at each key ("\e[2K" and the line again),
	# and the kernel's lines may cut it: asked once is one container
	# named by the prompts.
	[ "$(grep -o 'Caching passphrase for lb[a-z]*' "$log" | sort -u | wc -l)" -eq 1 ] ||
		{ echo "the passphrase was asked for more than one container"; return 1; }
}

# passdev: crypttab's lbpass (a copy of the luks disk with its UUID)
# opens with the key file on a USB stick named by its label (the ext4
# LABEL=lbkeys of cases-stacks-keys.sh); no prompt; the stick is mounted
# read-only and left unchanged.
case_itools_crypt_passdev() {
	local root=$CASE_DIR/pass.img keys log=$CASE_DIR/console.log
	itools_crypt_setup && itools_crypt_assert_image passdev usr/lib/lifeboat/busybox.xz || return 1
	itools_luks_copy "$root" "$ITOOLS_UUID_PASS" || return 1
	keys=$(keys_disk) || { echo "making the key stick failed"; return 1; }
	boot_qemu "$log" "$ITOOLS_OUT/vmlinuz" "$ITOOLS_OUT/initrd.img" "root=/dev/mapper/lbpass rd.timeout=90 rd.shell=0" \
		$(virtio_disk "$root") -device qemu-xhci,id=xhci \
		-drive "file=$keys,format=raw,if=none,id=stick" -device usb-storage,bus=xhci.0,drive=stick
	assert_root_reached "$log" &&
	assert_log "$log" "as /dev/mapper/lbpass with the key of the keyscript /lib/cryptsetup/scripts/passdev" &&
	assert_not_log "$log" 'Passphrase' &&
	assert_not_log "$log" "$LUKS_PW" || return 1
	e2fsck -fn "$keys" >/dev/null 2>&1 || { echo "the key stick was changed"; return 1; }
}
