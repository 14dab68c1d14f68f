#!/bin/bash
# tang.sh: what dead Tang servers cost the boot of a LUKS root bound with
# clevis (issue 37). A benchmark, not a test: it measures and prints, it
# asserts nothing.
#
# Usage (as root, from the top of the tree):
#     make BUILD=B all B/test-init B/hib-init B/hostgen-init
#     BUILD=B tests/bench/tang.sh
# and, side by side with another build of lifeboat (the commit before a
# change, built in a worktree of its own with `make` there):
#     BUILD=B REF_BUILD=/path/to/worktree/build tests/bench/tang.sh
# Environment:
#     BUILD, WORK  as for tests/boot/run.sh; the bench's files (disks,
#                  images, console logs, times) go to $WORK/bench-tang
#     REF_BUILD=DIR  another build/ directory (DIR/lifeboat and the init
#                  and lifeboat-clevis beside it): each row boots its image
#                  too, the "before" columns; unset, only this tree's
#     M=3          boots of each row and build; medians are reported
#     ROWS="..."   a subset of the rows below, by id ("alone" is always
#                  measured: the costs are counted from it)
#     QEMU_LOCK=FILE  each row's boots (and the making of the stacked
#                  disks, a qemu guest) hold flock on FILE, so that other
#                  qemu runs sharing the machine wait for them
#     KVER=...     kernel version (default: the newest in /boot)
# Rows (the bindings, made with the real `clevis luks bind` on the host
# from the server's advertisement; the dead servers come first in the sss
# list, as a binding made before they died would have them):
#   alone        tang, the live server alone
#   silent1      sss t=1 of {a silent server, the live one}
#   silent2      sss t=1 of {two silent servers, the live one}
#   noanswer     sss t=1 of {an address nobody answers, the live one}
# "Silent" is tang_silent_start's server (tests/boot/cases-tang-many.sh):
# it accepts the connection and never answers, the worst kind, which only
# a deadline ends. The address nobody answers is on the guest's subnet, so
# the guest's ARP requests go unanswered.
#
# What is measured, on the guest's clock: every guest runs under qemu
# -icount shift=0,sleep=on (1 instruction = 1 ns of guest time while it
# runs; real time while it idles, as it does waiting on the network), so
# the host's load drops out. Per boot, from the kernel's timestamps
# (printk.time=1): the DHCP lease to "lifeboat: opened /dev/vd..." (cases-
# tang-many.sh's tang_open_secs, 0.1 s steps), and "Run /init" to the
# root's init (the uptime the test init prints, as tests/bench/run.sh).
# The cost of a row is its median less the median of "alone", each build
# against its own "alone".
#
# Everything network runs in a private namespace (tests/boot/cases-net.sh:
# 198.51.100.0/24, dnsmasq, tangd behind socat); the stacked LUKS disk is
# the boot tests' (tests/boot/cases-stacks.sh). Output: the table on
# stdout and in $WORK/bench-tang/results.md.
set -u
source "$(dirname "$0")/../boot/lib.sh"
source "$(dirname "$0")/../boot/cases.sh"
source "$(dirname "$0")/../boot/cases-net.sh"
source "$(dirname "$0")/../boot/cases-resume.sh"
source "$(dirname "$0")/../boot/cases-stacks.sh"
source "$(dirname "$0")/../boot/cases-tang.sh"
source "$(dirname "$0")/../boot/cases-tang-many.sh"

KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
IMG_GENERIC=$WORK/generic.img
M=${M:-3}
ROWS=${ROWS:-alone silent1 silent2 noanswer}
case " $ROWS " in *" alone "*) ;; *) ROWS="alone $ROWS" ;; esac
CASE_DIR=$WORK/bench-tang
# The second silent server, and the address nobody has on the bridge.
TANG_SILENT2_PORT=7503
TANG_NOBODY=198.51.100.77
APPEND="root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=60 printk.time=1"
# The old code waits 10 s on each silent server in turn, under -icount.
QEMU_TIMEOUT=${QEMU_TIMEOUT:-240}

declare -A LABEL=([alone]="tang: the live server alone"
	[silent1]="sss t=1: 1 silent server, the live one"
	[silent2]="sss t=1: 2 silent servers, the live one"
	[noanswer]="sss t=1: an address nobody answers, the live one")

# row_binding ROW: the pin and its configuration ("ADV" for the
# advertisement, as tang_adv_bind takes it).
row_binding() {
	local live="{\"url\":\"$TANG_URL\",\"adv\":\"ADV\"}"
	local silent="{\"url\":\"http://$NET_SERVER:$TANG_SILENT_PORT\",\"adv\":\"ADV\"}"
	local silent2="{\"url\":\"http://$NET_SERVER:$TANG_SILENT2_PORT\",\"adv\":\"ADV\"}"
	local nobody="{\"url\":\"http://$TANG_NOBODY:$TANG_PORT\",\"adv\":\"ADV\"}"
	case $1 in
	alone)    echo "tang $live" ;;
	silent1)  echo "sss {\"t\":1,\"pins\":{\"tang\":[$silent,$live]}}" ;;
	silent2)  echo "sss {\"t\":1,\"pins\":{\"tang\":[$silent,$silent2,$live]}}" ;;
	noanswer) echo "sss {\"t\":1,\"pins\":{\"tang\":[$nobody,$live]}}" ;;
	*) echo "bench: no row $1" >&2; return 1 ;;
	esac
}

# locked CMD...: CMD holding QEMU_LOCK when it is set. In this shell, not
# a subshell (stacks_disks sets STACKS); fd 6 is open only meanwhile, so
# the servers, started outside, do not hold the lock, and flock -u frees it
# even from a qemu that outlived its timeout.
locked() {
	local rc
	[ -n "${QEMU_LOCK:-}" ] || { "$@"; return; }
	exec 6>"$QEMU_LOCK"
	flock 6
	"$@"
	rc=$?
	flock -u 6
	exec 6>&-
	return $rc
}

check_setup() {
	[ -r "$KERNEL" ] || { echo "no kernel at $KERNEL"; return 1; }
	local f
	for f in lifeboat lifeboat-init lifeboat-clevis test-init hib-init hostgen-init; do
		[ -x "$BUILD/$f" ] || { echo "no $BUILD/$f: make BUILD=$BUILD all $BUILD/test-init $BUILD/hib-init $BUILD/hostgen-init"; return 1; }
	done
	[ -z "${REF_BUILD:-}" ] || [ -x "$REF_BUILD/lifeboat" ] ||
		{ echo "REF_BUILD=$REF_BUILD: no $REF_BUILD/lifeboat (make there first)"; return 1; }
}

# The images: this tree's --clevis image (tang_image), REF_BUILD's made
# the same way; the generic image the stacked disks' builder boots.
make_images() {
	tang_image || return 1
	IMG_AFTER=$IMG_TANG
	if [ -n "${REF_BUILD:-}" ]; then
		mkdir -p "$CASE_DIR/ref"
		(BUILD=$REF_BUILD WORK=$CASE_DIR/ref && tang_image) || return 1
		IMG_BEFORE=$CASE_DIR/ref/tang.img
	fi
	[ "$IMG_GENERIC" -nt "$BUILD/lifeboat-init" ] ||
		"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$IMG_GENERIC" \
			>"$CASE_DIR/generic-image.log" 2>&1 ||
		{ echo "building the generic image failed: $CASE_DIR/generic-image.log"; return 1; }
}

# The namespace with dnsmasq, the live server and the two silent ones.
servers_up() {
	tang_keys && net_ns_up && net_dhcp_start && tang_start && tang_silent_start &&
	TANG_SILENT_PORT=$TANG_SILENT2_PORT tang_silent_start
}

# bind_row ROW: the LUKS disk bound as ROW says, $CASE_DIR/ROW.img.
bind_row() {
	local disk binding
	binding=$(row_binding "$1") && disk=$(stack_copy luks) &&
	mv "$disk" "$CASE_DIR/$1.img" &&
	tang_adv_bind "$CASE_DIR/$1.img" "${binding%% *}" "${binding#* }" ||
		{ echo "bench: binding $1 failed (bind.log: $(tail -n 3 "$CASE_DIR/bind.log" 2>/dev/null))"; return 1; }
}

# run_to_root LOG: seconds from the kernel's "Run /init" to the uptime the
# root's test init prints, or "none".
run_to_root() {
	awk '/\] Run \/init as init process/ && !r { match($0, /^\[ *[0-9]+\.[0-9]+\]/)
		r = substr($0, 2, RLENGTH - 2) + 0 }
	     /^LIFEBOAT-TEST: uptime / && !u { u = $3 }
	     END { if (r && u) printf "%.2f\n", u - r; else print "none" }' "$1"
}

# boot_row ROW WHICH IMG I: boot I of the ROW disk with the image of
# WHICH (after, before); "LEASE-OPENED RUN-ROOT" appended to its times.
boot_row() {
	local row=$1 which=$2 name=$1-$2-$4 open root
	# shellcheck disable=SC2046
	NET_IMG=$3 net_boot "$name" "$APPEND" $(virtio_disk "$CASE_DIR/$row.img") -snapshot \
		-icount shift=0,sleep=on
	open=$(tang_open_secs "$CASE_DIR/$name.log.txt")
	root=$(run_to_root "$CASE_DIR/$name.log.txt")
	grep -q "with its clevis .* binding" "$CASE_DIR/$name.log.txt" ||
		{ echo "bench: $name: not opened by its binding (log: $CASE_DIR/$name.log.txt)" >&2; open=none; root=none; }
	echo "$open $root" >>"$CASE_DIR/$row-$which.times"
	echo "bench: $name: lease -> opened $open s, Run /init -> root $root s"
}

# One row: M rounds, each booting this tree's image then REF_BUILD's.
bench_row() {
	local row=$1 i
	for ((i = 1; i <= M; i++)); do
		boot_row "$row" after "$IMG_AFTER" "$i"
		[ -z "${REF_BUILD:-}" ] || boot_row "$row" before "$IMG_BEFORE" "$i"
	done
}

median() {
	grep -v none | sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2]
		else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# column ROW WHICH FIELD: the median of one figure of ROW's boots.
column() {
	[ -s "$CASE_DIR/$1-$2.times" ] || { echo "-"; return; }
	cut -d' ' -f"$3" "$CASE_DIR/$1-$2.times" | median
}

ok_boots() {
	[ -s "$CASE_DIR/$1-$2.times" ] || { echo 0; return; }
	grep -vc none "$CASE_DIR/$1-$2.times"
}

minus() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%+.2f\n", a - b }'
}

# cells ROW WHICH: lease -> opened, Run /init -> root, its cost, boots.
cells() {
	local open root
	open=$(column "$1" "$2" 1)
	root=$(column "$1" "$2" 2)
	printf '%s | %s | %s | %s/%s' "$open" "$root" "$(minus "$root" "$(column alone "$2" 2)")" \
		"$(ok_boots "$1" "$2")" "$M"
}

table() {
	local row head="| binding | after: lease → opened | after: Run /init → root | after: cost | boots"
	local rule="|---|---|---|---|---"
	[ -z "${REF_BUILD:-}" ] || {
		head+=" | before: lease → opened | before: Run /init → root | before: cost | boots"
		rule+="|---|---|---|---"
	}
	echo "$head |"
	echo "$rule|"
	for row in $ROWS; do
		printf '| %s | %s' "${LABEL[$row]}" "$(cells "$row" after)"
		[ -z "${REF_BUILD:-}" ] || printf ' | %s' "$(cells "$row" before)"
		echo " |"
	done
}

# raw: every boot's two figures, row by row.
raw() {
	local row which
	for row in $ROWS; do
		for which in after before; do
			[ -s "$CASE_DIR/$row-$which.times" ] || continue
			echo "- $row, $which: $(sed 's/ / \/ /' "$CASE_DIR/$row-$which.times" | paste -sd';' | sed 's/;/; /g')"
		done
	done
}

main() {
	local row start=$SECONDS
	check_setup || exit 1
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	CASE_DIR=$(cd "$CASE_DIR" && pwd)
	make_images || exit 1
	locked stacks_disks || exit 1
	servers_up || { echo "bench: starting the servers failed (logs in $CASE_DIR)"; exit 1; }
	for row in $ROWS; do
		bind_row "$row" || exit 1
	done
	echo "bench: kernel $KVER; after: $BUILD; before: ${REF_BUILD:-none}; M=$M"
	for row in $ROWS; do
		locked bench_row "$row"
	done
	net_ns_down
	{
		echo "Kernel $KVER; qemu TCG -icount shift=0,sleep=on, 1 CPU, 512 MB, virtio-net," \
			"virtio-blk LUKS2 root; guest clock (kernel timestamps), median of $M boots" \
			"(boots that opened the container by its binding / boots); $(date -u +%Y-%m-%d)."
		echo "Seconds; cost = the row's Run /init → root less that of \"alone\", same build."
		echo "after: $BUILD; before: ${REF_BUILD:-none}."
		echo
		table
		echo
		echo "Each boot (lease → opened, Run /init → root):"
		raw
	} >"$CASE_DIR/results.md"
	echo
	cat "$CASE_DIR/results.md"
	echo
	echo "bench: done in $((SECONDS - start)) s; table in $CASE_DIR/results.md, console logs beside it"
}

main
