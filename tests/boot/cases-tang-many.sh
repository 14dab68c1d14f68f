# cases-tang-many.sh: a container bound to several Tang servers, some of
# them down (issue 37), booted with the image and servers of cases-tang.sh:
# the servers still up answer and the ones down cost nothing. A server
# "silent" accepts the connection and never answers (socat running sleep
# for each connection), the worst kind: asked one after another, it cost
# the whole 10 s deadline before the next server was asked.

TANG_SILENT_PORT=7502
TANG_REFUSED_PORT=7501
# On the guest's subnet, and nobody has it: the guest's ARP requests go
# unanswered, and its kernel says "host unreachable" after three (3 s).
TANG_NOBODY_URL=http://198.51.100.77:7500

# tang_silent_start: the silent server on the namespace's bridge address.
tang_silent_start() {
	setsid ip netns exec "$NET_NS" socat "TCP-LISTEN:$TANG_SILENT_PORT,bind=$NET_SERVER,reuseaddr,fork" \
		SYSTEM:"sleep 600" 2>"$CASE_DIR/silent.log" &
	NET_PIDS+=($!)
	net_wait_port "$TANG_SILENT_PORT"
}

# tang_adv_bind DISK PIN CONFIG: clevis_bind with "ADV" in CONFIG replaced
# by the case's advertisement.
tang_adv_bind() {
	clevis_bind "$1" "$2" "${3//ADV/$CASE_DIR/adv.jws}"
}

# tang_open_secs LOG: the guest's seconds from the DHCP lease to the
# container's opening (the kernel's timestamps on the two lines).
tang_open_secs() {
	awk '!match($0, /^\[ *[0-9]+\.[0-9]+\]/) { next }
	     { t = substr($0, 2, RLENGTH - 2) + 0 }
	     /lifeboat: eth0: .* from DHCP server/ && !l { l = t }
	     /lifeboat: opened \/dev\/vd/ && l && !o { o = t }
	     END { if (l && o) printf "%.1f\n", o - l; else print "none" }' "$1"
}

# tang_many_boot DISK USED: boot the bound root, expect it opened by USED
# with nothing typed within 6 s of the lease (a silent server waited for
# would cost 10).
tang_many_boot() {
	local log=$CASE_DIR/console.log secs
	TANG_DISK=$1
	tang_boot
	expect 'reboot: Power down' 120
	tang_stop $? || return 1
	assert_log "$log.txt" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with its clevis $2 binding" &&
	assert_not_log "$log.txt" 'Passphrase (try' &&
	assert_root_reached "$log.txt" || return 1
	secs=$(tang_open_secs "$log.txt")
	awk -v s="$secs" 'BEGIN { exit !(s != "none" && s < 6) }' ||
		{ echo "the container opened $secs s after the lease, not within 6 s"; return 1; }
}

# sss t=1 of three servers: the first at an address nobody answers, the
# second refuses, the third is live: opened by the third at once, nothing
# typed.
case_tang_sss_servers_down() {
	local disk
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start && tang_start &&
	disk=$(stack_copy luks) &&
	tang_adv_bind "$disk" sss "{\"t\":1,\"pins\":{\"tang\":[{\"url\":\"$TANG_NOBODY_URL\",\"adv\":\"ADV\"},{\"url\":\"http://$NET_SERVER:$TANG_REFUSED_PORT\",\"adv\":\"ADV\"},{\"url\":\"$TANG_URL\",\"adv\":\"ADV\"}]}}" ||
		{ echo "setting up the case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
	tang_many_boot "$disk" "sss (tang)" || return 1
	tang_many_said "$CASE_DIR/console.log.txt"
}

# tang_many_said LOG: the refusing server is said once (after the unlock,
# written straight to the console: it may show before the kernel prints
# the log's "opened" line); the one nobody answers, abandoned before its
# ARP requests failed, is not.
tang_many_said() {
	local n
	n=$(grep -c "lifeboat: clevis token 0 on /dev/vda: sss share 2 (tang): tang server http://$NET_SERVER:$TANG_REFUSED_PORT: connection refused" "$1")
	[ "$n" -eq 1 ] || { echo "the refusing server was named $n times, not once"; return 1; }
	assert_not_log "$1" "sss share 1 (tang)"
}

# Two tang tokens on one container, the first one's server silent: opened
# by the second at once, nothing typed.
case_tang_tokens_first_silent() {
	local disk
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start && tang_start &&
	tang_silent_start && disk=$(stack_copy luks) &&
	tang_adv_bind "$disk" tang "{\"url\":\"http://$NET_SERVER:$TANG_SILENT_PORT\",\"adv\":\"ADV\"}" &&
	tang_adv_bind "$disk" tang "{\"url\":\"$TANG_URL\",\"adv\":\"ADV\"}" ||
		{ echo "setting up the case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
	tang_many_boot "$disk" tang
}

# Two containers in one boot. The root, sss t=2 of {silent, the live
# server by address, the same by name}: the two live shares open it at
# once, nothing typed. The second, t=1 of {an address nobody answers,
# refusing, silent}: every server down, so the passphrase prompt comes at
# the silent one's deadline, the console names all three with what each
# did (the unanswered ARP as "host unreachable", not a deadline), and the
# typed passphrase opens it.
case_tang_sss_two_of_three_and_all_down() {
	local root data log=$CASE_DIR/console.log share
	NET_DNS_RECORD=$TANG_NAME,$NET_SERVER
	stacks_disks && tang_image && tang_keys && net_ns_up && net_dhcp_start && tang_start &&
	tang_silent_start && root=$(stack_copy luks) && data=$CASE_DIR/data.img &&
	cp --sparse=always "$root" "$data" && cryptsetup luksUUID -q --uuid "$UUID_CLEVIS_DATA" "$data" &&
	tang_adv_bind "$root" sss "{\"t\":2,\"pins\":{\"tang\":[{\"url\":\"http://$NET_SERVER:$TANG_SILENT_PORT\",\"adv\":\"ADV\"},{\"url\":\"$TANG_URL\",\"adv\":\"ADV\"},{\"url\":\"$TANG_NAME_URL\",\"adv\":\"ADV\"}]}}" &&
	tang_adv_bind "$data" sss "{\"t\":1,\"pins\":{\"tang\":[{\"url\":\"$TANG_NOBODY_URL\",\"adv\":\"ADV\"},{\"url\":\"http://$NET_SERVER:$TANG_REFUSED_PORT\",\"adv\":\"ADV\"},{\"url\":\"http://$NET_SERVER:$TANG_SILENT_PORT\",\"adv\":\"ADV\"}]}}" ||
		{ echo "setting up the case failed (bind: $(cat "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
	tang_boot "root=/dev/mapper/luks-$UUID_LUKS rd.luks.uuid=$UUID_LUKS rd.luks.uuid=$UUID_CLEVIS_DATA rd.timeout=90" \
		$(virtio_disk "$root") $(virtio_disk "$data")
	{
		expect 'Passphrase \(try 1 of 3\)' 90 &&
		type_line "$LUKS_PW" &&
		expect 'reboot: Power down' 120
	}
	tang_stop $? || return 1
	log=$log.txt
	assert_log "$log" "opened /dev/vd[ab] (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with its clevis sss (tang, tang) binding" &&
	assert_log "$log" "opened /dev/vd[ab] (LUKS UUID=$UUID_CLEVIS_DATA) as /dev/mapper/luks-$UUID_CLEVIS_DATA with a passphrase" &&
	assert_log "$log" "no clevis binding opened /dev/vd[ab] (UUID=$UUID_CLEVIS_DATA); asking for its passphrase instead" &&
	assert_root_reached "$log" &&
	assert_not_log "$log" "$LUKS_PW" || return 1
	[ "$(grep -c 'Passphrase (try' "$log")" -eq 1 ] || { echo "more than one passphrase was asked"; return 1; }
	for share in "1 (tang): tang server $TANG_NOBODY_URL: host unreachable" \
		"2 (tang): tang server http://$NET_SERVER:$TANG_REFUSED_PORT: connection refused" \
		"3 (tang): tang server http://$NET_SERVER:$TANG_SILENT_PORT: no answer within 10 s"; do
		[ "$(grep -c "clevis token 0 on /dev/vd[ab]: sss share $share" "$log")" -eq 1 ] ||
			{ echo "the console did not name once: sss share $share"; return 1; }
	done
}
