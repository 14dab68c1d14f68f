#!/bin/bash
# fleet.sh: a fleet of diskless clients booting at the same moment from one
# server (issue 32, and issue 39's late server). A benchmark, not a test: it
# measures and prints, it asserts nothing.
#
# Usage (as root, from the top of the tree; a row of 16 clients took 3-4
# minutes on two cores, the whole default run about 10):
#     make all build/test-init
#     tests/bench/fleet.sh                  # N=16, NFS then the HTTP image
#     MODES=live N=8 tests/bench/fleet.sh
#     LATE=30 N=4 tests/bench/fleet.sh      # the servers 30 s late (issue 39)
# Environment:
#     N=16          clients in the fleet
#     MODES="nfs live"  which roots: nfs (root=dhcp ip=dhcp, the root-path
#                   from dnsmasq, NFSv3 from nfs-ganesha) and live
#                   (root=live:http://…/root.squashfs rd.live.sha256=… ip=dhcp,
#                   tests/boot/live-httpd.py serving the image)
#     ALONE=3       boots of one client alone before the fleet (the median
#                   is the reference); 0 leaves them out
#     LATE=T        instead of the above: the N clients start first, the
#                   servers (dnsmasq first, then ganesha or the HTTP server)
#                   T seconds after the fleet's first DHCPDISCOVER
#     MEM=768       each guest's memory, MB (the live image lives in it)
#     LIVE_PAD_MB=32  random (incompressible) MB added to the squashfs of
#                   the test root, so that the image is of some size
#     QEMU_NICE=10  the guests' niceness: the servers stand for a machine
#                   of their own, so they are not left to queue behind 16
#                   emulators on the host's two cores
#     LOCK=FILE     flock FILE around each row's qemu boots (e.g.
#                   /tmp/lifeboat-qemu.lock on a shared host)
#     QEMU_TIMEOUT=1500  seconds one guest may take (wall clock; 16 guests
#                   at once on two cores take minutes)
#     BUILD, WORK, KVER as for tests/boot/run.sh
# Everything runs in a private network namespace made with the boot tests'
# helpers (tests/boot/cases-net.sh, cases-live.sh): one bridge, one tap and
# one MAC (52:54:00:00:10:NN) per client, dnsmasq (--log-dhcp), ganesha with
# rpcbind, the HTTP server; the namespace and the processes are ended at the
# end (by PID).
#
# What is measured, and on which clock:
#   - time to root: from the kernel's "Run /init" to the root's init (the
#     uptime tests/boot/test-init prints), and the steps between them from
#     the init's timeline (the lease, the root mounted): the guest's own
#     clock. Every guest runs under qemu's -icount shift=0,sleep=on on one
#     CPU: the clock counts the instructions the guest ran (1 ns each) and
#     follows real time only while the guest idles, waiting for the network
#     above all. So 16 emulators sharing two host cores do not stretch a
#     guest's work, but they do stretch its waits: an answer that waits for
#     the guest's emulator to be scheduled counts as time.
#   - the servers' CPU: utime+stime of dnsmasq, ganesha.nfsd, rpcbind and the
#     HTTP server (/proc/PID/stat, threads included), after minus before
#     the row; seconds.
#   - bytes sent: the bridge's tx_bytes (what the servers sent into the
#     bridge), after minus before the row.
#   - DHCPDISCOVERs per client: every client request on the bridge,
#     captured by tests/bench/fleet-dhcp.py with the host's clock.
#   - LATE=T: from the servers' start (dnsmasq's) to each client's root
#     (the host's clock: its console polled every 0.2 s) and the
#     DISCOVERs each client sent before it; the guest clock's figures too.
# Output: the tables on stdout and in $WORK/bench-fleet/results.md; console
# logs ($WORK/bench-fleet/ROW-I.log.txt), the DHCP capture (ROW.dhcp),
# the servers' logs in $WORK/bench-fleet/MODE/.
set -u
# Before lib.sh, whose default (150 s) is for one guest, not 16 on two cores.
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1500}
source "$(dirname "$0")/../boot/lib.sh"
source "$(dirname "$0")/../boot/cases-net.sh"
source "$(dirname "$0")/../boot/cases-live.sh"
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
N=${N:-16}
MODES=${MODES:-nfs live}
ALONE=${ALONE:-3}
LATE=${LATE:-}
MEM=${MEM:-768}
LIVE_PAD_MB=${LIVE_PAD_MB:-32}
QEMU_NICE=${QEMU_NICE:-10}
LOCK=${LOCK:-}
FLEET_DIR=$WORK/bench-fleet
mkdir -p "$FLEET_DIR"
FLEET_DIR=$(cd "$FLEET_DIR" && pwd)
RESULTS=$FLEET_DIR/results.md
TICKS=$(getconf CLK_TCK)

fleet_mac() { printf '52:54:00:00:10:%02x' "$1"; }

# One tap per client on the namespace's bridge: fl0, fl1, ...
fleet_taps() {
	local i
	for i in $(seq 0 $(($1 - 1))); do
		ip -n "$NET_NS" tuntap add dev "fl$i" mode tap &&
		ip -n "$NET_NS" link set "fl$i" master br0 &&
		ip -n "$NET_NS" link set "fl$i" up || return 1
	done
}

# fleet_client I NAME APPEND: client I boots (its tap, its MAC) through
# net_boot, niced; the console in $CASE_DIR/NAME.log(.txt). Run it in a
# subshell: the niceness stays there.
fleet_client() {
	renice -n "$QEMU_NICE" -p "$BASHPID" >/dev/null
	NET_MAC=$(fleet_mac "$1") NET_NETDEV0="tap,id=n0,ifname=fl$1,script=no,downscript=no" \
		net_boot "$2" "$3" -icount shift=0,sleep=on -m "$MEM"
}

# The capture of the clients' DHCP requests into FILE, until fleet_sniff_stop.
fleet_sniff_start() {
	: >"$1"
	coproc SNIFF { exec ip netns exec "$NET_NS" python3 -u "$TOP/tests/bench/fleet-dhcp.py" br0 "$1"; }
	SNIFF_PID_SAVED=$SNIFF_PID
	# net_ns_down ends it too if the run stops half-way.
	NET_PIDS+=("$SNIFF_PID_SAVED")
	local ready
	read -r -t 10 ready <&"${SNIFF[0]}" && [ "$ready" = ready ] ||
		{ echo "fleet: the DHCP capture did not start"; return 1; }
}

fleet_sniff_stop() {
	local p
	local -a keep=()
	kill "$SNIFF_PID_SAVED" 2>/dev/null
	wait "$SNIFF_PID_SAVED" 2>/dev/null
	for p in "${NET_PIDS[@]}"; do
		[ "$p" = "$SNIFF_PID_SAVED" ] || keep+=("$p")
	done
	NET_PIDS=("${keep[@]}")
}

# The PID, among the case's processes and their children, whose command
# line has WORD (the servers' PIDs for their CPU time).
fleet_pid_of() {
	local p kids
	local -a todo=("${NET_PIDS[@]}")
	while [ ${#todo[@]} -gt 0 ]; do
		p=${todo[0]}
		todo=("${todo[@]:1}")
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$1" &&
			! tr '\0' ' ' <"/proc/$p/cmdline" | grep -q "^ip \|^sh \|^unshare " && { echo "$p"; return 0; }
		kids=$(cat /proc/"$p"/task/*/children 2>/dev/null)
		# shellcheck disable=SC2206
		todo+=($kids)
	done
}

# "NAME=TICKS ..." for the servers running now (utime+stime, threads included).
fleet_cpu() {
	local name pid f
	local -a a
	for name in dnsmasq ganesha.nfsd rpcbind live-httpd; do
		pid=$(fleet_pid_of "$name")
		[ -n "$pid" ] && read -r f <"/proc/$pid/stat" || continue
		read -r -a a <<<"${f##*) }"
		printf '%s=%s ' "${name%.nfsd}" $((a[11] + a[12]))
	done
	echo
}

fleet_tx() { ip netns exec "$NET_NS" cat /sys/class/net/br0/statistics/tx_bytes; }

# fleet_cpu_diff BEFORE AFTER: "dnsmasq 0.12 s, ganesha 1.30 s, ..."
fleet_cpu_diff() {
	awk -v b="$1" -v a="$2" -v t="$TICKS" 'BEGIN {
		nb = split(b, B, " "); for (i = 1; i <= nb; i++) { split(B[i], kv, "="); before[kv[1]] = kv[2] }
		na = split(a, A, " ")
		for (i = 1; i <= na; i++) {
			split(A[i], kv, "=")
			printf "%s%s %.2f s", (i > 1 ? ", " : ""), kv[1], (kv[2] - before[kv[1]]) / t
		}
	}'
}

# fleet_times LOG: "ROOT LEASE MOUNTED FETCH" in seconds of the guest's
# clock from "Run /init": the root's init, the lease, the root mounted and
# (live) the image's transfer; nothing when the root was not reached.
fleet_times() {
	awk '
	/^\[ *[0-9.]+\] Run \/init/ && run == "" { s = $0; sub(/^\[ */, "", s); sub(/\].*/, "", s); run = s }
	/^LIFEBOAT-TEST: uptime / && up == "" { up = $3 }
	/^LIFEBOAT-TEST: timeline [0-9.]+ lease / && lease == "" { lease = $3 }
	/^LIFEBOAT-TEST: timeline [0-9.]+ livefetch http/ && f0 == "" { f0 = $3 }
	/^LIFEBOAT-TEST: timeline [0-9.]+ livefetched / && f1 == "" { f1 = $3 }
	/^LIFEBOAT-TEST: timeline [0-9.]+ mounted / && mnt == "" { mnt = $3 }
	END {
		if (run == "" || up == "" || lease == "" || mnt == "") exit
		printf "%.3f %.3f %.3f %.3f\n", up - run, lease - run, mnt - run, (f1 != "" ? f1 - f0 : 0)
	}' "$1"
}

fleet_median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", v[int((NR + 1) / 2)]; else printf "-" }'; }
fleet_max() { sort -n | awk 'END { if (NR) printf "%.2f", $1; else printf "-" }'; }

# fleet_discovers FILE [BEFORE-EPOCH]: "MIN–MAX (TOTAL)" DISCOVERs per
# client MAC (of N clients; a client that sent none counts 0), those
# before BEFORE-EPOCH only when given.
fleet_discovers() {
	awk -v n="$N" -v before="${2:-}" '
	$3 == "DISCOVER" && (before == "" || $1 < before) { c[$2]++; total++ }
	END {
		min = -1; max = 0; seen = 0
		for (m in c) { seen++; if (min < 0 || c[m] < min) min = c[m]; if (c[m] > max) max = c[m] }
		if (seen < n) min = 0
		printf "%d–%d (%d in all)", min, max, total
	}' "$1"
}

# A row's DISCOVERs: per client of the fleet, or per boot of the one alone.
fleet_row_discovers() {
	if [ "$2" = 1 ]; then
		awk -v b="$ALONE" '$3 == "DISCOVER" { n++ } END { printf "%.1f per boot", n / b }' "$1"
	else
		fleet_discovers "$1"
	fi
}

# The gaps between one client's DISCOVERs, for the backoff: "1.0 2.1 ..."
fleet_gaps() {
	awk -v mac="$2" '$2 == mac && $3 == "DISCOVER" { if (prev != "") printf "%.1f ", $1 - prev; prev = $1 }' "$1"
}

fleet_lock() { [ -z "$LOCK" ] || { exec 8>"$LOCK" && flock 8; }; }
fleet_unlock() { [ -z "$LOCK" ] || { flock -u 8 && exec 8>&-; }; }

# fleet_boot ROW COUNT APPEND: COUNT clients at once (clients 0..COUNT-1),
# their times in ROW.times ("I ROOT LEASE MOUNTED FETCH", or "I fail").
fleet_boot() {
	local row=$1 count=$2 append=$3 i t
	local -a pids=()
	for i in $(seq 0 $((count - 1))); do
		(fleet_client "$i" "$row-$i" "$append") &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in $(seq 0 $((count - 1))); do
		t=$(fleet_times "$CASE_DIR/$row-$i.log.txt")
		echo "$i ${t:-fail}"
	done >"$CASE_DIR/$row.times"
}

# The figures of a row of times: median and slowest of the root, the lease
# and the mount; the slowest client's own steps.
fleet_row_figures() {
	local f=$1 col
	for col in 2 3 4 5; do
		printf '%s %s ' "$(awk -v c=$col '$2 != "fail" { print $c }' "$f" | fleet_median)" \
			"$(awk -v c=$col '$2 != "fail" { print $c }' "$f" | fleet_max)"
	done
	echo
}

# The slowest client's "I: lease L, mounted M, root R" (seconds from Run /init).
fleet_slowest() {
	awk '$2 != "fail"' "$1" | sort -k2,2n | tail -n 1 |
		awk '{ printf "client %d: lease %.2f, root mounted %.2f, root %.2f", $1, $3, $4, $2 }'
}

fleet_failed() { awk '$2 == "fail" { printf "%s%d", (n++ ? " " : ""), $1 }' "$1"; }

# fleet_setup MODE: the image, the root for the servers and the namespace
# with its taps; FLEET_APPEND the clients' command line.
fleet_setup() {
	local url="http://$NET_SERVER:8080/root.squashfs"
	CASE_DIR=$FLEET_DIR/$1
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	if [ "$1" = nfs ]; then
		NET_IMG=$(net_image) || return 1
		FLEET_APPEND="printk.time=1 root=dhcp ip=dhcp rd.shell=0"
	else
		NET_IMG=$(live_image) || return 1
		mkdir -p "$CASE_DIR/srv"
		live_squashfs "$CASE_DIR/srv" || return 1
		fleet_pad "$CASE_DIR/srv" || return 1
		FLEET_APPEND="printk.time=1 root=live:$url rd.live.sha256=$LIVE_SUM ip=dhcp rd.shell=0"
	fi
	net_ns_up && fleet_taps "$N"
}

# LIVE_PAD_MB of random bytes appended to the image (mksquashfs appends to
# an image it is given again), and LIVE_SUM again.
fleet_pad() {
	[ "$LIVE_PAD_MB" -gt 0 ] || return 0
	mkdir -p "$1/pad" &&
	head -c "${LIVE_PAD_MB}M" /dev/urandom >"$1/pad/pad" &&
	mksquashfs "$1/pad" "$1/root.squashfs" -quiet >/dev/null &&
	rm -rf "$1/pad" || { echo "fleet: padding the image failed"; return 1; }
	LIVE_SUM=$(sha256sum "$1/root.squashfs" | cut -d' ' -f1)
}

# fleet_servers MODE: dnsmasq, then ganesha or the HTTP server.
fleet_servers() {
	if [ "$1" = nfs ]; then
		net_dhcp_start "$NET_SERVER:/nfsroot" && net_nfs_start
	else
		net_dhcp_start && live_httpd "$NET_SERVER"
	fi
}

# fleet_row MODE ROW COUNT: COUNT clients at once (COUNT=1: ALONE boots of
# one, one after the other), with the servers' CPU, bytes and DISCOVERs;
# one line of the table.
fleet_row() {
	local mode=$1 row=$2 count=$3 cpu0 cpu1 tx0 tx1 t0 t1 i fig
	fleet_sniff_start "$CASE_DIR/$row.dhcp" || return 1
	fleet_lock
	cpu0=$(fleet_cpu) tx0=$(fleet_tx) t0=$SECONDS
	if [ "$count" = 1 ]; then
		for i in $(seq 1 "$ALONE"); do
			fleet_boot "$row-$i" 1 "$FLEET_APPEND"
			sed "s/^0 /$i /" "$CASE_DIR/$row-$i.times"
		done >"$CASE_DIR/$row.times"
	else
		fleet_boot "$row" "$count" "$FLEET_APPEND"
	fi
	fleet_unlock
	cpu1=$(fleet_cpu) tx1=$(fleet_tx) t1=$SECONDS
	fleet_sniff_stop
	read -r -a fig <<<"$(fleet_row_figures "$CASE_DIR/$row.times")"
	ROOT_MED[$row]=${fig[0]} ROOT_MAX[$row]=${fig[1]}
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |\n' \
		"$mode" "$([ "$count" = 1 ] && echo "1 alone ($ALONE boots)" || echo "$count at once")" \
		"${fig[0]}" "${fig[1]}" "${fig[2]}" "${fig[3]}" "${fig[4]}" "${fig[5]}" \
		"$([ "$mode" = live ] && echo "${fig[6]} / ${fig[7]}" || echo "")" \
		"$(fleet_row_discovers "$CASE_DIR/$row.dhcp" "$count")" "$(fleet_cpu_diff "$cpu0" "$cpu1")" \
		"$(((tx1 - tx0) / 1024)) KiB" $((t1 - t0)) | tee -a "$RESULTS"
	echo "    $row: slowest $(fleet_slowest "$CASE_DIR/$row.times"); failed: $(fleet_failed "$CASE_DIR/$row.times")" |
		tee -a "$RESULTS.notes"
}

declare -A ROOT_MED ROOT_MAX

fleet_mode() {
	local mode=$1
	fleet_setup "$mode" || { net_ns_down; return 1; }
	fleet_servers "$mode" || { net_ns_down; return 1; }
	[ "$ALONE" -gt 0 ] && fleet_row "$mode" "$mode-alone" 1
	fleet_row "$mode" "$mode-fleet" "$N"
	[ "$ALONE" -gt 0 ] &&
		echo "    $mode: slowest of $N ÷ one alone (median of $ALONE): $(awk -v a="${ROOT_MED[$mode-alone]}" \
			-v b="${ROOT_MAX[$mode-fleet]}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a; else print "-" }')" |
		tee -a "$RESULTS.notes"
	net_ns_down
}

# The LATE=T run of one mode: the clients first, the servers T s after the
# first DISCOVER; the consoles polled for the root with the host's clock.
fleet_late() {
	local mode=$1 row=$1-late$LATE i first srv left cpu0 tx0
	local -a pids=() done_at=()
	fleet_setup "$mode" || { net_ns_down; return 1; }
	fleet_sniff_start "$CASE_DIR/$row.dhcp" || { net_ns_down; return 1; }
	tx0=$(fleet_tx)
	fleet_lock
	for i in $(seq 0 $((N - 1))); do
		(fleet_client "$i" "$row-$i" "$FLEET_APPEND") &
		pids+=($!)
	done
	for i in $(seq 1 600); do
		[ -s "$CASE_DIR/$row.dhcp" ] && break
		sleep 0.5
	done
	first=$(awk 'NR == 1 { print $1 }' "$CASE_DIR/$row.dhcp")
	# The first DISCOVER's host time plus T.
	sleep "$(awk -v f="${first:-0}" -v t="$LATE" -v now="$EPOCHREALTIME" 'BEGIN { d = f + t - now; print (d > 0 ? d : 0) }')"
	srv=$EPOCHREALTIME
	cpu0=$(fleet_cpu)
	fleet_servers "$mode" || echo "fleet: a server did not start"
	left=$N
	while [ "$left" -gt 0 ]; do
		left=0
		for i in $(seq 0 $((N - 1))); do
			[ -n "${done_at[$i]:-}" ] && continue
			if grep -q 'LIFEBOAT-TEST: root reached' "$CASE_DIR/$row-$i.log" 2>/dev/null; then
				done_at[i]=$(awk -v a="$EPOCHREALTIME" -v b="$srv" 'BEGIN { printf "%.1f", a - b }')
			elif kill -0 "${pids[$i]}" 2>/dev/null; then
				left=$((left + 1))
			else
				done_at[i]=fail
			fi
		done
		sleep 0.2
	done
	wait "${pids[@]}"
	fleet_unlock
	fleet_sniff_stop
	for i in $(seq 0 $((N - 1))); do
		echo "$i $(fleet_times "$CASE_DIR/$row-$i.log.txt") host ${done_at[$i]}"
	done >"$CASE_DIR/$row.times"
	printf '| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n' "$mode" "$N" "$LATE" \
		"$(awk '$NF != "fail" { print $NF }' "$CASE_DIR/$row.times" | fleet_median)" \
		"$(awk '$NF != "fail" { print $NF }' "$CASE_DIR/$row.times" | fleet_max)" \
		"$(fleet_discovers "$CASE_DIR/$row.dhcp" "$srv")" \
		"$(awk -v s="$srv" '$1 >= s' "$CASE_DIR/$row.dhcp" | fleet_discovers /dev/stdin)" \
		"$(fleet_cpu_diff "$cpu0" "$(fleet_cpu)")" "$((($(fleet_tx) - tx0) / 1024)) KiB" | tee -a "$RESULTS"
	{
		echo "    $mode late: failed: $(awk '$NF == "fail" { printf "%s ", $1 }' "$CASE_DIR/$row.times")"
		echo "    $mode late: gaps between client 0's DISCOVERs (s): $(fleet_gaps "$CASE_DIR/$row.dhcp" "$(fleet_mac 0)")"
		echo "    $mode late: servers up $(awk -v s="$srv" -v f="${first:-0}" 'BEGIN { printf "%.1f", s - f }') s after the first DISCOVER"
	} | tee -a "$RESULTS.notes"
	net_ns_down
}

[ -x "$TEST_INIT" ] || { echo "fleet: no $TEST_INIT: make BUILD=$BUILD $TEST_INIT"; exit 1; }
: >"$RESULTS.notes"
{
	echo "fleet.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), lifeboat at $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null), N=$N${LATE:+ LATE=$LATE}, MEM=$MEM MB, LIVE_PAD_MB=$LIVE_PAD_MB"
	echo
} | tee "$RESULTS"
if [ -n "$LATE" ]; then
	{
		echo "| root | clients | servers late by (s, after the first DISCOVER) | servers' start → root, median (s, host clock) | → last root | DISCOVERs per client while down | DISCOVERs per client after | servers' CPU | bytes sent |"
		echo "|---|---|---|---|---|---|---|---|---|"
	} | tee -a "$RESULTS"
	for mode in $MODES; do fleet_late "$mode"; done
else
	{
		echo "Seconds of the guest's clock (-icount) from \"Run /init\"; median and slowest of the clients."
		echo
		echo "| root | clients | root's init, median | slowest | lease, median | slowest | root mounted, median | slowest | image transfer, median / slowest | DISCOVERs per client (min–max) | servers' CPU | bytes sent | wall s |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	} | tee -a "$RESULTS"
	for mode in $MODES; do fleet_mode "$mode"; done
fi
cat "$RESULTS.notes" >>"$RESULTS"
