# cases-tang-late.sh: a Tang server down at boot and up while the
# passphrase prompt waits (issue 39 item 4), booted with the image and
# server of cases-tang.sh: the bindings, tried again behind the prompt,
# open the container with nothing typed; a typed passphrase still wins.

# The second refusing server of the "every server down" case (nothing
# listens there, as on cases-tang-many.sh's TANG_REFUSED_PORT).
TANG_REFUSED2_PORT=7503

# tang_late_open: at the prompt, nothing typed, the server started 10 s
# later; the prompt ends with the line naming the binding that opened the
# container, and the machine then powers off.
tang_late_open() {
	expect 'Passphrase \(try 1 of 3\)' 120 &&
	sleep 10 && tang_start &&
	expect "is open: its clevis binding \\(token [0-9]+, tang server $TANG_URL\\) answered while the passphrase was asked; the boot goes on" 60 &&
	expect 'reboot: Power down' 120
}

# tang_late_asserts LOG UUID: opened by its binding, never by a
# passphrase, and no passphrase in the log.
tang_late_asserts() {
	assert_log "$1" "opened /dev/vd[a-z] (LUKS UUID=$2) as /dev/mapper/luks-$2 with its clevis tang binding" &&
	assert_not_log "$1" "with a passphrase" &&
	assert_root_reached "$1" &&
	tang_pass_absent "$1"
}

# The LUKS root bound to one Tang server, down at boot: the prompt comes;
# the server starts 10 s later and the root opens with nothing typed.
case_tang_late_server() {
	local log=$CASE_DIR/console.log
	tang_setup || return 1
	tang_boot
	tang_late_open
	tang_stop $? || return 1
	assert_log "$log.txt" "no clevis binding opened /dev/vda (UUID=$UUID_LUKS); asking for its passphrase instead" &&
	tang_late_asserts "$log.txt" "$UUID_LUKS"
}

# The same with the resume device: a swap in a container bound to the
# server, resume= on it. It is opened before the resume decision, by the
# retry behind its prompt, which mounts nothing; the decision then finds
# no image and the root boots.
case_tang_late_resume() {
	local log=$CASE_DIR/console.log root=$CASE_DIR/root.img
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start &&
	TANG_DISK=$(tang_disk "$TANG_URL" luksswap) && hib_root "$root" ||
		{ echo "setting up the case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
	tang_boot "root=UUID=$UUID_HIBROOT resume=UUID=$UUID_LUKS_SWAP_INNER rd.luks.uuid=$UUID_LUKS_SWAP rd.timeout=90 rd.shell=0" \
		$(virtio_disk "$root") $(virtio_disk "$TANG_DISK")
	tang_late_open
	tang_stop $? || return 1
	tang_late_asserts "$log.txt" "$UUID_LUKS_SWAP" &&
	assert_log_order "$log.txt" "with its clevis tang binding" "resume: /dev/dm-0 at page 0: swap without a hibernation image" &&
	assert_log_order "$log.txt" "swap without a hibernation image" "EXT4-fs (vd[a-z]*): mounted"
}

# sss t=1 of two servers, both down for good: the prompt comes, the
# bindings are tried again behind it, silently; the typed passphrase opens
# the root and ends the tries. Each server is named once on the console.
case_tang_late_all_down() {
	local log=$CASE_DIR/console.log disk n url
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start &&
	disk=$(stack_copy luks) &&
	clevis_bind "$disk" sss "{\"t\":1,\"pins\":{\"tang\":[{\"url\":\"http://$NET_SERVER:$TANG_REFUSED_PORT\",\"adv\":\"$CASE_DIR/adv.jws\"},{\"url\":\"http://$NET_SERVER:$TANG_REFUSED2_PORT\",\"adv\":\"$CASE_DIR/adv.jws\"}]}}" ||
		{ echo "setting up the case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
	TANG_DISK=$disk
	tang_boot
	{
		expect 'Passphrase \(try 1 of 3\)' 120 &&
		sleep 5 &&   # the retries at 1 and 3 s
		type_line "$LUKS_PW" &&
		expect 'reboot: Power down' 120
	}
	tang_stop $? || return 1
	for url in "http://$NET_SERVER:$TANG_REFUSED_PORT" "http://$NET_SERVER:$TANG_REFUSED2_PORT"; do
		n=$(grep -c "tang server $url: connection refused" "$log.txt")
		[ "$n" -eq 1 ] || { echo "$url was named $n times, not once"; return 1; }
	done
	assert_log "$log.txt" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with a passphrase" &&
	assert_not_log "$log.txt" "answered while the passphrase was asked" &&
	assert_root_reached "$log.txt" &&
	assert_not_log "$log.txt" "$LUKS_PW"
}

# kdump's dump disk in a container bound to the Tang server, down when the
# capture kernel asks: the server starts 10 s after the capture's prompt
# (bounded at 30 s: KDUMP_PROMPT_SEC) shows; the retry behind the prompt
# opens the disk and the dump is saved there. The disk is cases-tpm.sh's
# dump disk (an ext4 in LUKS2, 256 MB) with its TPM2 token removed and a
# tang binding added. The server is started by a watcher of the console;
# its PIDs come back through a file so that the case ends them.
case_tang_late_kdump() {
	local log=$CASE_DIR/console.log capture=$CASE_DIR/capture.img disk=$CASE_DIR/tpmdump.img
	local token watcher rc i
	token=$(kdump_token)
	tpm_setup && tang_keys && net_ns_up || { echo "setting up the case failed"; return 1; }
	cp --sparse=always "$TPM_DISKS_DIR/tpmdump.img" "$disk" &&
	cryptsetup token remove --token-id 0 "$disk" &&
	clevis_bind "$disk" tang "{\"url\":\"$TANG_URL\",\"adv\":\"$CASE_DIR/adv.jws\"}" ||
		{ net_ns_down; echo "binding the dump disk failed: $(cat "$CASE_DIR/bind.log" 2>/dev/null)"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4,virtio_net --block-stacks --clevis --kdump \
		--kdump-target "UUID=$UUID_TPM_DUMP_FS" --kdump-options action=poweroff \
		-o "$capture" 2>"$CASE_DIR/build.log" ||
		{ net_ns_down; echo "lifeboat build --kdump --clevis failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	{
		for i in $(seq 1 800); do
			sed -n '/this is a capture kernel/,$p' "$log" 2>/dev/null | grep -q "Passphrase (try 1 of" &&
				break
			sleep 0.5
		done
		sleep 10
		tang_start
		echo "${NET_PIDS[@]}" >"$CASE_DIR/late.pids"
	} &
	watcher=$!
	# The first kernel leaves the dump disk locked (only an absent
	# container listed); the capture kernel's words list the dump disk's.
	# The capture image has the block stacks, cryptsetup and libcurl: 128M
	# runs out of memory unpacking it.
	KDUMP_CRASHKERNEL=192M KDUMP_APPEND="rd.luks.uuid=$UUID_TPM_KDUMP_ROOT" \
		KDUMP_FIRST_NET="$NET_GUEST/24 $NET_SERVER" \
		KDUMP_NETNS=$NET_NS QEMU_TIMEOUT=400 \
		kdump_boot "$capture" "$token" "rd.luks.uuid=$UUID_TPM_DUMP" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$NET_MAC \
		-drive "file=$disk,format=raw,if=virtio"
	rc=$?
	wait "$watcher"
	# shellcheck disable=SC2207
	[ -s "$CASE_DIR/late.pids" ] && NET_PIDS+=($(cat "$CASE_DIR/late.pids"))
	net_ns_down
	[ $rc -eq 0 ] || { echo "qemu failed ($rc)"; return 1; }
	tr -d '\r' <"$log" >"$log.txt"
	grep -Eq "is open: its clevis binding \(token [0-9]+, tang server $TANG_URL\) answered while the passphrase was asked" "$log.txt" ||
		{ echo "the console never named the binding that opened the dump disk"; return 1; }
	assert_log "$log.txt" "opened /dev/vd[a-z] (LUKS UUID=$UUID_TPM_DUMP) as /dev/mapper/luks-$UUID_TPM_DUMP with its clevis tang binding" &&
	assert_log "$log.txt" "kdump: dump saved as" &&
	assert_not_log "$log.txt" "nobody answered for" &&
	assert_not_log "$log.txt" "$LUKS_PW"
}
