# cases-uki.sh: a unified kernel image (lifeboat build --uki), signed with a
# certificate made for the test, verifies with sbverify (and not against
# another certificate), and boots under OVMF from an ESP made with
# mkfs.vfat and mtools (\EFI\BOOT\BOOTX64.EFI, the removable-media path the
# firmware tries by itself) to the test root, with the command line from
# its .cmdline section: the ext4 disk, found by UUID whichever of the two
# virtio disks it is (sourced by run.sh).

OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}

case_uki_ovmf_signed() {
	local uki=$CASE_DIR/lifeboat.efi esp=$CASE_DIR/esp.img disk out
	[ -r "$OVMF_CODE" ] || { echo "no $OVMF_CODE: install ovmf"; return 1; }
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=lifeboat-uki-test -days 1 \
		-keyout "$CASE_DIR/key.pem" -out "$CASE_DIR/cert.pem" >/dev/null 2>&1 &&
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=another -days 1 \
		-keyout "$CASE_DIR/other.key" -out "$CASE_DIR/other.pem" >/dev/null 2>&1 ||
		{ echo "openssl could not make the test certificates"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --uki \
		--cmdline "$GUEST_APPEND root=UUID=$UUID_EXT4" \
		--sign-key "$CASE_DIR/key.pem" --sign-cert "$CASE_DIR/cert.pem" -o "$uki" >"$CASE_DIR/build.log" 2>&1 ||
		{ echo "lifeboat build --uki failed: $(grep -v firmware "$CASE_DIR/build.log" | head -n 2)"; return 1; }
	out=$(sbverify --cert "$CASE_DIR/cert.pem" "$uki" 2>&1)
	[ "$out" = "Signature verification OK" ] || { echo "sbverify: $out"; return 1; }
	sbverify --cert "$CASE_DIR/other.pem" "$uki" >/dev/null 2>&1 && { echo "sbverify accepted another certificate"; return 1; }
	objdump -h "$uki" | grep -q ' \.cmdline ' || { echo "no .cmdline section"; return 1; }
	mkfs.vfat -C "$esp" $(( ($(stat -c %s "$uki") / 1024) + 8192 )) >/dev/null &&
	mmd -i "$esp" ::/EFI ::/EFI/BOOT && mcopy -i "$esp" "$uki" ::/EFI/BOOT/BOOTX64.EFI ||
		{ echo "could not make the ESP with mkfs.vfat and mtools"; return 1; }
	cp "$OVMF_VARS" "$CASE_DIR/vars.fd"
	disk=$(disk_copy ext4.img)
	timeout --foreground -k 5 "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 512 \
		-nographic -no-reboot -nic none -monitor none -serial stdio \
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE" \
		-drive "if=pflash,format=raw,unit=1,file=$CASE_DIR/vars.fd" \
		-drive "file=$esp,format=raw,if=virtio" -drive "file=$disk,format=raw,if=virtio" \
		</dev/null >"$CASE_DIR/console.log" 2>&1
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vd[ab] ext4"
}

# Secure Boot enforced: OVMF's secboot firmware (SMM) with the snakeoil
# variable store (Debian's ovmf: PK, KEK and db hold the snakeoil
# certificate, whose key it ships with the passphrase "snakeoil").
# systemd-boot, signed with that key too, starts the UKI from a loader entry
# whose options add bar.outside=1: the signed UKI boots with its embedded
# command line and without the loader's option. The same entry then starts a
# UKI signed with --uki-loader-cmdline, whose command line is the entry's
# (what that option costs): proof that the loader did pass its options.
OVMF_SB_CODE=${OVMF_SB_CODE:-/usr/share/OVMF/OVMF_CODE_4M.secboot.fd}
OVMF_SB_VARS=${OVMF_SB_VARS:-/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd}
SNAKEOIL_KEY=${SNAKEOIL_KEY:-/usr/share/ovmf/PkKek-1-snakeoil.key}
SNAKEOIL_CERT=${SNAKEOIL_CERT:-/usr/share/ovmf/PkKek-1-snakeoil.pem}
SD_BOOT=${SD_BOOT:-/usr/lib/systemd/boot/efi/systemd-bootx64.efi}

# sb_esp ESP UKI OPTIONS: systemd-boot as the removable-media loader and
# one entry for the UKI with OPTIONS.
sb_esp() {
	local esp=$1 uki=$2 options=$3
	printf 'default lifeboat.conf\ntimeout 0\n' > "$CASE_DIR/loader.conf"
	printf 'title lifeboat\nefi /lifeboat.efi\noptions %s\n' "$options" > "$CASE_DIR/lifeboat.conf"
	rm -f "$esp"
	mkfs.vfat -C "$esp" $(( ($(stat -c %s "$uki") / 1024) + 8192 )) >/dev/null &&
	mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/loader ::/loader/entries &&
	mcopy -i "$esp" "$CASE_DIR/sd-boot.efi" ::/EFI/BOOT/BOOTX64.EFI &&
	mcopy -i "$esp" "$CASE_DIR/loader.conf" ::/loader/loader.conf &&
	mcopy -i "$esp" "$CASE_DIR/lifeboat.conf" ::/loader/entries/lifeboat.conf &&
	mcopy -i "$esp" "$uki" ::/lifeboat.efi
}

# sb_boot ESP LOG: the firmware with Secure Boot enforced, a fresh copy of
# the snakeoil variables, the ESP and the ext4 root on virtio.
sb_boot() {
	local disk
	cp "$OVMF_SB_VARS" "$CASE_DIR/vars.fd"
	disk=$(disk_copy ext4.img)
	timeout --foreground -k 5 "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 512 \
		-machine q35,smm=on -global driver=cfi.pflash01,property=secure,value=on \
		-nographic -no-reboot -nic none -monitor none -serial stdio \
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_SB_CODE" \
		-drive "if=pflash,format=raw,unit=1,file=$CASE_DIR/vars.fd" \
		-drive "file=$1,format=raw,if=virtio" -drive "file=$disk,format=raw,if=virtio" \
		</dev/null >"$2" 2>&1
}

case_uki_secure_boot_cmdline() {
	local key=$CASE_DIR/snakeoil.pem uki=$CASE_DIR/lifeboat.efi open=$CASE_DIR/loader-cmdline.efi
	local root="$GUEST_APPEND root=UUID=$UUID_EXT4 lifeboat.test.show=/proc/cmdline"
	[ -r "$OVMF_SB_CODE" ] && [ -r "$SNAKEOIL_KEY" ] || { echo "no $OVMF_SB_CODE or $SNAKEOIL_KEY: install ovmf"; return 1; }
	openssl pkey -in "$SNAKEOIL_KEY" -passin pass:snakeoil -out "$key" 2>/dev/null ||
		{ echo "openssl could not open the snakeoil key"; return 1; }
	sbsign --key "$key" --cert "$SNAKEOIL_CERT" --output "$CASE_DIR/sd-boot.efi" "$SD_BOOT" >/dev/null 2>&1 ||
		{ echo "sbsign could not sign systemd-boot"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --uki \
		--cmdline "$root lifeboat.test.embedded=1" \
		--sign-key "$key" --sign-cert "$SNAKEOIL_CERT" -o "$uki" >"$CASE_DIR/build.log" 2>&1 &&
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" --uki --uki-loader-cmdline \
		--sign-key "$key" --sign-cert "$SNAKEOIL_CERT" -o "$open" >>"$CASE_DIR/build.log" 2>&1 ||
		{ echo "lifeboat build --uki failed: $(grep -v firmware "$CASE_DIR/build.log" | head -n 2)"; return 1; }
	sb_esp "$CASE_DIR/esp.img" "$uki" "bar.outside=1" || { echo "could not make the ESP"; return 1; }
	sb_boot "$CASE_DIR/esp.img" "$CASE_DIR/console.log"
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" "Secure boot enabled" &&
	assert_log "$CASE_DIR/console.log" "^LIFEBOAT-TEST: show .*lifeboat.test.embedded=1" || return 1
	! grep -q '^LIFEBOAT-TEST: show .*bar.outside' "$CASE_DIR/console.log" ||
		{ echo "the loader entry's option reached the signed UKI's /proc/cmdline"; return 1; }
	sb_esp "$CASE_DIR/esp-open.img" "$open" "$root bar.outside=1" || { echo "could not make the second ESP"; return 1; }
	sb_boot "$CASE_DIR/esp-open.img" "$CASE_DIR/console-open.log"
	assert_root_reached "$CASE_DIR/console-open.log" &&
	assert_log "$CASE_DIR/console-open.log" "Secure boot enabled" &&
	assert_log "$CASE_DIR/console-open.log" "^LIFEBOAT-TEST: show .*bar.outside=1"
}
