# cases-fido2.sh: LUKS2 roots unlocked by their systemd-fido2 token, against
# softfido (tests/softfido: the project's CTAP2 authenticator, real keys and
# HMACs, on /dev/uhid in the guest), with the PIN asked on the console and
# the fallback to the passphrase when no key is plugged in (sourced by
# run.sh; helpers of cases-stacks.sh and cases-rescue.sh).
#
# The containers are enrolled by the real systemd-cryptenroll in a qemu
# guest (tests/boot/fido2-build.sh) against softfido; its state files (one
# authenticator each: the master key its credential IDs are sealed with)
# come back in a tar and go into the image under test, whose pre-udev boot
# script (a hooks.d request, docs/extending.md) starts softfido when
# lbtest.softfido= names a state. The hook is the way a user would add
# anything to the image; the init has nothing for the test.

UUID_FIDO2=1b2c3d4e-0201-4a5b-8c6d-7e8f9a0b1c2d
UUID_FIDO2_FS=1b2c3d4e-0202-4a5b-8c6d-7e8f9a0b1c2d
UUID_FIDO2_PIN=1b2c3d4e-0203-4a5b-8c6d-7e8f9a0b1c2d
UUID_FIDO2_PIN_FS=1b2c3d4e-0204-4a5b-8c6d-7e8f9a0b1c2d
FIDO2_PIN=lifeboat-fido2-pin-4711
FIDO2_DISKS="fido2root fido2pin fido2state"
FIDO2_TOOLS=/usr/sbin/cryptsetup,/usr/sbin/mke2fs,/usr/bin/systemd-cryptenroll

fido2_env() {
	local v
	for v in UUID_FIDO2 UUID_FIDO2_FS UUID_FIDO2_PIN UUID_FIDO2_PIN_FS FIDO2_PIN LUKS_PW; do
		echo "$v=${!v}"
	done
}

# The builder's initramfs: --fido2 (cryptsetup's plugin, libfido2) and uhid.
fido2_builder_image() {
	IMG_FIDO2_BUILDER=$(cached_image fido2-builder --generic --block-stacks --fido2 \
		--add-modules uhid) || { echo "$IMG_FIDO2_BUILDER"; return 1; }
}

# The builder's root: lifeboat's --fido2 image tree with systemd-cryptenroll,
# mke2fs and softfido added.
fido2_builder_root() {
	local dir=$1 tree=$1/tree
	builder_tree "$dir" tests/boot/fido2-build.sh --block-stacks --fido2 \
		--add-binaries "$FIDO2_TOOLS,$BUILD/softfido" || return 1
	install -m 0755 "$BUILD/softfido" "$tree/usr/bin/softfido"
	fido2_env > "$tree/fido2.env"
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbfido2build "$UUID_EXT4"
}

# The enrolled disks and the authenticators' states, once per input.
fido2_disks() {
	local key dir
	key=$( (cat "$TOP/tests/boot/fido2-build.sh" "$TOP/tests/boot/builder-lib.sh" "$TEST_INIT" \
		"$BUILD/softfido"; fido2_env; echo "$FIDO2_TOOLS $FIDO2_DISKS") | sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache fido2-disks "$key")
	FIDO2_DISKS_DIR=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		fido2_builder_root "$dir" || { echo "making the FIDO2 builder root failed"; exit 1; }
		local d args=(-drive "file=$dir/builder-root.img,format=raw,if=virtio")
		for d in $FIDO2_DISKS; do
			rm -f "$dir/$d.img" && truncate -s 64M "$dir/$d.img"
			args+=(-drive "file=$dir/$d.img,format=raw,if=none,id=$d"
				-device "virtio-blk-pci,drive=$d,serial=$d")
		done
		QEMU_TIMEOUT=300 boot_qemu "$dir/build.log" "$KERNEL" "$IMG_FIDO2_BUILDER" \
			"root=LABEL=lbfido2build rw rd.driver.pre=uhid,hid_generic,dm_mod,dm_crypt,xts,aes_generic,sha256_generic,algif_skcipher" \
			"${args[@]}"
		grep -q 'FIDO2-BUILD: done' "$dir/build.log" ||
			{ echo "the FIDO2 disk builder failed (see $dir/build.log)"; exit 1; }
		mkdir -p "$dir/state" && tar xf "$dir/fido2state.img" -C "$dir/state" ||
			{ echo "no state files from the builder"; exit 1; }
		rm -rf "$dir/tree" "$dir/builder.cpio" "$dir/builder-root.img" "$dir/fido2state.img"
		fido2_hooks "$dir"
		touch "$dir/done"
	) 9>"$dir.lock"
}

# fido2_hooks DIR: the hook the image under test is built with: softfido,
# uhid, the states and the boot script that starts the key.
fido2_hooks() {
	local dir=$1 s=$1/start-softfido
	mkdir -p "$dir/hooks"
	cat >"$s" <<-'SCRIPT'
	#!/bin/sh
	# lbtest.softfido=STATE: plug in that authenticator (always present).
	for w in $(cat /proc/cmdline); do
		case $w in lbtest.softfido=*) state=${w#lbtest.softfido=} ;; esac
	done
	[ -n "$state" ] || exit 0
	cp "/etc/softfido/$state.state" /run/softfido.state
	setsid softfido --state /run/softfido.state --always-present </dev/null >/dev/null 2>&1 &
	exit 0
	SCRIPT
	cat >"$dir/hooks/50-softfido" <<-HOOK
	#!/bin/sh
	echo "program $BUILD/softfido /usr/bin/softfido"
	echo "module uhid"
	echo "cmdline rd.driver.pre=uhid"
	echo "file $dir/state/plain.state /etc/softfido/plain.state"
	echo "file $dir/state/pin.state /etc/softfido/pin.state"
	echo "script pre-udev $s"
	HOOK
	chmod 0755 "$dir/hooks" "$dir/hooks/50-softfido" "$s"
}

# The image under test: --block-stacks --fido2 with softfido's hook; named
# by the disks' key, so new states get a new image.
fido2_image() {
	IMG_FIDO2=$(cached_image "fido2-$(basename "$FIDO2_DISKS_DIR")" --generic --block-stacks \
		--fido2 --hooks-dir "$FIDO2_DISKS_DIR/hooks") || { echo "$IMG_FIDO2"; return 1; }
}

fido2_setup() {
	fido2_builder_image && fido2_disks && fido2_image
}

# fido2_copy DISK: the case's own copy of an enrolled disk.
fido2_copy() {
	cp --sparse=always "$FIDO2_DISKS_DIR/$1.img" "$CASE_DIR/$1.img"
}

# A root whose container has a FIDO2 token (presence, no PIN) and the key
# plugged in boots with nothing typed; the touch is asked for on the console.
case_fido2_root_key_present() {
	fido2_setup || return 1
	fido2_copy fido2root
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_FIDO2" \
		"root=UUID=$UUID_FIDO2_FS rd.luks.uuid=$UUID_FIDO2 lbtest.softfido=plain rd.timeout=60 rd.shell=0" \
		$(virtio_disk "$CASE_DIR/fido2root.img")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "touch your FIDO2 security key now to open /dev/vda (LUKS UUID=$UUID_FIDO2)" &&
	assert_log "$CASE_DIR/console.log" "opened /dev/vda (LUKS UUID=$UUID_FIDO2) as /dev/mapper/luks-$UUID_FIDO2 with its FIDO2 token" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# A token enrolled with the key's PIN: the PIN is asked (not the
# passphrase); a wrong one is refused by the key and said, the right one
# opens it; the PIN never appears on the console.
case_fido2_pin() {
	local rc
	fido2_setup || return 1
	fido2_copy fido2pin
	rescue_start "$IMG_FIDO2" "root=UUID=$UUID_FIDO2_PIN_FS rd.luks.uuid=$UUID_FIDO2_PIN lbtest.softfido=pin rd.timeout=90" \
		$(virtio_disk "$CASE_DIR/fido2pin.img")
	{
		expect "/dev/vda \(LUKS UUID=$UUID_FIDO2_PIN\) is bound to a FIDO2 security key with a PIN" 90 &&
		expect 'FIDO2 PIN \(try 1 of 3\)' 10 &&
		type_line "wrong-$FIDO2_PIN" &&
		expect "the security key refused the PIN for /dev/vda \(UUID=$UUID_FIDO2_PIN\)" 60 &&
		expect 'FIDO2 PIN \(try 2 of 3\)' 10 &&
		type_line "$FIDO2_PIN" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "with its FIDO2 token and its PIN" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$FIDO2_PIN" &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# No key plugged in: one line names the device and what to do, and the
# passphrase typed on the console opens it.
case_fido2_no_key() {
	local rc
	fido2_setup || return 1
	fido2_copy fido2root
	rescue_start "$IMG_FIDO2" "root=UUID=$UUID_FIDO2_FS rd.luks.uuid=$UUID_FIDO2 rd.timeout=90" \
		$(virtio_disk "$CASE_DIR/fido2root.img")
	{
		expect "the FIDO2 token of /dev/vda \(LUKS UUID=$UUID_FIDO2\) did not open it: no FIDO2 security key is plugged in \(plug in the key it was enrolled with and reboot, or type the passphrase\); asking for its passphrase instead" 90 &&
		expect 'Passphrase \(try 1 of 3\)' 10 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" "opened /dev/vda (LUKS UUID=$UUID_FIDO2) as /dev/mapper/luks-$UUID_FIDO2 with a passphrase" &&
	assert_not_log "$CASE_DIR/console.log" 'touch your FIDO2 security key' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}
