# cases-tang.sh: LUKS roots bound with `clevis luks bind` to a Tang server,
# to a TPM (the tpm2 pin) and to both (sss) (sourced by run.sh; the stacked
# disks of cases-stacks.sh, the network namespace of cases-net.sh, the
# console pipes of cases-rescue.sh, the software TPM of cases-tpm.sh). The
# server is Debian's tangd, served by socat in the case's namespace as a
# socket-activated service is (one tangd per connection); the binding is
# made on the host with the real clevis, offline from the server's
# advertisement (a LUKS2 token and a key slot: no device-mapper needed).

TANG_PORT=7500
TANG_URL=http://$NET_SERVER:$TANG_PORT
# The same server by name, which dnsmasq answers in the namespace.
TANG_NAME=tang.lifeboat.test
TANG_NAME_URL=http://$TANG_NAME:$TANG_PORT
# The second container of the pins case (a copy of the LUKS root, renamed).
UUID_CLEVIS_DATA=1b2c3d4e-0201-4a5b-8c6d-7e8f9a0b1c2d
# swtpm's port while clevis seals into it (in the case's namespace only).
CLEVIS_TPM_PORT=2321

# The image under test: generic with --clevis (block stacks and network
# implied), made once per run.
tang_image() {
	IMG_TANG=$(cached_image tang --generic --clevis) || { echo "$IMG_TANG"; return 1; }
}

# tang_keys: the server's keys in $CASE_DIR/tangdb and its advertisement.
tang_keys() {
	mkdir -p "$CASE_DIR/tangdb" && /usr/libexec/tangd-keygen "$CASE_DIR/tangdb" &&
	printf 'GET /adv HTTP/1.1\r\nHost: tang\r\n\r\n' | /usr/libexec/tangd "$CASE_DIR/tangdb" 2>/dev/null |
		sed '1,/^\r$/d' >"$CASE_DIR/adv.jws" && [ -s "$CASE_DIR/adv.jws" ]
}

# tang_start: tangd behind socat on the namespace's bridge address.
tang_start() {
	setsid ip netns exec "$NET_NS" socat "TCP-LISTEN:$TANG_PORT,bind=$NET_SERVER,reuseaddr,fork" \
		EXEC:"/usr/libexec/tangd $CASE_DIR/tangdb" 2>"$CASE_DIR/tangd.log" &
	NET_PIDS+=($!)
	net_wait_port "$TANG_PORT"
}

# clevis_bind DISK PIN CONFIG: `clevis luks bind` with the LUKS
# passphrase given by file, in the case's namespace (the tpm2 pin reaches
# swtpm there); its output appended to bind.log.
clevis_bind() {
	local rc
	printf '%s' "$LUKS_PW" >"$CASE_DIR/pw"
	ip netns exec "$NET_NS" env TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$CLEVIS_TPM_PORT" \
		clevis luks bind -y -k "$CASE_DIR/pw" -d "$1" "$2" "$3" >>"$CASE_DIR/bind.log" 2>&1
	rc=$?
	rm -f "$CASE_DIR/pw"
	return $rc
}

# tang_disk [URL [STACK]]: the LUKS root disk (or the stacks' disk STACK)
# bound to the case's server (by address, or URL); echoes its path.
tang_disk() {
	local disk
	disk=$(stack_copy "${2:-luks}") &&
	clevis_bind "$disk" tang "{\"url\":\"${1:-$TANG_URL}\",\"adv\":\"$CASE_DIR/adv.jws\"}" &&
	echo "$disk"
}

# tang_setup [URL]
tang_setup() {
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start &&
	TANG_DISK=$(tang_disk "${1:-}") ||
		{ echo "setting up the Tang case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
}

# tang_boot [CMDLINE [QEMU-ARGS...]]: the NIC on the namespace's bridge;
# by default the bound root alone.
tang_boot() {
	local cmdline=${1:-root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=60}
	[ $# -eq 0 ] || shift
	[ $# -gt 0 ] || set -- $(virtio_disk "$TANG_DISK")
	RESCUE_NETNS=$NET_NS rescue_start "$IMG_TANG" "$cmdline" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no \
		-device virtio-net-pci,netdev=n0,mac=$NET_MAC,addr=0x5 "$@"
}

# tang_stop RC: the machine off; the console log without CRs for the
# assertions (console.log.txt). Fails when RC does.
tang_stop() {
	rescue_stop "$1"
	tr -d '\r' <"$CASE_DIR/console.log" >"$CASE_DIR/console.log.txt"
	[ "$1" -eq 0 ]
}

# tang_pass_absent LOG: the passphrase the binding holds (recovered by
# clevis itself from the case's server) is nowhere in LOG.
tang_pass_absent() {
	local pass
	# In a mount namespace of its own, /etc/resolv.conf names the case's
	# dnsmasq, so a binding by host name resolves as in the guest.
	printf 'nameserver %s\n' "$NET_SERVER" >"$CASE_DIR/resolv.conf"
	pass=$(ip netns exec "$NET_NS" unshare -m sh -c \
		'mount --bind "$1" /etc/resolv.conf && clevis luks pass -d "$2" -s 1' sh \
		"$CASE_DIR/resolv.conf" "$TANG_DISK" 2>/dev/null) &&
		[ -n "$pass" ] || { echo "clevis luks pass could not recover the binding's passphrase"; return 1; }
	assert_not_log "$1" "$pass"
}

# The Tang-bound root boots with nothing typed; the binding names the
# server by a host name, which the guest resolves through the DNS server
# DHCP gave it (dnsmasq answers that one name).
case_tang_root() {
	local log=$CASE_DIR/console.log
	NET_DNS_RECORD=$TANG_NAME,$NET_SERVER tang_setup "$TANG_NAME_URL" && tang_start || return 1
	tang_boot
	expect 'reboot: Power down' 120
	tang_stop $? || return 1
	assert_log "$log.txt" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with its clevis tang binding" &&
	assert_not_log "$log.txt" 'Passphrase (try' &&
	assert_root_reached "$log.txt" &&
	tang_pass_absent "$log.txt" || return 1
	grep -q "query\[A\] $TANG_NAME from $NET_GUEST" "$CASE_DIR/dnsmasq.log" ||
		{ echo "the guest never asked dnsmasq for $TANG_NAME (dnsmasq.log)"; return 1; }
	grep -q 'POST /rec/' "$CASE_DIR/tangd.log" ||
		{ echo "tangd never answered a recovery (tangd.log)"; return 1; }
}

# The server stopped: the console names it and asks for the passphrase
# well within rd.timeout; the typed passphrase opens the root.
case_tang_server_down() {
	local log=$CASE_DIR/console.log
	tang_setup || return 1
	tang_boot
	{
		expect "tang server $TANG_URL: " 90 &&
		expect 'Passphrase \(try 1 of 3\)' 30 &&
		type_line "$LUKS_PW" &&
		expect 'reboot: Power down' 120
	}
	tang_stop $? || return 1
	assert_log "$log.txt" "no clevis binding opened /dev/vda (UUID=$UUID_LUKS); asking for its passphrase instead" &&
	assert_log "$log.txt" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with a passphrase" &&
	assert_root_reached "$log.txt" &&
	assert_not_log "$log.txt" "$LUKS_PW"
}

# clevis_tpm_up: a new software TPM (state in $CASE_DIR/tpm) served over
# TCP on the namespace's loopback while clevis's tpm2-tools seal into it.
clevis_tpm_up() {
	local i
	mkdir -p "$CASE_DIR/tpm" &&
	swtpm_setup --tpm2 --tpmstate "$CASE_DIR/tpm" --createek >"$CASE_DIR/swtpm_setup.log" 2>&1 ||
		{ echo "swtpm_setup failed (swtpm_setup.log)"; return 1; }
	ip netns exec "$NET_NS" swtpm socket --tpm2 --tpmstate "dir=$CASE_DIR/tpm" \
		--server "type=tcp,port=$CLEVIS_TPM_PORT,bindaddr=127.0.0.1" \
		--ctrl "type=tcp,port=$((CLEVIS_TPM_PORT + 1)),bindaddr=127.0.0.1" \
		--flags not-need-init,startup-clear 2>"$CASE_DIR/swtpm-bind.log" &
	CLEVIS_SWTPM_PID=$!
	for ((i = 0; i < 50; i++)); do
		ip netns exec "$NET_NS" env TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$CLEVIS_TPM_PORT" \
			tpm2_getrandom 4 >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "swtpm did not answer (swtpm-bind.log)"
	return 1
}

clevis_tpm_down() {
	kill "$CLEVIS_SWTPM_PID" 2>/dev/null
	wait "$CLEVIS_SWTPM_PID" 2>/dev/null
}

# The root bound with sss, t=1 of {the Tang server, the TPM}, with the
# server down: the TPM's share opens it (local shares are asked first, so
# the server is not even tried). A second container, bound to the TPM alone
# (the tpm2 pin), opens in the same boot. Both bind PCR 23 in the sha256
# bank: nothing measures it, so it reads the same in swtpm at the bind and
# in the guest, and the unseal goes through the PCR policy session.
case_clevis_sss_tpm2() {
	local log=$CASE_DIR/console.log root data tpm='{"pcr_bank":"sha256","pcr_ids":"23"}' rc
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start && clevis_tpm_up ||
		return 1
	root=$(stack_copy luks) && data=$CASE_DIR/data.img && cp --sparse=always "$root" "$data" &&
	cryptsetup luksUUID -q --uuid "$UUID_CLEVIS_DATA" "$data" &&
	clevis_bind "$root" sss "{\"t\":1,\"pins\":{\"tang\":[{\"url\":\"$TANG_URL\",\"adv\":\"$CASE_DIR/adv.jws\"}],\"tpm2\":$tpm}}" &&
	clevis_bind "$data" tpm2 "$tpm"
	rc=$?
	clevis_tpm_down
	[ $rc -eq 0 ] || { echo "binding failed: $(cat "$CASE_DIR/bind.log")"; return 1; }
	tpm_start "$CASE_DIR/tpm"
	# The root by its mapping: the copy's filesystem has the same UUID.
	tang_boot "root=/dev/mapper/luks-$UUID_LUKS rd.luks.uuid=$UUID_LUKS rd.luks.uuid=$UUID_CLEVIS_DATA rd.timeout=60" \
		$(virtio_disk "$root") $(virtio_disk "$data") $TPM_ARGS
	expect 'reboot: Power down' 180
	rc=$?
	tpm_stop
	tang_stop $rc || return 1
	assert_log "$log.txt" "opened /dev/vd[ab] (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with its clevis sss (tpm2) binding" &&
	assert_log "$log.txt" "opened /dev/vd[ab] (LUKS UUID=$UUID_CLEVIS_DATA) as /dev/mapper/luks-$UUID_CLEVIS_DATA with its clevis tpm2 binding" &&
	assert_not_log "$log.txt" 'Passphrase (try' &&
	assert_not_log "$log.txt" "$LUKS_PW" &&
	assert_root_reached "$log.txt"
}

# Resume from a swap in a Tang-bound container (the stacks' LUKS swap,
# bound on the host), nothing typed: the network comes up before the
# resume decision; boot 1 opens the swap there, finds no image, mounts the
# root and hibernates into it; boot 2 opens it again before any filesystem
# is mounted and restores the image; the root is intact after.
case_tang_resume_swap() {
	local root=$CASE_DIR/root.img token name=luks-$UUID_LUKS_SWAP swap rc=0
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start && tang_start &&
	swap=$(tang_disk "$TANG_URL" luksswap) ||
		{ net_ns_down; echo "setting up the Tang resume case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" || { net_ns_down; return 1; }
	NET_IMG=$IMG_TANG QEMU_TIMEOUT=300 net_boot boot1 \
		"root=UUID=$UUID_HIBROOT rw resume=/dev/mapper/$name rd.luks.uuid=$UUID_LUKS_SWAP rd.timeout=90 rd.shell=0 lbtest.hibernate=1 lbtest.swap=/dev/mapper/$name lbtest.token=$token" \
		$(virtio_disk "$root") $(virtio_disk "$swap")
	NET_IMG=$IMG_TANG QEMU_TIMEOUT=300 net_boot boot2 \
		"root=UUID=$UUID_HIBROOT resume=UUID=$UUID_LUKS_SWAP_INNER rd.luks.uuid=$UUID_LUKS_SWAP rd.timeout=90 rd.shell=0" \
		$(virtio_disk "$root") $(virtio_disk "$swap")
	grep -c 'POST /rec/' "$CASE_DIR/tangd.log" >"$CASE_DIR/recoveries" 2>/dev/null
	TANG_DISK=$swap
	tang_pass_absent "$CASE_DIR/boot1.log.txt" && tang_pass_absent "$CASE_DIR/boot2.log.txt" || rc=1
	net_ns_down
	[ $rc -eq 0 ] &&
	tang_resume_asserts "$CASE_DIR/boot1.log.txt" "$CASE_DIR/boot2.log.txt" "$token" "$name" &&
	[ "$(cat "$CASE_DIR/recoveries")" -ge 2 ] ||
		{ echo "tangd answered $(cat "$CASE_DIR/recoveries") recoveries, not one per boot"; return 1; }
	assert_root_intact "$root" "before-hibernate $token|after-resume $token 1|"
}

# What tang_resume_swap's two boots must show: the swap opened by its
# binding before the decision in both, the image saved, then restored with
# no filesystem mounted; nothing asked.
tang_resume_asserts() {
	local log1=$1 log2=$2 token=$3 name=$4
	assert_log "$log1" "HIB-TEST: HIBERNATING 1 $token" &&
	assert_log "$log1" "opened /dev/vd[a-z] (LUKS UUID=$UUID_LUKS_SWAP) as /dev/mapper/$name with its clevis tang binding" &&
	assert_log "$log1" "resume: /dev/dm-0 at page 0: swap without a hibernation image" &&
	assert_log "$log1" "PM: hibernation: Image saving done\|PM: Image saving done" &&
	assert_log "$log2" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_log "$log2" "with its clevis tang binding" &&
	assert_log "$log2" "resume: no block filesystem is mounted; safe to resume from /dev/dm-0" &&
	assert_log "$log2" "resume: restoring the hibernation image on /dev/dm-0" &&
	assert_not_log "$log2" "EXT4-fs (vd[a-z]*): mounted" &&
	assert_not_log "$log1" "Passphrase (try" &&
	assert_not_log "$log2" "Passphrase (try"
}
