# cases-live.sh: a root image fetched over HTTP (root=live:URL, sourced by
# run.sh). In the network namespace of cases-net.sh (net_* helpers):
# dnsmasq for DHCP and tests/boot/live-httpd.py serving a squashfs of the
# test root; the case ends what it started by PID and deletes the namespace.

# The image with --live (libcurl, the CA bundle, loop, squashfs, overlay),
# made once per run; live_image CA.pem: one whose https:// servers must be
# signed by that CA, made for the case.
# The HTTPS server's host name, which the case's dnsmasq answers.
LIVE_NAME=live.lifeboat.test

live_image() {
	local img
	if [ -n "${1:-}" ]; then
		img=$CASE_DIR/live-ca.img
		"$BUILD/lifeboat" build --config /dev/null --generic --live-ca "$1" \
			--kver "$KVER" -o "$img" >"$CASE_DIR/live-image.log" 2>&1 ||
			{ echo "building the --live-ca image failed: $CASE_DIR/live-image.log"; return 1; }
		echo "$img"
		return 0
	fi
	cached_image live --generic --live
}

# live_squashfs DIR [erofs]: DIR/root.squashfs (or DIR/root.erofs), the
# test root, and its sha256sum in LIVE_SUM; padded with a file of random
# bytes so that a transfer cut half-way has something left to resume.
live_squashfs() {
	make_root_tree "$1/tree" &&
	head -c 3000000 /dev/urandom >"$1/tree/etc/ballast" || return 1
	if [ "${2:-}" = erofs ]; then
		mkfs.erofs -zlz4 "$1/root.erofs" "$1/tree" >/dev/null 2>&1 ||
			{ echo "mkfs.erofs failed (install erofs-utils: tests/install-deps.sh)"; return 1; }
		LIVE_SUM=$(sha256sum "$1/root.erofs" | cut -d' ' -f1)
		return 0
	fi
	mksquashfs "$1/tree" "$1/root.squashfs" -noappend -quiet -comp gzip >/dev/null ||
		{ echo "mksquashfs failed (install squashfs-tools: tests/install-deps.sh)"; return 1; }
	LIVE_SUM=$(sha256sum "$1/root.squashfs" | cut -d' ' -f1)
}

# live_httpd ADDR [DIE_AFTER [CERT KEY]]: the server on port LIVE_PORT
# (8080 by default; its log httpd.log, another port's httpd-PORT.log) of ADDR;
# with DIE_AFTER (not 0) it dies after that many bytes of the image, and is
# started again 3 s later (the log says both); with CERT and KEY, HTTPS.
live_httpd() {
	local port=${LIVE_PORT:-8080} log=$CASE_DIR/httpd.log
	local srv="python3 $TOP/tests/boot/live-httpd.py $1 $port $CASE_DIR/srv"
	[ "$port" = 8080 ] || log=$CASE_DIR/httpd-$port.log
	# The server started again serves the whole image (DIE_AFTER 0).
	if [ "${2:-0}" != 0 ]; then
		srv="$srv $2 ${3:-} ${4:-}; sleep 3; echo restarted >&2; exec $srv 0 ${3:-} ${4:-}"
	else
		srv="exec $srv 0 ${3:-} ${4:-}"
	fi
	setsid ip netns exec "$NET_NS" sh -c "$srv" >"$log" 2>&1 &
	NET_PIDS+=($!)
	NET_NFS_BIND=$1 net_wait_port "$port" >/dev/null ||
		{ echo "the test's HTTP server did not start: $log"; return 1; }
}

# live_assert_root LOG [FROM [TYPE]]: the root reached as an overlay over
# the image (a squashfs unless TYPE), with the timeline's steps, checked
# against FROM's hash (rd.live.sha256= by default).
live_assert_root() {
	assert_root_reached "$1" &&
	assert_log "$1" "LIFEBOAT-TEST: rootmount overlay overlay" &&
	assert_log "$1" "timeline [0-9.]* livefetch http" &&
	assert_log "$1" "timeline [0-9.]* livefetched [0-9]* bytes" &&
	assert_log "$1" "timeline [0-9.]* livemount /dev/loop[0-9]* ${3:-squashfs}" &&
	assert_log "$1" "matches its SHA-256 $LIVE_SUM (${2:-rd.live.sha256=})"
}

# IPv4 with DHCP and the hash on the command line: the root is reached
# (the writable layer as big as rd.live.overlay.size= says);
# the same image with a wrong hash is refused, the rescue names the URL,
# both hashes; plain http with no hash is refused before any fetch.
case_live_http() {
	local rc=0 start url="http://$NET_SERVER:8080/root.squashfs" wrong
	wrong=$(printf '0%.0s' $(seq 64))
	NET_IMG=$(live_image) || return 1
	mkdir -p "$CASE_DIR/srv"
	live_squashfs "$CASE_DIR/srv" || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	net_dhcp_start && live_httpd "$NET_SERVER" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot live "root=live:$url rd.live.sha256=$LIVE_SUM ip=dhcp rd.live.overlay.size=64m lifeboat.test.show=/proc/mounts"
		live_assert_root "$NET_LOG" &&
		assert_log "$NET_LOG" "show tmpfs /run/initramfs/live/rw tmpfs rw,.*size=65536k" &&
		assert_log "$NET_LOG" "show /dev/loop0 /run/initramfs/live/image squashfs ro," || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot tampered "root=live:$url rd.live.sha256=$wrong ip=dhcp rd.shell=0"
		net_assert_failed "$NET_LOG" "live root: the live image $url does not match its SHA-256 and is refused: expected $wrong (rd.live.sha256=), got $LIVE_SUM" "$start" || rc=1
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot unverified "root=live:$url ip=dhcp rd.shell=0"
		net_assert_failed "$NET_LOG" "live root: the live image $url comes over plain http and rd.live.sha256= does not say" "$start" &&
		assert_not_log "$NET_LOG" "timeline [0-9.]* livefetch" || rc=1
	fi
	net_ns_down
	return $rc
}

# The server dies 1 MB into the image and comes back 3 s later: the
# transfer is taken up where it stopped (a Range request) and the root is
# reached. Over IPv6 (a static address, the server in brackets).
case_live_resume_ipv6() {
	local rc=0 url="http://[$NET6_SERVER]:8080/root.squashfs"
	NET_IMG=$(live_image) || return 1
	mkdir -p "$CASE_DIR/srv"
	live_squashfs "$CASE_DIR/srv" || return 1
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	live_httpd "$NET6_SERVER" 1000000 || rc=1
	if [ $rc -eq 0 ]; then
		net_boot resume6 "root=live:$url rd.live.sha256=$LIVE_SUM ip=[$NET6_GUEST]::[$NET6_SERVER]:64::eth0:none"
		live_assert_root "$NET_LOG" &&
		assert_log "$CASE_DIR/httpd.log" "dying after 1000000 bytes" &&
		assert_log "$CASE_DIR/httpd.log" "range=bytes=1000000-" &&
		assert_log "$NET_LOG" "root.squashfs: transfer closed with [0-9]* bytes remaining to read; trying again from byte 1000000" || rc=1
	fi
	net_ns_down
	return $rc
}

# HTTPS to a server named by a host name (dnsmasq answers it), an erofs
# image: the server's certificate is signed by a CA the case makes, which
# the image carries (--live-ca); no hash on the command line, the checksum
# file beside the image (root.erofs.sha256, sha256sum's output) says it.
# A second server, on 8443, has a certificate of another CA: refused.
case_live_https() {
	local rc=0 url="https://$LIVE_NAME:8080/root.erofs" start
	mkdir -p "$CASE_DIR/other"
	kdump_test_ca "$CASE_DIR" ca && kdump_test_cert "$CASE_DIR" ca "$LIVE_NAME" &&
	kdump_test_ca "$CASE_DIR/other" ca && kdump_test_cert "$CASE_DIR/other" ca ||
		{ echo "making the test's certificates with openssl failed"; return 1; }
	NET_IMG=$(live_image "$CASE_DIR/ca.pem") || return 1
	mkdir -p "$CASE_DIR/srv"
	live_squashfs "$CASE_DIR/srv" erofs || return 1
	(cd "$CASE_DIR/srv" && sha256sum root.erofs >root.erofs.sha256)
	net_ns_up || { net_ns_down; echo "creating the namespace failed"; return 1; }
	NET_DNS_RECORD=$LIVE_NAME,$NET_SERVER net_dhcp_start && live_httpd "$NET_SERVER" 0 "$CASE_DIR/server.pem" "$CASE_DIR/server.key" &&
	LIVE_PORT=8443 live_httpd "$NET_SERVER" 0 "$CASE_DIR/other/server.pem" "$CASE_DIR/other/server.key" || rc=1
	if [ $rc -eq 0 ]; then
		net_boot https "root=live:$url ip=dhcp"
		live_assert_root "$NET_LOG" "$url.sha256" erofs &&
		assert_log "$CASE_DIR/httpd.log" "GET /root.erofs.sha256" &&
		grep -q "query\[A\] $LIVE_NAME from $NET_GUEST" "$CASE_DIR/dnsmasq.log" ||
			{ echo "the erofs image by name: see $NET_LOG, httpd.log, dnsmasq.log"; rc=1; }
	fi
	if [ $rc -eq 0 ]; then
		start=$(date +%s)
		net_boot other-ca "root=live:https://$NET_SERVER:8443/root.erofs ip=dhcp rd.shell=0"
		net_assert_failed "$NET_LOG" "live root: the live image's checksum file https://$NET_SERVER:8443/root.erofs.sha256: the server's certificate does not verify against the image's CA bundle" "$start" &&
		assert_not_log "$CASE_DIR/httpd-8443.log" "GET" || rc=1
	fi
	net_ns_down
	return $rc
}
