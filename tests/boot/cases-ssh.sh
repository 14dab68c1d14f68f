# cases-ssh.sh: the SSH server of an image built with --ssh (sourced by
# run.sh; docs/remote.md). The guest is on the bridge of a network
# namespace the case creates (cases-net.sh's net_ns_up, dnsmasq for DHCP);
# OpenSSH's ssh logs in from the namespace. The console is a file the case
# watches: nothing is typed on it, every answer comes over SSH.

# The image (generic, --block-stacks for the LUKS root, --ssh), its keys
# and its host key, made once per run; the host key stays across runs as
# it stays in /etc/lifeboat on a real machine.
ssh_setup() {
	SSH_DIR=$WORK/ssh
	IMG_SSH=$SSH_DIR/ssh.img
	mkdir -p "$SSH_DIR"
	(
		flock 9
		[ -s "$SSH_DIR/id" ] || ssh-keygen -q -t ed25519 -N '' -C lifeboat-test -f "$SSH_DIR/id" || exit 1
		[ -s "$SSH_DIR/other" ] || ssh-keygen -q -t ed25519 -N '' -f "$SSH_DIR/other" || exit 1
		{ echo "# the boot tests' key"; cat "$SSH_DIR/id.pub"; } >"$SSH_DIR/authorized_keys"
		[ "$IMG_SSH" -nt "$BUILD/lifeboat-init" ] && [ "$IMG_SSH" -nt "$BUILD/lifeboat" ] &&
			[ "$IMG_SSH" -nt "$BUILD/lifeboat-login" ] && exit 0
		ssh_build "$IMG_SSH" "$SSH_DIR/build.log" ||
			{ echo "building the --ssh image failed: $SSH_DIR/build.log"; exit 1; }
	) 9>"$SSH_DIR.lock"
}

# ssh_build IMAGE LOG: the --ssh image, -v (it prints the fingerprint).
ssh_build() {
	"$BUILD/lifeboat" build -v --config /dev/null --generic --block-stacks --ssh \
		--ssh-authorized-keys "$SSH_DIR/authorized_keys" --ssh-host-key "$SSH_DIR/hostkey" \
		--kver "$KVER" -o "$1" >"$2" 2>&1
}

# The fingerprint a build printed ("SHA256:...").
ssh_build_fingerprint() {
	sed -n 's/.*ssh: host key .*: ssh-ed25519 \(SHA256:[^ ]*\).*/\1/p' "$1" | head -n 1
}

# ssh_start NAME APPEND [QEMU-ARGS...]: boot in the background; the console
# goes to NAME.log.
ssh_start() {
	SSH_LOG=$CASE_DIR/$1.log
	local append=$2
	shift 2
	timeout -k 5 "$QEMU_TIMEOUT" ip netns exec "$NET_NS" qemu-system-x86_64 \
		-accel tcg -cpu max -m 512 -nographic -no-reboot -monitor none -serial stdio \
		-kernel "$KERNEL" -initrd "$IMG_SSH" -append "$GUEST_APPEND $append" "$@" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no \
		-device virtio-net-pci,netdev=n0,mac=$NET_MAC,addr=0x5 </dev/null >"$SSH_LOG" 2>&1 &
	SSH_QEMU=$!
}

# ssh_console PATTERN SECONDS: the console showed PATTERN (grep -E).
ssh_console() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		tr -d '\r' <"$SSH_LOG" | grep -Eq -- "$1" && return 0
		kill -0 "$SSH_QEMU" 2>/dev/null || break
		sleep 0.2
	done
	tr -d '\r' <"$SSH_LOG" | grep -Eq -- "$1" && return 0
	echo "the console never showed '$1' (see $SSH_LOG)"
	return 1
}

# ssh_stop RC: wait for the guest to power off, or stop it after a failure.
ssh_stop() {
	[ "$1" -eq 0 ] || kill "$SSH_QEMU" 2>/dev/null
	wait "$SSH_QEMU" 2>/dev/null
	tr -d '\r' <"$SSH_LOG" >"$SSH_LOG.txt"
}

# The image's host key as known_hosts: strict checking proves the server
# is the one the build made.
ssh_known_hosts() {
	printf '%s %s\n' "$NET_GUEST" "$(dropbearkey -y -f "$SSH_DIR/hostkey" | grep '^ssh-ed25519' | cut -d' ' -f1,2)" \
		>"$CASE_DIR/known_hosts"
}

# ssh_as KEY [SSH-ARGS...]: ssh from the namespace as root with KEY.
ssh_as() {
	local key=$1
	shift
	ip netns exec "$NET_NS" ssh -i "$key" -o IdentitiesOnly=yes -o BatchMode=yes \
		-o StrictHostKeyChecking=yes -o UserKnownHostsFile="$CASE_DIR/known_hosts" \
		-o ConnectTimeout=20 -o LogLevel=ERROR "$@"
}

# The server answers (DHCP and its start take a moment after the console's line).
ssh_wait_server() {
	local i
	for i in $(seq 1 100); do
		ip netns exec "$NET_NS" bash -c "exec 3<>/dev/tcp/$NET_GUEST/22" 2>/dev/null && return 0
		sleep 0.2
	done
	echo "nothing answered on $NET_GUEST:22"
	return 1
}

ssh_hex() {
	printf '%s' "$1" | od -An -tx1 | tr -d ' \n'
}

# The real root's init found nothing listening on port 22.
ssh_assert_port_free() {
	assert_log "$1" '^LIFEBOAT-TEST: tcp-listen checked' &&
	assert_not_log "$1" '^LIFEBOAT-TEST: tcp-listen 22$'
}

# ssh_finish RC ROOTDEV: after a session that went well (RC 0), the real
# root's init ends; the guest stopped, the namespace down, that root
# reached on /dev/ROOTDEV with nothing listening on port 22.
ssh_finish() {
	local rc=$1
	[ $rc -eq 0 ] && { ssh_console '^LIFEBOAT-TEST: end' 120 || rc=1; }
	ssh_stop $rc
	net_ns_down
	[ $rc -eq 0 ] || return 1
	assert_root_reached "$SSH_LOG.txt" &&
	assert_log "$SSH_LOG.txt" "rootmount /dev/$2 ext4" &&
	ssh_assert_port_free "$SSH_LOG.txt"
}

# A LUKS root unlocked over SSH while the console's prompt waits: a key
# not listed and a password are refused, the host key is the build's (the
# same fingerprint after a rebuild), a wrong passphrase then the right one
# through one session, the root reached with nothing left listening on
# port 22 and the passphrase nowhere in the log or /run.
case_ssh_unlock() {
	local disk rc=0 fp out
	ssh_setup && stacks_setup || return 1
	disk=$(stack_copy luks)
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_dhcp_start
	ssh_known_hosts
	ssh_start unlock "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.neednet=1 ip=dhcp rd.timeout=120 lifeboat.test.nosecret=$(ssh_hex "$LUKS_PW")" \
		$(virtio_disk "$disk")
	ssh_console 'Passphrase \(try 1 of 3\)' 120 && ssh_wait_server || rc=1
	if [ $rc -eq 0 ]; then
		out=$(ssh_as "$SSH_DIR/other" "root@$NET_GUEST" true 2>&1) &&
			{ echo "a key that is not listed logged in"; rc=1; }
		echo "$out" | grep -q 'Permission denied (publickey)' || { echo "unlisted key: $out"; rc=1; }
	fi
	if [ $rc -eq 0 ]; then
		# Only publickey is offered: no password method to try.
		out=$(ssh_as "$SSH_DIR/id" -o PubkeyAuthentication=no \
			-o PreferredAuthentications=password,keyboard-interactive "root@$NET_GUEST" true 2>&1) &&
			{ echo "a login without a key got in"; rc=1; }
		echo "$out" | grep -q 'Permission denied (publickey)' || { echo "password login: $out"; rc=1; }
	fi
	if [ $rc -eq 0 ]; then
		fp=$(ip netns exec "$NET_NS" ssh-keyscan -t ed25519 "$NET_GUEST" 2>/dev/null | ssh-keygen -lf - | cut -d' ' -f2)
		[ -n "$fp" ] && [ "$fp" = "$(ssh_build_fingerprint "$SSH_DIR/build.log")" ] ||
			{ echo "the server's fingerprint '$fp' is not the build's"; rc=1; }
		ssh_build "$CASE_DIR/again.img" "$CASE_DIR/again.log" &&
			[ "$(ssh_build_fingerprint "$CASE_DIR/again.log")" = "$fp" ] ||
			{ echo "a rebuild changed the fingerprint (see $CASE_DIR/again.log)"; rc=1; }
		rm -f "$CASE_DIR/again.img"
	fi
	if [ $rc -eq 0 ]; then
		out=$(printf 'wrong-%s\n%s\n' "$LUKS_PW" "$LUKS_PW" | ssh_as "$SSH_DIR/id" "root@$NET_GUEST" unlock 2>&1)
		echo "$out" >"$CASE_DIR/unlock-session.txt"
		echo "$out" | grep -q "the passphrase does not open /dev/vda" &&
		echo "$out" | grep -q 'Passphrase (try 2 of 3)' &&
		echo "$out" | grep -q "/dev/vda (UUID=$UUID_LUKS) is open; the boot goes on" ||
			{ echo "the unlock session said: $out"; rc=1; }
	fi
	ssh_finish $rc dm-0 &&
	assert_log "$SSH_LOG.txt" '^LIFEBOAT-TEST: secrets: none' &&
	assert_not_log "$SSH_LOG.txt" "$LUKS_PW"
}

# The rescue over SSH. A missing root: the login reads the report and runs
# a command, its output on the session. A failed NFS root: an interactive
# login shows the console's lists (the interfaces). rd.break=pre-mount: an interactive
# login's shell, left with exit, lets the boot go on (the console's shell
# is closed), to the root, with nothing left listening on port 22.
case_ssh_rescue() {
	local rc=0 out ext4
	ssh_setup || return 1
	ext4=$(disk_copy ext4.img)
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_dhcp_start
	ssh_known_hosts
	ssh_start missing "root=UUID=$UUID_GPT_FS rd.neednet=1 ip=dhcp rd.timeout=3"
	ssh_console 'starting a rescue shell' 120 && ssh_wait_server || rc=1
	if [ $rc -eq 0 ]; then
		out=$(ssh_as "$SSH_DIR/id" "root@$NET_GUEST" \
			'grep "^why:" /run/initramfs/rdsosreport.txt; echo RESULT-$((6*7))' 2>&1)
		echo "$out" | grep -q "^why: root device root=UUID=$UUID_GPT_FS did not appear" &&
		echo "$out" | grep -q '^RESULT-42$' || { echo "the rescue session said: $out"; rc=1; }
	fi
	ssh_stop 1
	# A network root that fails: the login lists what the console listed,
	# the interfaces (no NFS server answers in the namespace).
	if [ $rc -eq 0 ]; then
		ssh_start nfs "root=nfs:$NET_SERVER:/nowhere ip=dhcp rd.timeout=8"
		ssh_console 'starting a rescue shell' 120 && ssh_wait_server || rc=1
	fi
	if [ $rc -eq 0 ]; then
		out=$(printf 'exit\n' | ssh_as "$SSH_DIR/id" -tt "root@$NET_GUEST" 2>&1)
		echo "$out" >"$CASE_DIR/nfs-session.txt"
		ssh_session_has "$out" 'the boot stopped: network root: mounting the NFS root' \
			'network interfaces:' "$NET_GUEST" || rc=1
		! grep -qF 'block devices present:' <<<"$out" ||
			{ echo "the NFS root's session listed block devices: $out"; rc=1; }
	fi
	ssh_stop 1
	if [ $rc -eq 0 ]; then
		ssh_start break "root=LABEL=lbext4 rd.neednet=1 ip=dhcp rd.break=pre-mount" \
			$(virtio_disk "$ext4")
		ssh_console 'rd.break=pre-mount: the boot stops here' 120 && ssh_wait_server || rc=1
	fi
	if [ $rc -eq 0 ]; then
		out=$(printf 'echo INSIDE-$((6*7))\nexit\n' | ssh_as "$SSH_DIR/id" -tt "root@$NET_GUEST" 2>&1)
		echo "$out" >"$CASE_DIR/break-session.txt"
		echo "$out" | grep -q 'the boot stopped: rd.break=pre-mount' &&
		echo "$out" | grep -q 'INSIDE-42' &&
		echo "$out" | grep -q "the console's shell is closed; the boot goes on" ||
			{ echo "the break session said: $out"; rc=1; }
		ssh_console '^LIFEBOAT-TEST: end' 90 || rc=1
		ssh_stop $rc
	fi
	net_ns_down
	[ $rc -eq 0 ] || return 1
	assert_root_reached "$SSH_LOG.txt" &&
	assert_log "$SSH_LOG.txt" 'rootmount /dev/vda ext4' &&
	ssh_assert_port_free "$SSH_LOG.txt"
}

# ssh_session_has OUTPUT PATTERN...: each fixed string is in the session's
# output, or the first missing one is named.
ssh_session_has() {
	local out=$1 p
	shift
	for p in "$@"; do
		grep -qF -- "$p" <<<"$out" || { echo "the session never said '$p' (it said: $out)"; return 1; }
	done
}

# Issue 34 over SSH: a root= that does not exist, the real root in LUKS on
# virtio-scsi that the boot leaves closed (rd.luks=0). An unlock-only
# login is told at once that the boot is in the rescue. An interactive
# login shows the console's device list, then repairs by hand as
# cases-rescue.sh's console variant does (rescue_luks_repair_steps:
# modprobe, cryptsetup open, mount /sysroot), leaves a daemon listening
# (setsid, so not under the server: audit N7), and its exit goes on into
# that root, saying so in the session. The real root finds nothing of the
# initramfs listening, and dropbear's log has no lastlog complaint.
case_ssh_luks_repair_by_hand() {
	local rc=0 disk out steps t0
	ssh_setup && stacks_disks || return 1
	disk=$(stack_copy luks)
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_dhcp_start
	ssh_known_hosts
	QEMU_TIMEOUT=400 ssh_start repair "root=UUID=$UUID_GONE rd.luks=0 rd.neednet=1 ip=dhcp rd.timeout=5" \
		$(disk_args virtio-scsi "$disk")
	ssh_console 'starting a rescue shell' 150 && ssh_wait_server || rc=1
	if [ $rc -eq 0 ]; then
		t0=$(date +%s)
		out=$(ssh_as "$SSH_DIR/id" "root@$NET_GUEST" unlock 2>&1 </dev/null)
		echo "$out" >"$CASE_DIR/unlock-session.txt"
		ssh_session_has "$out" "no passphrase prompt waits: the boot is in the rescue shell" \
			"root device root=UUID=$UUID_GONE did not appear" || rc=1
		[ $(($(date +%s) - t0)) -lt 20 ] || { echo "unlock took $(($(date +%s) - t0)) s to say it"; rc=1; }
	fi
	if [ $rc -eq 0 ]; then
		steps=$(rescue_luks_repair_steps /dev/sda)
		out=$({ cut -f1 <<<"$steps"
			echo 'echo LASTLOG-$(grep -c lastlog /run/lifeboat/dropbear.log)-$((40+8))'
			echo "setsid sh -c 'nc -l -p 2323 </dev/null >/dev/null 2>&1 &'; echo DAEMON-\$((40+9))"
			echo exit; } | ssh_as "$SSH_DIR/id" -tt -o ServerAliveInterval=5 \
				-o ServerAliveCountMax=6 "root@$NET_GUEST" 2>&1)
		echo "$out" >"$CASE_DIR/repair-session.txt"
		ssh_session_has "$out" "root device root=UUID=$UUID_GONE did not appear" \
			'block devices present:' '/dev/sda TYPE="crypto_LUKS"' \
			$(cut -f2 <<<"$steps") LASTLOG-0-48 DAEMON-49 \
			'/sysroot is mounted: the boot goes on with it' || rc=1
	fi
	ssh_finish $rc dm-0 &&
	assert_not_log "$SSH_LOG.txt" '^LIFEBOAT-TEST: tcp-listen 2323$'
}
