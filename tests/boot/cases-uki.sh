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
