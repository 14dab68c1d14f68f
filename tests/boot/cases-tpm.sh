# cases-tpm.sh: LUKS2 roots unlocked by their systemd-tpm2 token, against
# a software TPM (swtpm), with the fallback to the passphrase when the TPM
# refuses and a PIN token (sourced by run.sh; helpers of cases-stacks.sh
# and cases-rescue.sh).
#
# The containers are enrolled by the real systemd-cryptenroll in a qemu
# guest with the TPM attached (tests/boot/tpm-build.sh), as the host kernel
# has no device-mapper. The TPM's state directory is kept with the disks
# (build/tpm-disks/KEY/tpmstate) and each case boots a copy of both, so the
# token's sealed key meets the TPM that sealed it.

UUID_TPM=1b2c3d4e-0101-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_FS=1b2c3d4e-0102-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_PIN=1b2c3d4e-0103-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_PIN_FS=1b2c3d4e-0104-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_SWAP=1b2c3d4e-0105-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_SWAP_INNER=1b2c3d4e-0106-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_DUMP=1b2c3d4e-0107-4a5b-8c6d-7e8f9a0b1c2d
UUID_TPM_DUMP_FS=1b2c3d4e-0108-4a5b-8c6d-7e8f9a0b1c2d
# A root container the kdump case's machine names but does not have.
UUID_TPM_KDUMP_ROOT=1b2c3d4e-0109-4a5b-8c6d-7e8f9a0b1c2d
TPM_PIN=lifeboat-tpm-pin-4711
# SeaBIOS measures the SMBIOS tables into PCR 1: a case that boots with
# another SMBIOS serial number changes it, as a changed platform would.
TPM_PCR=1
TPM_DISKS="tpmroot tpmpin tpmswap tpmdump"
TPM_TOOLS=/usr/sbin/cryptsetup,/usr/sbin/mke2fs,/usr/sbin/mkswap,/usr/bin/systemd-cryptenroll

tpm_env() {
	local v
	for v in UUID_TPM UUID_TPM_FS UUID_TPM_PIN UUID_TPM_PIN_FS UUID_TPM_SWAP UUID_TPM_SWAP_INNER \
		UUID_TPM_DUMP UUID_TPM_DUMP_FS TPM_PIN TPM_PCR LUKS_PW; do
		echo "$v=${!v}"
	done
}

# tpm_start STATEDIR: a software TPM on STATEDIR/swtpm.sock for one qemu
# (it ends when qemu closes the socket); TPM_ARGS are qemu's options.
tpm_start() {
	local dir=$1 i
	rm -f "$dir/swtpm.sock"
	swtpm socket --tpm2 --tpmstate "dir=$dir" --ctrl "type=unixio,path=$dir/swtpm.sock" \
		--terminate --log "file=$dir/swtpm.log" &
	SWTPM_PID=$!
	for ((i = 0; i < 50; i++)); do
		[ -S "$dir/swtpm.sock" ] && break
		sleep 0.1
	done
	TPM_ARGS="-chardev socket,id=chrtpm,path=$dir/swtpm.sock -tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0"
}

tpm_stop() {
	kill "$SWTPM_PID" 2>/dev/null
	wait "$SWTPM_PID" 2>/dev/null
}

# The image under test: generic with --block-stacks --tpm2, made once per run.
tpm_image() {
	IMG_TPM=$WORK/tpm.img
	(
		flock 9
		[ "$IMG_TPM" -nt "$BUILD/lifeboat-init" ] && [ "$IMG_TPM" -nt "$BUILD/lifeboat" ] &&
			[ "$IMG_TPM" -nt "$BUILD/lifeboat-shutdown" ] && exit 0
		"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --tpm2 --kver "$KVER" \
			-o "$IMG_TPM" >/dev/null 2>&1 ||
			{ echo "building the --block-stacks --tpm2 image failed"; exit 1; }
	) 9>"$WORK/tpm.img.lock"
}

# The builder's root: lifeboat's --tpm2 image tree (cryptsetup with the
# token plugin and libtss2) with systemd-cryptenroll and mke2fs added.
tpm_builder_root() {
	local dir=$1 tree=$1/tree
	builder_tree "$dir" tests/boot/tpm-build.sh --block-stacks --tpm2 --add-binaries "$TPM_TOOLS" ||
		return 1
	install -m 0755 /usr/sbin/mkswap "$tree/usr/sbin/mkswap.util"
	tpm_env > "$tree/tpm.env"
	mkfs_image ext4 "$dir/builder-root.img" 128 "$tree" lbtpmbuild "$UUID_EXT4"
}

# The swap holds a hibernation image after the LUKS2 header, the dump
# disk a kdump dump (about 90 MB of kept pages at most on a 512 MB guest).
tpm_disk_size() {
	case $1 in
	tpmswap) echo 128M ;;
	tpmdump) echo 256M ;;
	*) echo 64M ;;
	esac
}

# The TPM state and the enrolled disks, once per input; parallel cases wait.
tpm_disks() {
	local key dir
	key=$( (cat "$TOP/tests/boot/tpm-build.sh" "$TOP/tests/boot/builder-lib.sh" "$TEST_INIT"
		tpm_env; echo "$TPM_TOOLS $TPM_DISKS") | sha256sum | cut -c1-16)-$KVER
	dir=$(builder_cache tpm-disks "$key")
	TPM_DISKS_DIR=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		tpm_builder_root "$dir" || { echo "making the TPM builder root failed"; exit 1; }
		rm -rf "$dir/tpmstate" && mkdir -p "$dir/tpmstate"
		swtpm_setup --tpm2 --tpmstate "$dir/tpmstate" --createek >"$dir/swtpm_setup.log" 2>&1 ||
			{ echo "swtpm_setup failed (see $dir/swtpm_setup.log)"; exit 1; }
		local d args=(-drive "file=$dir/builder-root.img,format=raw,if=virtio")
		for d in $TPM_DISKS; do
			rm -f "$dir/$d.img" && truncate -s "$(tpm_disk_size "$d")" "$dir/$d.img"
			args+=(-drive "file=$dir/$d.img,format=raw,if=none,id=$d"
				-device "virtio-blk-pci,drive=$d,serial=$d")
		done
		tpm_start "$dir/tpmstate"
		QEMU_TIMEOUT=300 boot_qemu "$dir/build.log" "$KERNEL" "$IMG_TPM" \
			"root=LABEL=lbtpmbuild rw rd.driver.pre=dm_mod,dm_crypt,xts,aes_generic,sha256_generic,algif_skcipher" \
			"${args[@]}" $TPM_ARGS
		tpm_stop
		grep -q 'TPM-BUILD: done' "$dir/build.log" ||
			{ echo "the TPM disk builder failed (see $dir/build.log)"; exit 1; }
		rm -rf "$dir/tree" "$dir/builder.cpio" "$dir/builder-root.img"
		touch "$dir/done"
	) 9>"$dir.lock"
}

tpm_setup() {
	tpm_image && tpm_disks
}

# tpm_copy: the case's own copies of the disks and of the TPM's state
# (a boot changes the state: the dictionary-attack counter, the clock).
tpm_copy() {
	cp -a "$TPM_DISKS_DIR/tpmstate" "$CASE_DIR/tpm"
	for d in $TPM_DISKS; do
		cp --sparse=always "$TPM_DISKS_DIR/$d.img" "$CASE_DIR/$d.img"
	done
}

# A root whose container has a TPM2 token bound to PCR 1 boots with
# nothing typed.
case_tpm_root_unattended() {
	tpm_setup || return 1
	tpm_copy
	tpm_start "$CASE_DIR/tpm"
	boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_TPM" \
		"root=UUID=$UUID_TPM_FS rd.luks.uuid=$UUID_TPM rd.timeout=60 rd.shell=0" \
		$(virtio_disk "$CASE_DIR/tpmroot.img") $TPM_ARGS
	tpm_stop
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "opened /dev/vda (LUKS UUID=$UUID_TPM) as /dev/mapper/luks-$UUID_TPM with its TPM2 token (PCRs 1)" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# tpm_token_refused IMAGE REFUSAL [QEMU ARGS...]: the root boots with the
# software TPM, the token's refusal is said as REFUSAL (a regular
# expression), and the passphrase typed on the console opens it.
tpm_token_refused() {
	local rc img=$1 refusal=$2
	shift 2
	tpm_copy
	tpm_start "$CASE_DIR/tpm"
	rescue_start "$img" "root=UUID=$UUID_TPM_FS rd.luks.uuid=$UUID_TPM rd.timeout=90" \
		$(virtio_disk "$CASE_DIR/tpmroot.img") $TPM_ARGS "$@"
	{
		expect "the TPM2 token of /dev/vda \(LUKS UUID=$UUID_TPM\) did not open it: $refusal" 90 &&
		expect 'Passphrase \(try 1 of 3\)' 10 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	tpm_stop
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" "opened /dev/vda (LUKS UUID=$UUID_TPM) as /dev/mapper/luks-$UUID_TPM with a passphrase"
}

# The same root on a machine whose PCR 1 differs (another SMBIOS serial
# number): the TPM refuses, which is said in one line, and the passphrase
# typed on the console opens it; nothing typed is echoed.
case_tpm_pcr_changed_fallback() {
	tpm_setup || return 1
	tpm_token_refused "$IMG_TPM" "the TPM refused: the PCRs the token is bound to have changed" \
		-smbios type=1,serial=lifeboat-changed &&
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# An image built without --tpm2 meets the TPM2 token: it says it has no
# TPM2 support and which option adds it (not that cryptsetup failed, nor
# that there is no TPM), and the passphrase typed opens the container.
case_tpm_image_without_tpm2() {
	local img=$CASE_DIR/no-tpm2.img
	tpm_setup || return 1
	"$BUILD/lifeboat" build --config /dev/null --generic --block-stacks --kver "$KVER" \
		-o "$img" >/dev/null 2>&1 || { echo "building the --block-stacks image failed"; return 1; }
	tpm_token_refused "$img" "this image has no TPM2 support .*rebuild it with lifeboat build --block-stacks --tpm2" &&
	assert_not_log "$CASE_DIR/console.log" "cryptsetup could not use the token"
}

# A token enrolled with a PIN: the PIN is asked (not the passphrase); a
# wrong one is refused by the TPM and said, the right one opens it; the
# PIN never appears on the console.
case_tpm_pin() {
	local rc
	tpm_setup || return 1
	tpm_copy
	tpm_start "$CASE_DIR/tpm"
	rescue_start "$IMG_TPM" "root=UUID=$UUID_TPM_PIN_FS rd.luks.uuid=$UUID_TPM_PIN rd.timeout=90" \
		$(virtio_disk "$CASE_DIR/tpmpin.img") $TPM_ARGS
	{
		expect "/dev/vda \(LUKS UUID=$UUID_TPM_PIN\) is bound to the TPM with a PIN" 90 &&
		expect 'TPM2 PIN \(try 1 of 3\)' 10 &&
		type_line "wrong-$TPM_PIN" &&
		expect "the TPM refused the PIN for /dev/vda \(UUID=$UUID_TPM_PIN\)" 60 &&
		expect 'TPM2 PIN \(try 2 of 3\)' 10 &&
		type_line "$TPM_PIN" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	tpm_stop
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "with its TPM2 token (PCRs 1) and its PIN" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$TPM_PIN" &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# Resume from a swap in a TPM2-bound container, nothing typed: boot 1
# unlocks it in the resume decision, finds no image, mounts the root and
# hibernates into it; boot 2 (the same TPM state) unlocks it again before
# any filesystem is mounted and restores the image.
case_tpm_resume_swap() {
	local root=$CASE_DIR/root.img token name=luks-$UUID_TPM_SWAP log
	tpm_setup || return 1
	tpm_copy
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" || return 1
	log=$CASE_DIR/boot1.log
	tpm_start "$CASE_DIR/tpm"
	QEMU_TIMEOUT=240 boot_qemu "$log" "$KERNEL" "$IMG_TPM" \
		"root=UUID=$UUID_HIBROOT rw resume=/dev/mapper/$name rd.luks.uuid=$UUID_TPM_SWAP rd.timeout=90 rd.shell=0 lbtest.hibernate=1 lbtest.swap=/dev/mapper/$name lbtest.token=$token" \
		$(virtio_disk "$root") $(virtio_disk "$CASE_DIR/tpmswap.img") $TPM_ARGS
	tpm_stop
	assert_log "$log" "HIB-TEST: HIBERNATING 1 $token" &&
	assert_log "$log" "opened /dev/vd[a-z] (LUKS UUID=$UUID_TPM_SWAP) as /dev/mapper/$name with its TPM2 token (PCRs 1)" &&
	assert_log "$log" "resume: /dev/dm-0 at page 0: swap without a hibernation image" &&
	assert_log "$log" "PM: hibernation: Image saving done\|PM: Image saving done" || return 1
	log=$CASE_DIR/boot2.log
	tpm_start "$CASE_DIR/tpm"
	QEMU_TIMEOUT=240 boot_qemu "$log" "$KERNEL" "$IMG_TPM" \
		"root=UUID=$UUID_HIBROOT resume=UUID=$UUID_TPM_SWAP_INNER rd.luks.uuid=$UUID_TPM_SWAP rd.timeout=90 rd.shell=0" \
		$(virtio_disk "$root") $(virtio_disk "$CASE_DIR/tpmswap.img") $TPM_ARGS
	tpm_stop
	assert_log "$log" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_log "$log" "with its TPM2 token (PCRs 1)" &&
	assert_log "$log" "resume: restoring the hibernation image on /dev/dm-0" &&
	assert_not_log "$log" "EXT4-fs (vd[a-z]*): mounted" &&
	assert_not_log "$log" "Passphrase" &&
	assert_root_intact "$root" "before-hibernate $token|after-resume $token 1|"
}

# tpm_dump_plain IMAGE OUT: the ext4 inside the LUKS dump disk IMAGE, in
# plain text in OUT, for debugfs (the host has no device-mapper): the
# volume key from the passphrase's key slot, the data decrypted by
# tests/boot/luks-decrypt.py. The key files are removed after.
tpm_dump_plain() {
	local img=$1 out=$2 rc
	printf '%s' "$LUKS_PW" >"$CASE_DIR/pw"
	cryptsetup luksDump --dump-volume-key --volume-key-file "$CASE_DIR/vk" --batch-mode \
		--key-file "$CASE_DIR/pw" "$img" >/dev/null 2>&1 &&
	cryptsetup luksDump --dump-json-metadata "$img" |
		python3 "$TOP/tests/boot/luks-decrypt.py" "$img" "$CASE_DIR/vk" "$out"
	rc=$?
	rm -f "$CASE_DIR/pw" "$CASE_DIR/vk"
	return $rc
}

# kdump_tpm_crash TOKEN QEMU-ARGS...: a crash of a machine whose dump disk
# is in a TPM2-bound container (cases-kdump.sh's crash), with the case's
# TPM. As on a machine whose boot entry names its root's container only
# (this one has none), the first kernel leaves the dump disk locked, and
# the capture kernel is told about it by kdump load --append.
kdump_tpm_crash() {
	local token=$1 capture=$CASE_DIR/capture.img
	shift
	tpm_setup || return 1
	tpm_copy
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4 --block-stacks --tpm2 --kdump \
		--kdump-target "UUID=$UUID_TPM_DUMP_FS" --kdump-options action=poweroff,failure_action=reboot \
		-o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump --tpm2 failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	tpm_start "$CASE_DIR/tpm"
	KDUMP_APPEND="rd.luks.uuid=$UUID_TPM_KDUMP_ROOT" QEMU_TIMEOUT=600 kdump_boot "$capture" "$token" \
		"rd.luks.uuid=$UUID_TPM_DUMP ${KDUMP_TPM_CAPTURE_WORDS:-}" -nic none \
		-drive "file=$CASE_DIR/tpmdump.img,format=raw,if=virtio" $TPM_ARGS "$@"
	tpm_stop
	assert_log "$CASE_DIR/console.log" "kdump: armed" &&
	assert_log "$CASE_DIR/console.log" "(LUKS UUID=$UUID_TPM_DUMP) stays locked: rd.luks.uuid=" &&
	assert_log "$CASE_DIR/console.log" "kdump: this is a capture kernel"
}

# kdump to a dump disk in a TPM2-bound LUKS container: the capture kernel
# opens it with its token, nobody typing, and saves the dump there; on the
# host, the container decrypted, makedumpfile reads the dump's log, which
# has the marker written before the crash.
case_kdump_tpm_luks() {
	local log=$CASE_DIR/console.log token dir plain=$CASE_DIR/dump-plain.img
	token=$(kdump_token)
	kdump_tpm_crash "$token" || return 1
	assert_log "$log" "opened /dev/vd[a-z] (LUKS UUID=$UUID_TPM_DUMP) as /dev/mapper/luks-$UUID_TPM_DUMP with its TPM2 token (PCRs 1)" &&
	assert_log "$log" "kdump: saving memory: 100%" &&
	assert_log "$log" "kdump: dump saved as" &&
	assert_not_log "$log" "Passphrase" &&
	assert_not_log "$log" "$LUKS_PW" || return 1
	tpm_dump_plain "$CASE_DIR/tpmdump.img" "$plain" ||
		{ echo "decrypting the dump disk on the host failed"; return 1; }
	dir=$(ext4_dump_dir "$plain") && [ -n "$dir" ] &&
		ext4_get "$plain" "/var/crash/$dir/vmcore" "$CASE_DIR/vmcore" ||
		{ echo "no /var/crash/*/vmcore in the dump disk's filesystem"; return 1; }
	makedumpfile --dump-dmesg "$CASE_DIR/vmcore" "$CASE_DIR/makedumpfile-dmesg.txt" >"$CASE_DIR/makedumpfile.log" 2>&1 ||
		{ echo "makedumpfile cannot read the dump: $(tail -n 2 "$CASE_DIR/makedumpfile.log" | tr '\n' ' ')"; return 1; }
	grep -q "KDUMP-MARKER-$token" "$CASE_DIR/makedumpfile-dmesg.txt" ||
		{ echo "makedumpfile --dump-dmesg of the dump lacks the marker"; return 1; }
}

# The same crash on a machine whose PCR 1 changed (another SMBIOS serial
# number): the TPM refuses in the capture kernel, said in one line; the
# passphrase prompt that follows gives up with nobody there, after the
# capture command line's rd.luks.timeout=10 (shorter than the capture's
# own 30 s bound), the target is skipped and the failure action (reboot)
# is taken. The bound is what is checked, not how fast: the prompt's line
# and the give-up line are both there, nothing was typed.
case_kdump_tpm_luks_refused() {
	local log=$CASE_DIR/console.log
	KDUMP_TPM_CAPTURE_WORDS=rd.luks.timeout=10 \
		kdump_tpm_crash "$(kdump_token)" -smbios type=1,serial=lifeboat-changed || return 1
	assert_log "$log" "the TPM2 token of /dev/vd[a-z] (LUKS UUID=$UUID_TPM_DUMP) did not open it: the TPM refused: the PCRs" &&
	assert_log "$log" "Passphrase (try 1 of 3)" &&
	assert_log "$log" "nobody answered for /dev/vd[a-z] (UUID=$UUID_TPM_DUMP) within 10 s" &&
	assert_log "$log" "kdump: target device UUID=$UUID_TPM_DUMP_FS did not appear within 30 s" &&
	assert_log "$log" "kdump: no target could save the dump" &&
	assert_log "$log" "kdump: rebooting" &&
	assert_not_log "$log" "kdump: dump saved as"
}
