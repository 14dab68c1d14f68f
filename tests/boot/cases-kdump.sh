# cases-kdump.sh: kdump in qemu (sourced by run.sh). A real crash: the first
# kernel boots a test root whose init arms the capture kernel with
# `lifeboat kdump load`, writes a marker to the kernel log and crashes with
# sysrq-c; the capture kernel boots the capture image, which saves the dump.
# One qemu process runs both kernels and exits when the capture reboots.

# boot_qemu's guests have 512 MB; 96M was the smallest that worked (docs in
# the kdump reference), 128M leaves a margin.
KDUMP_CRASHKERNEL=128M

# The first kernel's root: busybox, lifeboat with its libraries, the kernel
# and the capture image to load, and an init script that crashes. With
# KDUMP_FIRST_NET="ADDR/PREFIX GATEWAY", the init first sets eth0 up as a
# real root's network manager would (virtio_net from the tree, busybox ip),
# so that kdump load has a network to pass on.
kdump_root_tree() {
	local tree=$1 capture=$2 token=$3 append=${4:-} lib net="" addr gw
	rm -rf "$tree"
	mkdir -p "$tree"/{bin,sbin,proc,sys,dev,run,etc,boot,usr/bin}
	cp /bin/busybox "$tree/bin/busybox"
	for a in sh mount cat echo sleep insmod ip; do ln -s busybox "$tree/bin/$a"; done
	if [ -n "${KDUMP_FIRST_NET:-}" ]; then
		mkdir -p "$tree/lib/net"
		for lib in net/core/failover drivers/net/net_failover drivers/net/virtio_net; do
			cp "/lib/modules/$KVER/kernel/$lib.ko" "$tree/lib/net/" || return 1
			net="${net}insmod /lib/net/${lib##*/}.ko; "
		done
		read -r addr gw <<<"$KDUMP_FIRST_NET"
		net="${net}ip link set eth0 up; ip addr add $addr dev eth0; ip route add default via $gw"
	fi
	cp "$BUILD/lifeboat" "$tree/usr/bin/lifeboat"
	for lib in $(ldd "$BUILD/lifeboat" | grep -o '/[^ ]*'); do
		mkdir -p "$tree$(dirname "$lib")"
		cp -L "$lib" "$tree$lib"
	done
	cp "$KERNEL" "$tree/boot/vmlinuz"
	cp "$capture" "$tree/boot/capture.img"
	cat > "$tree/sbin/init" <<-EOT
	#!/bin/sh
	export PATH=/bin:/usr/bin
	mount -t proc proc /proc; mount -t sysfs sys /sys
	echo "LIFEBOAT-TEST: root reached"
	$net
	lifeboat kdump load --kernel /boot/vmlinuz --image /boot/capture.img --append "$append" || echo "LIFEBOAT-TEST: kdump load failed"
	lifeboat kdump status
	echo "KDUMP-MARKER-$token" > /dev/kmsg
	echo 1 > /proc/sys/kernel/sysrq
	echo c > /proc/sysrq-trigger
	EOT
	chmod 0755 "$tree/sbin/init"
}

# kdump_boot CAPTURE_IMAGE TOKEN CAPTURE_APPEND QEMU_ARGS...: crash and
# capture in one qemu; KDUMP_APPEND has words for the first kernel's
# command line (the capture kernel inherits them).
kdump_boot() {
	local capture=$1 token=$2 append=$3
	shift 3
	kdump_root_tree "$CASE_DIR/root" "$capture" "$token" "$append" &&
	mkfs_image ext4 "$CASE_DIR/root.img" 96 "$CASE_DIR/root" kdroot 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b01 &&
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$QEMU_TIMEOUT" ${KDUMP_NETNS:+ip netns exec $KDUMP_NETNS} \
		qemu-system-x86_64 -accel tcg -cpu max -m 512 -nographic -no-reboot -monitor none \
		-serial stdio -kernel "$KERNEL" -initrd "$IMG_GENERIC" \
		-append "$GUEST_APPEND root=LABEL=kdroot crashkernel=$KDUMP_CRASHKERNEL ${KDUMP_APPEND:-}" \
		-drive "file=$CASE_DIR/root.img,format=raw,if=virtio" "$@" </dev/null >"$CASE_DIR/console.log" 2>&1
}

# A file from an ext4 image, by path, without mounting it.
ext4_get() {
	debugfs -R "dump $2 $3" "$1" >/dev/null 2>&1 && [ -s "$3" ]
}

# The one directory under /var/crash of an ext4 image.
ext4_dump_dir() {
	debugfs -R "ls -p /var/crash" "$1" 2>/dev/null | awk -F/ '$6 != "." && $6 != ".." && $6 != "" { print $6 }' | head -n 1
}

# Capture to disk: the first target (16 MB) is too small and skipped with a
# message, the second gets vmcore (kdump-compressed), vmcore.elf (the ELF
# format, filtered by the same level, from the same run) and
# vmcore-dmesg.txt. makedumpfile reads both files, the logs have the
# marker, the two files keep the same pages with the same bytes, and
# makedumpfile -d 31 of the ELF file keeps exactly those pages too.
case_kdump_disk() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img dir f
	token=$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4 --kdump \
		--kdump-target LABEL=kdsmall:/var/crash --kdump-target LABEL=kdbig \
		--kdump-options format=kdump+elf,action=poweroff,compress=zlib -o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	mkdir -p "$CASE_DIR/empty"
	mkfs_image ext4 "$CASE_DIR/small.img" 16 "$CASE_DIR/empty" kdsmall 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b02
	mkfs_image ext4 "$CASE_DIR/big.img" 1200 "$CASE_DIR/empty" kdbig 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b03
	kdump_boot "$capture" "$token" "" -nic none \
		-drive "file=$CASE_DIR/small.img,format=raw,if=virtio" \
		-drive "file=$CASE_DIR/big.img,format=raw,if=virtio"
	assert_log "$log" "kdump: armed" &&
	assert_not_log "$log" "LIFEBOAT-TEST: kdump load failed" &&
	assert_log "$log" "kdump: this is a capture kernel" &&
	assert_log "$log" "LABEL=kdsmall (/dev/vd[a-z]): [0-9]* MiB free, the dump may take up to" &&
	assert_log "$log" "kdump: saving memory: 100%" &&
	assert_log "$log" "kdump: pages compressed with zlib by 1 thread" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	[ -z "$(debugfs -R 'ls -p /var/crash' "$CASE_DIR/small.img" 2>/dev/null | grep -E '/vmcore')" ] &&
	dir=$(ext4_dump_dir "$CASE_DIR/big.img") && [ -n "$dir" ] ||
		{ echo "no dump directory under /var/crash on the second target"; return 1; }
	for f in vmcore vmcore.elf vmcore-dmesg.txt; do
		ext4_get "$CASE_DIR/big.img" "/var/crash/$dir/$f" "$CASE_DIR/$f" ||
			{ echo "/var/crash/$dir/$f missing on the second target"; return 1; }
	done
	debugfs -R "ls -p /var/crash/$dir" "$CASE_DIR/big.img" 2>/dev/null | grep -q incomplete &&
		{ echo "a .incomplete file was left"; return 1; }
	makedumpfile --dump-dmesg "$CASE_DIR/vmcore" "$CASE_DIR/makedumpfile-dmesg.txt" >"$CASE_DIR/makedumpfile.log" 2>&1 ||
		{ echo "makedumpfile cannot read the dump: $(tail -n 2 "$CASE_DIR/makedumpfile.log" | tr '\n' ' ')"; return 1; }
	grep -q "KDUMP-MARKER-$token" "$CASE_DIR/makedumpfile-dmesg.txt" ||
		{ echo "makedumpfile --dump-dmesg of the dump lacks the marker"; return 1; }
	grep -q "KDUMP-MARKER-$token" "$CASE_DIR/vmcore-dmesg.txt" ||
		{ echo "vmcore-dmesg.txt lacks the marker"; return 1; }
	cmp -s "$CASE_DIR/vmcore-dmesg.txt" "$CASE_DIR/makedumpfile-dmesg.txt" ||
		{ echo "vmcore-dmesg.txt differs from makedumpfile --dump-dmesg"; return 1; }
	kdump_check_elf "$token" || return 1
	grep -q "header status 0x1;.* 0x1: [1-9]" "$CASE_DIR/verify.log" ||
		{ echo "the dump's pages are not zlib: $(tail -n 1 "$CASE_DIR/verify.log")"; return 1; }
}

# The filtered ELF file of kdump_disk: its program headers as readelf sees
# them, makedumpfile reads its log, and its pages against the dump's and
# against makedumpfile's own filtering of it.
kdump_check_elf() {
	local token=$1 elf=$CASE_DIR/vmcore.elf loads
	readelf -l "$elf" >"$CASE_DIR/readelf.log" 2>&1 && grep -q "Elf file type is CORE" "$CASE_DIR/readelf.log" ||
		{ echo "readelf cannot read vmcore.elf: $(tail -n 1 "$CASE_DIR/readelf.log")"; return 1; }
	loads=$(grep -c "^  LOAD" "$CASE_DIR/readelf.log")
	[ "$loads" -gt 3 ] || { echo "vmcore.elf has $loads PT_LOADs: not filtered"; return 1; }
	makedumpfile --dump-dmesg "$elf" "$CASE_DIR/elf-dmesg.txt" >"$CASE_DIR/makedumpfile-elf.log" 2>&1 &&
	grep -q "KDUMP-MARKER-$token" "$CASE_DIR/elf-dmesg.txt" ||
		{ echo "makedumpfile --dump-dmesg of vmcore.elf lacks the marker"; return 1; }
	makedumpfile -c -d 31 "$elf" "$CASE_DIR/vmcore.mdf" >>"$CASE_DIR/makedumpfile-elf.log" 2>&1 ||
		{ echo "makedumpfile -c -d 31 cannot read vmcore.elf: $(tail -n 2 "$CASE_DIR/makedumpfile-elf.log" | tr '\n' ' ')"; return 1; }
	python3 "$TOP/tests/boot/kdump-verify.py" "$CASE_DIR/vmcore" "$elf" "$CASE_DIR/vmcore.mdf" >"$CASE_DIR/verify.log" 2>&1 ||
		{ echo "the dump and vmcore.elf disagree: $(tail -n 1 "$CASE_DIR/verify.log")"; return 1; }
}

# kdump_build CAPTURE_IMAGE ARGS...: a capture image with the network
# drivers; the build's messages in build.log.
kdump_build() {
	local capture=$1
	shift
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4,virtio_net --kdump "$@" -o "$capture" \
		2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
}

# kdump_net_boot CAPTURE_IMAGE TOKEN: crash and capture with the guest's NIC
# on the namespace's bridge (cases-net.sh), eth0 configured statically by
# the capture kernel (ip= from `kdump load --append`); the namespace is
# taken down after.
kdump_net_boot() {
	local rc
	KDUMP_NETNS=$NET_NS kdump_boot "$1" "$2" \
		"ip=$NET_GUEST::$NET_SERVER:255.255.255.0::eth0:off" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$NET_MAC
	rc=$?
	net_ns_down
	[ $rc -eq 0 ] || { echo "qemu failed ($rc)"; return 1; }
	assert_log "$CASE_DIR/console.log" "kdump: armed"
}

# kdump_check_flat DIR TOKEN: DIR, the dump's directory on a server, holds
# vmcore.flat and vmcore-dmesg.txt under their final names and nothing
# .incomplete; makedumpfile -R reassembles the dump, and its log and
# vmcore-dmesg.txt both have the marker.
kdump_check_flat() {
	local dir=$1 token=$2
	[ -n "$dir" ] && [ -s "$dir/vmcore.flat" ] || { echo "no vmcore.flat reached the server"; return 1; }
	! ls "$dir" | grep -q incomplete || { echo "an .incomplete file was left on the server"; return 1; }
	makedumpfile -R "$CASE_DIR/vmcore" <"$dir/vmcore.flat" >"$CASE_DIR/makedumpfile-R.log" 2>&1 ||
		{ echo "makedumpfile -R cannot reassemble the stream: $(tail -n 1 "$CASE_DIR/makedumpfile-R.log")"; return 1; }
	makedumpfile --dump-dmesg "$CASE_DIR/vmcore" "$CASE_DIR/makedumpfile-dmesg.txt" >"$CASE_DIR/makedumpfile.log" 2>&1 &&
	grep -q "KDUMP-MARKER-$token" "$CASE_DIR/makedumpfile-dmesg.txt" ||
		{ echo "makedumpfile --dump-dmesg of the reassembled dump lacks the marker"; return 1; }
	grep -q "KDUMP-MARKER-$token" "$dir/vmcore-dmesg.txt" ||
		{ echo "vmcore-dmesg.txt on the server lacks the marker"; return 1; }
}

kdump_token() {
	head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n'
}

# Capture over HTTP: PUT as a flattened stream to a server in the test's
# network namespace, renamed with MOVE; reassembled on the host.
case_kdump_http() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img srv=$CASE_DIR/srv
	token=$(kdump_token)
	kdump_build "$capture" --kdump-target "http://$NET_SERVER:8080/dumps/" --kdump-options action=poweroff || return 1
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	mkdir -p "$srv"
	setsid ip netns exec "$NET_NS" python3 "$TOP/tests/boot/kdump-httpd.py" "$NET_SERVER" 8080 "$srv" \
		>"$CASE_DIR/httpd.log" 2>&1 &
	NET_PIDS+=($!)
	net_wait_port 8080 >/dev/null || { echo "the test's HTTP server did not start: $CASE_DIR/httpd.log"; return 1; }
	kdump_net_boot "$capture" "$token" &&
	assert_log "$log" "kdump: saving the dump to target 1 of 1: http://" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	kdump_check_flat "$(ls -d "$srv"/dumps/*/ 2>/dev/null | head -n 1)" "$token"
}

# kdump_test_ca DIR NAME: a CA of the test's own, DIR/NAME.pem and its key.
kdump_test_ca() {
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=lifeboat test $2" \
		-keyout "$1/$2.key" -out "$1/$2.pem" >/dev/null 2>&1
}

# kdump_test_cert DIR CA [NAME]: DIR/server.pem for $NET_SERVER (and the host
# name NAME), signed by DIR/CA.pem.
kdump_test_cert() {
	printf 'subjectAltName=IP:%s%s\nextendedKeyUsage=serverAuth\n' "$NET_SERVER" "${3:+,DNS:$3}" >"$1/server.ext"
	openssl req -newkey rsa:2048 -nodes -subj "/CN=$NET_SERVER" -keyout "$1/server.key" \
		-out "$1/server.csr" >/dev/null 2>&1 &&
	openssl x509 -req -in "$1/server.csr" -CA "$1/$2.pem" -CAkey "$1/$2.key" -CAcreateserial \
		-days 2 -extfile "$1/server.ext" -out "$1/server.pem" >/dev/null 2>&1
}

# Capture over HTTPS, each target with its own CA: the server's certificate
# is signed by a CA the test makes. The first target pins another CA and is
# refused with a message naming it and the certificate problem; the second
# pins the right one and gets the dump, reassembled on the host.
case_kdump_https() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img srv=$CASE_DIR/srv
	local url=https://$NET_SERVER:8443
	token=$(kdump_token)
	kdump_test_ca "$CASE_DIR" ca && kdump_test_ca "$CASE_DIR" wrong-ca && kdump_test_cert "$CASE_DIR" ca ||
		{ echo "making the test's certificates with openssl failed"; return 1; }
	kdump_build "$capture" --kdump-target "$url/wrong/;cafile=$CASE_DIR/wrong-ca.pem" \
		--kdump-target "$url/dumps/;cafile=$CASE_DIR/ca.pem" --kdump-options action=poweroff || return 1
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	mkdir -p "$srv"
	setsid ip netns exec "$NET_NS" python3 "$TOP/tests/boot/kdump-httpd.py" "$NET_SERVER" 8443 "$srv" \
		"$CASE_DIR/server.pem" "$CASE_DIR/server.key" >"$CASE_DIR/httpd.log" 2>&1 &
	NET_PIDS+=($!)
	net_wait_port 8443 >/dev/null || { echo "the test's HTTPS server did not start: $CASE_DIR/httpd.log"; return 1; }
	kdump_net_boot "$capture" "$token" &&
	assert_log "$log" "kdump: saving the dump to target 1 of 2: $url/wrong/" &&
	assert_log "$log" "target $url/wrong/: sending vmcore.flat failed: SSL certificate problem" &&
	assert_log "$log" "does not verify against the CA pinned for this target, /etc/lifeboat/kdump-target1.cafile" &&
	assert_log "$log" "kdump: saving the dump to target 2 of 2: $url/dumps/" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	[ -z "$(find "$srv" -path "$srv/wrong*")" ] || { echo "the refused target got files: $srv/wrong"; return 1; }
	kdump_check_flat "$(ls -d "$srv"/dumps/*/ 2>/dev/null | head -n 1)" "$token"
}

# Capture over FTP (pyftpdlib in the namespace), the password in the
# image's netrc: a first target logging in as a user the server does not
# know is refused; the second sends vmcore.flat.incomplete and renames it
# (RNFR/RNTO) once complete. The server saw no upload under a final name,
# and the password is in no log.
case_kdump_ftp() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img srv=$CASE_DIR/srv
	local password
	password=$(kdump_token)
	token=$(kdump_token)
	printf 'machine %s login kdump password %s\n' "$NET_SERVER" "$password" >"$CASE_DIR/netrc"
	kdump_build "$capture" --kdump-target "ftp://nobody@$NET_SERVER/nowhere/" \
		--kdump-target "ftp://$NET_SERVER/dumps/" \
		--kdump-options "netrc=$CASE_DIR/netrc,action=poweroff" || return 1
	"$BUILD/lifeboat" ls "$capture" | grep -q '^-rw------- .* etc/lifeboat/kdump.netrc$' ||
		{ echo "the image's netrc is not mode 0600"; return 1; }
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	mkdir -p "$srv"
	setsid ip netns exec "$NET_NS" /usr/bin/python3 "$TOP/tests/boot/kdump-ftpd.py" "$NET_SERVER" 21 "$srv" \
		kdump "$password" >"$CASE_DIR/ftpd.log" 2>&1 &
	NET_PIDS+=($!)
	net_wait_port 21 >/dev/null || { echo "the test's FTP server did not start: $CASE_DIR/ftpd.log"; return 1; }
	kdump_net_boot "$capture" "$token" &&
	assert_log "$log" "target ftp://nobody@$NET_SERVER/nowhere/: sending vmcore.flat failed: .*the server refused the login" &&
	assert_log "$log" "kdump: saving the dump to target 2 of 2: ftp://" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	! grep -q -- "$password" "$log" || { echo "the FTP password is in the console log"; return 1; }
	grep -q "FTP-RECEIVED .*/vmcore.flat.incomplete$" "$CASE_DIR/ftpd.log" ||
		{ echo "the server did not receive vmcore.flat.incomplete: $CASE_DIR/ftpd.log"; return 1; }
	! grep "FTP-RECEIVED\|FTP-INCOMPLETE" "$CASE_DIR/ftpd.log" | grep -qv '\.incomplete$' ||
		{ echo "a file was uploaded under its final name, not renamed when complete"; return 1; }
	kdump_check_flat "$(ls -d "$srv"/dumps/*/ 2>/dev/null | head -n 1)" "$token"
}

# Capture over SFTP to an sshd of the test's own (its config, host key and
# authorized key in CASE_DIR, run in the namespace; never the machine's
# sshd or keys), logging in as root with the image's private key, confined
# to sftp (ForceCommand). The first target lists another host key
# and is refused; the second gets the dump, sent as .incomplete and renamed
# (sftp-server's log).
case_kdump_sftp() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img srv=$CASE_DIR/srv d=$CASE_DIR/ssh
	token=$(kdump_token)
	mkdir -p "$d" "$srv" /run/sshd
	# libssh2 1.10 signs with ECDSA; its RSA would be SHA-1, which sshd refuses.
	ssh-keygen -q -t ecdsa -N '' -f "$d/host_key" && ssh-keygen -q -t ecdsa -N '' -f "$d/other_key" &&
	ssh-keygen -q -t ecdsa -m PEM -N '' -f "$d/client_key" ||
		{ echo "ssh-keygen failed"; return 1; }
	cp "$d/client_key.pub" "$d/authorized_keys"
	printf '%s %s\n' "$NET_SERVER" "$(cut -d' ' -f1,2 "$d/host_key.pub")" >"$d/known_hosts"
	printf '%s %s\n' "$NET_SERVER" "$(cut -d' ' -f1,2 "$d/other_key.pub")" >"$d/wrong_known_hosts"
	cat >"$d/sshd_config" <<-EOT
	ListenAddress $NET_SERVER:22
	HostKey $d/host_key
	PidFile $d/sshd.pid
	AuthorizedKeysFile $d/authorized_keys
	AuthenticationMethods publickey
	PermitRootLogin prohibit-password
	UsePAM no
	StrictModes no
	# sftp-server, not internal-sftp: its log of opens and renames goes to a
	# file. The subsystem must exist for the client to ask for it.
	Subsystem sftp /usr/lib/openssh/sftp-server
	ForceCommand /usr/lib/openssh/sftp-server -e -l INFO 2>>$d/sftp.log
	EOT
	kdump_build "$capture" \
		--kdump-target "sftp://root@$NET_SERVER$srv/wrong/;sshkey=$d/client_key;knownhosts=$d/wrong_known_hosts" \
		--kdump-target "sftp://root@$NET_SERVER$srv/dumps/;sshkey=$d/client_key;knownhosts=$d/known_hosts" \
		--kdump-options action=poweroff || return 1
	"$BUILD/lifeboat" ls "$capture" | grep -Eq '^-rw------- .* etc/lifeboat/kdump-target2.sshkey( =>.*)?$' ||
		{ echo "the image's private key is not mode 0600"; return 1; }
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	setsid ip netns exec "$NET_NS" /usr/sbin/sshd -D -e -f "$d/sshd_config" >"$CASE_DIR/sshd.log" 2>&1 &
	NET_PIDS+=($!)
	net_wait_port 22 >/dev/null || { echo "the test's sshd did not start: $CASE_DIR/sshd.log"; return 1; }
	kdump_net_boot "$capture" "$token" &&
	assert_log "$log" "target sftp://root@$NET_SERVER$srv/wrong/: sending vmcore.flat failed: .*host key is not the one in /etc/lifeboat/kdump-target1.knownhosts" &&
	assert_log "$log" "kdump: saving the dump to target 2 of 2: sftp://" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	[ ! -e "$srv/wrong" ] || { echo "the refused target got files: $srv/wrong"; return 1; }
	# sftp-server's log: the dump was written as .incomplete, then renamed.
	grep -q "rename old \"$srv/dumps/[^\"]*/vmcore.flat.incomplete\" new \"$srv/dumps/[^\"]*/vmcore.flat\"" \
		"$d/sftp.log" || { echo "sftp-server's log shows no rename of vmcore.flat.incomplete: $d/sftp.log"; return 1; }
	! grep -q "open \"$srv/dumps/[^\"]*/vmcore.flat\" flags WRITE" "$d/sftp.log" ||
		{ echo "vmcore.flat was opened for writing under its final name"; return 1; }
	kdump_check_flat "$(ls -d "$srv"/dumps/*/ 2>/dev/null | head -n 1)" "$token"
}

# kdump_nfs_run SERVER GUEST-IP= NOWHERE OPTIONS QEMU-ARGS...: capture to
# NFS: the first target, an NFS export on NOWHERE that nobody serves, fails
# with a message; the second, an NFSv4 export of the namespace's ganesha
# (cases-net.sh) on SERVER (IPv6 in brackets), gets the dump; makedumpfile
# reads it on the host. The dump is left in $CASE_DIR/vmcore.
kdump_nfs_run() {
	local server=$1 ip=$2 nowhere=$3 options=$4 log=$CASE_DIR/console.log capture=$CASE_DIR/capture.img rc
	local pat=${nowhere//[/\\[}    # the brackets of an IPv6 server, literal in grep's pattern
	pat=${pat//]/\\]}
	shift 4
	KDUMP_NFS_TOKEN=$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4,virtio_net,nfsv4 --kdump \
		--kdump-target "nfs4:$nowhere:/nowhere" \
		--kdump-target "nfs4:$server:/nfsroot" \
		--kdump-options "$options" -o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	net_nfs_start || return 1
	KDUMP_NETNS=$NET_NS kdump_boot "$capture" "$KDUMP_NFS_TOKEN" "$ip" "$@" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$NET_MAC
	rc=$?
	net_ns_down
	[ $rc -eq 0 ] || { echo "qemu failed ($rc)"; return 1; }
	assert_log "$log" "kdump: armed" &&
	assert_log "$log" "the NFS server of nfs4:$pat:/nowhere does not answer" &&
	assert_log "$log" "kdump: saving the dump to target 2 of 2: nfs4:" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	KDUMP_NFS_DIR=$(ls -d "$CASE_DIR"/nfsroot/*-*/ 2>/dev/null | head -n 1)
	[ -n "$KDUMP_NFS_DIR" ] && [ -s "$KDUMP_NFS_DIR/vmcore" ] || { echo "no vmcore on the NFS export"; return 1; }
	cp --sparse=always "$KDUMP_NFS_DIR/vmcore" "$CASE_DIR/vmcore"
	makedumpfile --dump-dmesg "$CASE_DIR/vmcore" "$CASE_DIR/makedumpfile-dmesg.txt" >"$CASE_DIR/makedumpfile.log" 2>&1 &&
	grep -q "KDUMP-MARKER-$KDUMP_NFS_TOKEN" "$CASE_DIR/makedumpfile-dmesg.txt" ||
		{ echo "makedumpfile --dump-dmesg of the NFS dump lacks the marker"; return 1; }
}

# The NFS capture is the LZO one (kdump_disk's is zlib) and runs on two CPUs
# (nr_cpus=2 through kdump load --append), so the pages are compressed by
# two threads; the ELF file of the same run checks every LZO page
# (kdump_check_elf: tests/boot/kdump-verify.py decodes LZO itself,
# tests/boot/lzo1x.py).
# The first kernel's network is set up by its root (no ip= on its command
# line, none in --append): kdump load gives the capture kernel the words
# for it, the static ip= of eth0's address and default route.
case_kdump_nfs() {
	KDUMP_FIRST_NET="$NET_GUEST/24 $NET_SERVER" kdump_nfs_run "$NET_SERVER" "nr_cpus=2" 198.51.100.77 \
		action=poweroff,compress=lzo,format=kdump+elf -smp 2 || return 1
	assert_log "$CASE_DIR/console.log" "kdump: the capture kernel's network, from eth0: ip=$NET_GUEST::$NET_SERVER:255.255.255.0::eth0:none" &&
	assert_log "$CASE_DIR/console.log" "kdump: pages compressed with lzo by 2 thread" || return 1
	[ -s "$KDUMP_NFS_DIR/vmcore.elf" ] || { echo "no vmcore.elf on the NFS export"; return 1; }
	cp --sparse=always "$KDUMP_NFS_DIR/vmcore.elf" "$CASE_DIR/vmcore.elf"
	kdump_check_elf "$KDUMP_NFS_TOKEN" || return 1
	grep -q "header status 0x2;.* 0x2: [1-9]" "$CASE_DIR/verify.log" ||
		{ echo "the NFS dump's pages are not LZO: $(tail -n 1 "$CASE_DIR/verify.log")"; return 1; }
}

# The dump server up 15 s after the capture first tries it (issue 39): the
# capture tries it again (kdump/capture.c, up to 30 s) and the dump is
# written there. ganesha is started by a watcher of the console; its PIDs
# come back through a file so that the case ends them.
case_kdump_nfs_late() {
	local capture=$CASE_DIR/capture.img log=$CASE_DIR/console.log token rc watcher i
	token=$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4,virtio_net,nfsv4 --kdump \
		--kdump-target "nfs4:$NET_SERVER:/nfsroot" --kdump-options action=poweroff \
		-o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	{
		for i in $(seq 1 1200); do
			grep -q "kdump: saving the dump to target 1 of 1" "$log" 2>/dev/null && break
			sleep 0.5
		done
		sleep 15
		net_nfs_start
		echo "${NET_PIDS[@]}" >"$CASE_DIR/late.pids"
	} &
	watcher=$!
	KDUMP_FIRST_NET="$NET_GUEST/24 $NET_SERVER" KDUMP_NETNS=$NET_NS QEMU_TIMEOUT=400 \
		kdump_boot "$capture" "$token" "" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$NET_MAC
	rc=$?
	wait "$watcher"
	# shellcheck disable=SC2207
	[ -s "$CASE_DIR/late.pids" ] && NET_PIDS+=($(cat "$CASE_DIR/late.pids"))
	net_ns_down
	[ $rc -eq 0 ] || { echo "qemu failed ($rc)"; return 1; }
	assert_log "$log" "kdump: dump saved as" || return 1
	ls "$CASE_DIR"/nfsroot/*-*/vmcore >/dev/null 2>&1 || { echo "no vmcore on the NFS export"; return 1; }
}

# The same over IPv6 only: ganesha on [2001:db8::1] alone, the capture
# kernel with a static ip=[ADDR] (its address used once DAD is done).
case_kdump_nfs6() {
	NET_NFS_BIND=$NET6_SERVER
	kdump_nfs_run "[$NET6_SERVER]" "ip=[$NET6_GUEST]:::64::eth0:none" "[2001:db8::77]" action=poweroff
}

# kdump_shell_image IMAGE ARGS...: a capture image whose only target, a
# 16 MB disk (LABEL=kdsmall), is too small, so the save fails and the
# default failure_action (a shell when the image has one) follows; with
# busybox, and ARGS (--rescue-auth ...).
kdump_shell_image() {
	local capture=$1
	shift
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4 --kdump --kdump-target LABEL=kdsmall \
		--rescue busybox "$@" -o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	mkdir -p "$CASE_DIR/empty"
	mkfs_image ext4 "$CASE_DIR/small.img" 16 "$CASE_DIR/empty" kdsmall 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b02
}

# A capture kernel built with --rescue-auth whose save fails: the shell of
# its failure action asks for the root password like the rescue shell (it
# used to start without it): a wrong one is refused, the right one opens the
# shell, whose exit reboots. The console is driven through pipes
# (cases-rescue.sh's helpers).
case_kdump_shell_auth() {
	local capture=$CASE_DIR/capture.img token
	token=$(kdump_token)
	kdump_shell_image "$capture" --rescue-auth --rescue-shadow "$(auth_shadow)" || return 1
	kdump_root_tree "$CASE_DIR/root" "$capture" "$token" "" &&
	mkfs_image ext4 "$CASE_DIR/root.img" 96 "$CASE_DIR/root" kdroot 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b01 ||
		return 1
	QEMU_TIMEOUT=300 rescue_start "$IMG_GENERIC" "root=LABEL=kdroot crashkernel=$KDUMP_CRASHKERNEL" \
		-drive "file=$CASE_DIR/root.img,format=raw,if=virtio" \
		-drive "file=$CASE_DIR/small.img,format=raw,if=virtio"
	{
		expect 'kdump: starting a shell' 240 &&
		expect 'Give root password' 30 &&
		type_line not-the-password &&
		expect 'Login incorrect' &&
		expect 'Give root password' &&
		type_line "$RESCUE_PASSWORD" &&
		expect "$SHELL_PROMPT" &&
		type_line 'echo KDUMP-SHELL-$((6*7)) $([ -r /proc/vmcore ] && echo capture)' &&
		expect 'KDUMP-SHELL-42 capture' &&
		type_line exit &&
		expect 'kdump: rebooting' 30
	}
	local rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" "kdump: starting a shell" &&
	assert_not_log "$CASE_DIR/console.log" "$RESCUE_PASSWORD"
}

# rd.shell=0 on the capture kernel's command line: the failed save opens no
# shell although the image has one (and no password), and the machine
# reboots.
case_kdump_shell_off() {
	local capture=$CASE_DIR/capture.img log=$CASE_DIR/console.log
	kdump_shell_image "$capture" || return 1
	kdump_boot "$capture" "$(kdump_token)" "rd.shell=0" -nic none \
		-drive "file=$CASE_DIR/small.img,format=raw,if=virtio"
	assert_log "$log" "kdump: armed" &&
	assert_log "$log" "kdump: no target could save the dump" &&
	assert_log "$log" "kdump: rd.shell=0: no shell" &&
	assert_log "$log" "kdump: rebooting" &&
	assert_not_log "$log" "kdump: starting a shell" &&
	assert_not_log "$log" "lifeboat:/# "
}
