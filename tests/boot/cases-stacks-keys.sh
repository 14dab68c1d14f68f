# cases-stacks-keys.sh: LUKS key files, rd.luks.key= (sourced by run.sh after
# cases-stacks.sh, whose stacked disks and helpers these cases use).

KEYDEV_LABEL=lbkeys
KEYDEV_UUID=1b2c3d4e-0101-4a5b-8c6d-7e8f9a0b1c2d

# keys_image KEYFILE [MORE_FILES]: the --block-stacks image with KEYFILE as
# /etc/luks/root.key (mode 0600 on the host, kept in the image), and
# MORE_FILES (--add-files SRC:DST,...).
keys_image() {
	chmod 0600 "$1"
	"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
		--add-files "$1:/etc/luks/root.key${2:+,$2}" -o "$CASE_DIR/keys.img" >/dev/null 2>&1 ||
		{ echo "building the image with the key failed"; return 1; }
	"$BUILD/lifeboat" ls "$CASE_DIR/keys.img" | grep -q -- '^-rw------- .* etc/luks/root.key$' ||
		{ echo "the key file in the image is not mode 0600"; return 1; }
	echo "$CASE_DIR/keys.img"
}

# The key device: an ext4 filesystem (LABEL=lbkeys) holding /keys/root.key.
keys_disk() {
	mkdir -p "$CASE_DIR/keytree/keys" &&
	printf '%s' "$LUKS_PW" > "$CASE_DIR/keytree/keys/root.key" &&
	mkfs_image ext4 "$CASE_DIR/keys-disk.img" 8 "$CASE_DIR/keytree" "$KEYDEV_LABEL" "$KEYDEV_UUID" &&
	echo "$CASE_DIR/keys-disk.img"
}

# A key file in the image opens the root's container: no prompt.
case_stacks_key_image() {
	local disk img
	stacks_setup || return 1
	disk=$(stack_copy luks)
	printf '%s' "$LUKS_PW" > "$CASE_DIR/root.key"
	img=$(keys_image "$CASE_DIR/root.key") || { echo "$img"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$img" \
		"root=UUID=$UUID_LUKS_FS rd.luks.key=/etc/luks/root.key rd.timeout=60 rd.shell=0" \
		$(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "with the key file /etc/luks/root.key in the image" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# A key file on a second disk, named by its label, limited to the root's
# container by LUKSDEV: mounted read-only after the resume decision.
case_stacks_key_device() {
	local disk keys
	stacks_setup || return 1
	disk=$(stack_copy luks)
	keys=$(keys_disk) || { echo "making the key disk failed"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_STACKS" \
		"root=UUID=$UUID_LUKS_FS rd.luks.key=/keys/root.key:LABEL=$KEYDEV_LABEL:UUID=$UUID_LUKS rd.timeout=60 rd.shell=0" \
		$(virtio_disk "$disk") $(virtio_disk "$keys")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "with the key file /keys/root.key on LABEL=$KEYDEV_LABEL" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW" || return 1
	# Read-only without journal replay: the key disk is unchanged.
	e2fsck -fn "$keys" >/dev/null 2>&1 || { echo "the key disk was damaged"; return 1; }
}

# A wrong key file: said so, then the passphrase prompt opens it.
case_stacks_key_wrong() {
	local disk img log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy luks)
	printf 'not-%s' "$LUKS_PW" > "$CASE_DIR/wrong.key"
	img=$(keys_image "$CASE_DIR/wrong.key") || { echo "$img"; return 1; }
	luks_boot "$log" "$img" "root=UUID=$UUID_LUKS_FS rd.luks.key=/etc/luks/root.key rd.timeout=90" \
		'Passphrase \(try 1 of 3\)' '^LIFEBOAT-TEST: end' $(virtio_disk "$disk") || return 1
	assert_log "$log" "the key file /etc/luks/root.key in the image does not open /dev/vda (UUID=$UUID_LUKS)" &&
	assert_log "$log" "no key file of rd.luks.key= opened /dev/vda" &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4'
}

# The resume device inside the container: its key device cannot be read
# before the resume decision, so that is said and the passphrase asked.
case_stacks_key_before_resume() {
	local disk keys log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy luks)
	keys=$(keys_disk) || { echo "making the key disk failed"; return 1; }
	luks_boot "$log" "$IMG_STACKS" "root=UUID=$UUID_LUKS_FS resume=UUID=$UUID_LUKS_FS rd.luks.key=/keys/root.key:LABEL=$KEYDEV_LABEL rd.timeout=90" \
		'Passphrase \(try 1 of 3\)' '^LIFEBOAT-TEST: end' $(virtio_disk "$disk") $(virtio_disk "$keys") || return 1
	assert_log "$log" "the key device LABEL=$KEYDEV_LABEL is not read yet: no filesystem is mounted before the resume decision" &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4'
}

# The image's /etc/crypttab (as host-only images carry it): the container
# opens under crypttab's NAME, with crypttab's key file, no prompt.
case_stacks_crypttab_name() {
	local disk img
	stacks_setup || return 1
	disk=$(stack_copy luks)
	printf '%s' "$LUKS_PW" > "$CASE_DIR/root.key"
	printf '# from the host\nlbroot UUID=%s /etc/luks/root.key luks,discard\n' "$UUID_LUKS" > "$CASE_DIR/crypttab"
	img=$(keys_image "$CASE_DIR/root.key" "$CASE_DIR/crypttab:/etc/crypttab") || { echo "$img"; return 1; }
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$img" \
		"root=/dev/mapper/lbroot rd.timeout=60 rd.shell=0" $(virtio_disk "$disk")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "as /dev/mapper/lbroot with the key file /etc/luks/root.key in the image (allow-discards)" &&
	assert_log "$CASE_DIR/console.log" 'dm dm-0 lbroot ro=0 discard=[1-9]' &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase'
}

# crypttab's options against rd.luks.options=: the container's own
# rd.luks.options=UUID=OPTS wins whole over its crypttab line's options
# (discard, tries=5) and over rd.luks.options=discard for all, so it opens
# read-only, without discards, after one passphrase try. The wrong
# passphrase ends the tries at once; the retry after the rescue shell asks
# again. crypttab's unknown option is warned about, naming the container.
case_stacks_crypttab_options() {
	local disk img=$CASE_DIR/opts.img log=$CASE_DIR/console.log rc
	stacks_setup || return 1
	disk=$(stack_copy luks)
	printf 'lbopt UUID=%s none discard,tries=5,frobnicate\n' "$UUID_LUKS" > "$CASE_DIR/crypttab"
	"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
		--add-files "$CASE_DIR/crypttab:/etc/crypttab" -o "$img" >/dev/null 2>&1 ||
		{ echo "building the image with the crypttab failed"; return 1; }
	rescue_start "$img" "root=/dev/mapper/lbopt rd.luks.options=discard rd.luks.options=$UUID_LUKS=readonly,tries=1 rd.timeout=15" \
		$(virtio_disk "$disk")
	{
		expect "UUID=$UUID_LUKS; opens as /dev/mapper/lbopt" 90 &&
		expect 'Passphrase \(try 1 of 1\)' 10 &&
		type_line "wrong-$LUKS_PW" &&
		expect "no passphrase opened /dev/vda \(UUID=$UUID_LUKS\) in 1 try;" 60 &&
		expect "$SHELL_PROMPT" 90 &&
		type_line exit &&
		expect 'Passphrase \(try 1 of 1\)' 60 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$log" "/etc/crypttab, options of lbopt (UUID=$UUID_LUKS): frobnicate: unknown, ignored" &&
	assert_log "$log" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/lbopt with a passphrase (readonly)" &&
	assert_log "$log" '/dev/dm-0 is read-only: the filesystem check is skipped' &&
	assert_log "$log" 'dm dm-0 lbopt ro=1 discard=0' &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4' &&
	assert_not_log "$log" 'Passphrase (try 2' &&
	assert_not_log "$log" "$LUKS_PW"
}

# crypttab's keyfile-offset= and keyfile-size=: the passphrase sits between
# random bytes in the key file and only it opens the root's container; a
# second container marked noauto stays locked (said why) though it appears,
# until the command line names it.
case_stacks_crypttab_keyfile_noauto() {
	local root other img log=$CASE_DIR/console.log
	stacks_setup || return 1
	root=$(stack_copy luks)
	other=$(stack_copy luksswap)
	{ head -c 100 /dev/urandom; printf '%s' "$LUKS_PW"; head -c 50 /dev/urandom; } > "$CASE_DIR/root.key"
	printf 'lbroot UUID=%s /etc/luks/root.key luks,keyfile-offset=100,keyfile-size=%d\nlbother UUID=%s none luks,noauto\n' \
		"$UUID_LUKS" "${#LUKS_PW}" "$UUID_LUKS_SWAP" > "$CASE_DIR/crypttab"
	img=$(keys_image "$CASE_DIR/root.key" "$CASE_DIR/crypttab:/etc/crypttab") || { echo "$img"; return 1; }
	boot_qemu "$log" "$KERNEL" "$img" "root=/dev/mapper/lbroot rd.timeout=60 rd.shell=0" \
		$(virtio_disk "$root") $(virtio_disk "$other")
	assert_root_reached "$log" &&
	assert_log "$log" "as /dev/mapper/lbroot with the key file /etc/luks/root.key in the image (keyfile-offset=100, keyfile-size=${#LUKS_PW})" &&
	assert_log "$log" "(LUKS UUID=$UUID_LUKS_SWAP) stays locked: its options say noauto" &&
	assert_not_log "$log" 'dm dm-[0-9]* lbother' &&
	assert_not_log "$log" 'Passphrase' || return 1
	# Named on the command line, the noauto container is asked for.
	log=$CASE_DIR/console2.log
	luks_boot "$log" "$img" "root=/dev/mapper/lbroot rd.luks.uuid=$UUID_LUKS rd.luks.uuid=$UUID_LUKS_SWAP rd.timeout=60" \
		"UUID=$UUID_LUKS_SWAP; opens as /dev/mapper/lbother" '^LIFEBOAT-TEST: end' \
		$(virtio_disk "$root") $(virtio_disk "$other") || return 1
	assert_log "$log" 'dm dm-[0-9]* lbother ro=0'
}

# A host-only image made in a guest whose root's container is open under a
# name of its own (rd.luks.name=): the image's /etc/crypttab keeps that
# name, and the image then opens the container under it with only root=.
case_stacks_hostonly_crypttab() {
	local disk prompt="UUID=$UUID_HOST_LUKS; opens as /dev/mapper/lbhcrypt"
	stacks_setup || return 1
	disk=$(stack_copy hostonly)
	hostonly_generate "/dev/mapper/lbhvg-root rd.luks.name=$UUID_HOST_LUKS=lbhcrypt" "$prompt" \
		$(virtio_disk "$disk") || return 1
	image_file "$CASE_DIR/share/hostonly.img" etc/crypttab > "$CASE_DIR/crypttab" ||
		{ echo "the host-only image has no /etc/crypttab"; return 1; }
	grep -qx "lbhcrypt UUID=$UUID_HOST_LUKS none" "$CASE_DIR/crypttab" ||
		{ echo "the image's crypttab is not the mapping's: $(cat "$CASE_DIR/crypttab")"; return 1; }
	luks_boot "$CASE_DIR/console.log" "$CASE_DIR/share/hostonly.img" \
		"root=/dev/mapper/lbhvg-root rd.timeout=90" "$prompt" '^LIFEBOAT-TEST: end' \
		$(virtio_disk "$disk") || return 1
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-1 ext4'
}

# A host-only image made in a guest whose root is LVM on md RAID1, with no
# mdadm.conf there: the image's mdadm.conf has the array's line made from
# the UUID libblkid reads on a member, and its lvm.conf lifeboat's settings.
case_stacks_hostonly_mdadm_conf() {
	local a b hex want
	stacks_setup || return 1
	a=$(stack_copy mdhost-a)
	b=$(stack_copy mdhost-b)
	hostonly_generate /dev/mapper/lbdvg-root "" $(virtio_disk "$a") $(virtio_disk "$b") || return 1
	hex=${UUID_MDHOST//-/}
	want="UUID=${hex:0:8}:${hex:8:8}:${hex:16:8}:${hex:24:8}"
	image_file "$CASE_DIR/share/hostonly.img" etc/mdadm/mdadm.conf > "$CASE_DIR/mdadm.conf" ||
		{ echo "the host-only image has no /etc/mdadm/mdadm.conf"; return 1; }
	grep -Eqx "ARRAY /dev/md[0-9]+ $want" "$CASE_DIR/mdadm.conf" ||
		{ echo "mdadm.conf lacks the array ($want): $(cat "$CASE_DIR/mdadm.conf")"; return 1; }
	image_file "$CASE_DIR/share/hostonly.img" etc/lvm/lvm.conf | grep -q 'udev_sync = 0' ||
		{ echo "the image's lvm.conf is not lifeboat's"; return 1; }
	! image_file "$CASE_DIR/share/hostonly.img" etc/crypttab >/dev/null ||
		{ echo "a crypttab for a root without LUKS"; return 1; }
}

# The key device comes after the container: the container waits for it
# (said on the console) and opens when the device appears, hot-added here
# at once (the wait ends after 5 s without a new device).
case_stacks_key_device_late() {
	local disk keys rc
	stacks_setup || return 1
	disk=$(stack_copy luks)
	keys=$(keys_disk) || { echo "making the key disk failed"; return 1; }
	rescue_start "$IMG_STACKS" "root=UUID=$UUID_LUKS_FS rd.luks.key=/keys/root.key:LABEL=$KEYDEV_LABEL:UUID=$UUID_LUKS rd.timeout=90" \
		$(virtio_disk "$disk")
	{
		expect "UUID=$UUID_LUKS\) waits for the device of its rd.luks.key" 90 &&
		monitor "drive_add 0 file=$keys,format=raw,if=none,id=hotkeys" &&
		monitor "device_add virtio-blk-pci,drive=hotkeys,id=hotkeydisk" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" "with the key file /keys/root.key on LABEL=$KEYDEV_LABEL" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase'
}

# The key device never comes: once the devices settle, that is said and
# the passphrase asked.
case_stacks_key_device_missing() {
	local disk log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy luks)
	luks_boot "$log" "$IMG_STACKS" "root=UUID=$UUID_LUKS_FS rd.luks.key=/keys/root.key:LABEL=$KEYDEV_LABEL rd.timeout=90" \
		'Passphrase \(try 1 of 3\)' '^LIFEBOAT-TEST: end' $(virtio_disk "$disk") || return 1
	assert_log "$log" "UUID=$UUID_LUKS) waits for the device of its rd.luks.key" &&
	assert_log "$log" "the key device LABEL=$KEYDEV_LABEL (for /keys/root.key) did not appear" &&
	assert_log "$log" 'rootmount /dev/dm-0 ext4'
}
