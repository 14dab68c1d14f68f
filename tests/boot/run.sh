#!/bin/bash
# run.sh: the qemu boot tests. Prepares the images and disks once, then boots
# every case in cases.sh, two at a time (the machines have 2 cores), and
# beside them, one at a time, the cases that mostly wait (WAITING_CASES).
# Usage: tests/boot/run.sh [CASE...]     prints "N passed, N failed" last
# Internal: tests/boot/run.sh --case NAME
set -u
source "$(dirname "$0")/lib.sh"
# The cases: every case_NAME function of cases.sh and of each cases-TOPIC.sh
# beside it; a new file is found by itself (tests/README.md).
source "$(dirname "$0")/cases.sh"
for f in "$(dirname "$0")"/cases-*.sh; do
	source "$f"
done

JOBS=${JOBS:-2}
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
IMG_GENERIC=$WORK/generic.img
IMG_HOST=$WORK/host-only.img
IMG_CMDLINE=$WORK/cmdline.img
DISKS=$WORK/disks
export KVER KERNEL IMG_GENERIC IMG_HOST IMG_CMDLINE DISKS WORK

prepare() {
	local tree=$WORK/tree
	mkdir -p "$DISKS"
	[ -r "$KERNEL" ] || { echo "no kernel at $KERNEL: install linux-image-amd64"; return 1; }
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" -o "$IMG_GENERIC" || return 1
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" -o "$IMG_HOST" || return 1
	"$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" \
		--cmdline "root=LABEL=lbext4 rd.timeout=60 virtio_blk.num_request_queues=1" \
		-o "$IMG_CMDLINE" || return 1
	make_root_tree "$tree"
	mkfs_image ext4 "$DISKS/ext4.img" 32 "$tree" lbext4 "$UUID_EXT4" &&
	mkfs_image xfs "$DISKS/xfs.img" 320 "$tree" lbxfs "$UUID_XFS" &&
	mkfs_image btrfs "$DISKS/btrfs.img" 128 "$tree" lbbtrfs "$UUID_BTRFS" &&
	mkfs_image ext4 "$WORK/gpt-fs.img" 32 "$tree" lbgptfs "$UUID_GPT_FS" &&
	make_gpt_disk "$DISKS/gpt.img" "$WORK/gpt-fs.img" "$DISKID_GPT" "$PARTUUID_GPT" lbroot
}

# The CPU time of everything a case ran (its guests, servers, tools), from
# a cgroup of its own: a case waiting on a timeout or a late server holds a
# job's place, not a core, and this tells the two apart. A killed guest
# nobody waits for is counted too (times would not see it). "?" when the
# machine lets no cgroup be made.
CASE_CGROUP=
cgroup_enter_case() {
	local d
	for d in /sys/fs/cgroup /sys/fs/cgroup/cpuacct; do
		[ -e "$d/cgroup.procs" ] && { [ -e "$d/cgroup.controllers" ] || [ -e "$d/cpuacct.usage" ]; } ||
			continue
		CASE_CGROUP=$d/lifeboat-boot-$1-$$
		mkdir -p "$CASE_CGROUP" 2>/dev/null && echo "$BASHPID" >"$CASE_CGROUP/cgroup.procs" 2>/dev/null &&
			return 0
		rmdir "$CASE_CGROUP" 2>/dev/null
		CASE_CGROUP=
	done
}

cgroup_cpu_seconds() {
	local usec=
	if [ -r "$CASE_CGROUP/cpu.stat" ]; then
		usec=$(awk '$1 == "usage_usec" { print $2 }' "$CASE_CGROUP/cpu.stat")
	elif [ -r "$CASE_CGROUP/cpuacct.usage" ]; then
		usec=$(($(cat "$CASE_CGROUP/cpuacct.usage") / 1000))
	fi
	if [ -n "$usec" ]; then echo $((usec / 1000000)); else echo "?"; fi
}

run_case() {
	local name=$1 reason rc start=$SECONDS secs cpu
	CASE_DIR=$WORK/cases/$name
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	export CASE_DIR
	cgroup_enter_case "$name"
	reason=$("case_$name" 2>&1)
	rc=$?
	secs=$((SECONDS - start))
	cpu=$(cgroup_cpu_seconds)
	echo "$secs" > "$CASE_DIR/seconds"
	echo "$cpu" > "$CASE_DIR/cpu-seconds"
	if [ $rc -eq 0 ]; then
		echo "PASS" > "$CASE_DIR/result"
		echo "boot: PASS $name (${secs}s, cpu ${cpu}s)"
	else
		echo "FAIL $reason" > "$CASE_DIR/result"
		echo "boot: FAIL $name (${secs}s, cpu ${cpu}s): $reason (console log: $CASE_DIR/console.log)"
	fi
}

# slow_first NAME...: the names in the order they run: first the cases
# that take longest (a Debian root to make, servers late on purpose:
# SLOW_CASES, from the times run.sh prints), one of each kind in turn, so
# that the second job does not wait on the lock of the root the first is
# making, and the two jobs end together instead of one finishing a long
# case alone; then the others.
SLOW_CASES='debian_* itools_* kdump_* tang_late_*'
slow_first() {
	local c p i more=1 groups=() rest=()
	for c in "$@"; do
		i=0
		for p in $SLOW_CASES; do
			# shellcheck disable=SC2053 # p is a pattern
			[[ $c == $p ]] && { groups[i]+=" $c"; continue 2; }
			i=$((i + 1))
		done
		rest+=("$c")
	done
	while [ $more = 1 ]; do
		more=0
		for i in "${!groups[@]}"; do
			read -r c p <<<"${groups[i]}"
			[ -n "$c" ] || continue
			echo "$c"
			groups[i]=$p more=1
		done
	done
	printf '%s\n' "${rest[@]}"
}

# Cases that spend most of their time waiting (a timeout that must run
# out, a server started late on purpose): their guests keep a third of a
# core busy or less (the CPU-seconds run.sh prints, measured on this
# machine kind: net_late_dhcp_server 9 of 60 s, iscsi_chap_failures 34 of
# 102 s). They run in a lane of their own beside the JOBS lanes, so that a
# wait does not hold one of the cores' places; WAIT_JOBS=0 (the default
# with JOBS=1) runs them in the JOBS lanes.
WAITING_CASES='net_late_dhcp_server net_late_dhcp6_server net_late_nfs_server net_failures
	net_netdev_failures iscsi_chap_failures iscsi_late_target kdump_tpm_luks_refused keyscript_fails
	tang_sss_two_of_three_and_all_down tang_late_server tang_late_resume rescue_auth_refused missing_root'
WAIT_JOBS=${WAIT_JOBS:-$((JOBS > 1 ? 1 : 0))}
is_waiting_case() {
	local p
	[ "$WAIT_JOBS" -gt 0 ] || return 1
	for p in $WAITING_CASES; do
		# shellcheck disable=SC2053 # p is a pattern
		[[ $1 == $p ]] && return 0
	done
	return 1
}

if [ "${1:-}" = "--case" ]; then
	run_case "$2"
	if [ -n "$CASE_CGROUP" ]; then
		echo "$BASHPID" >"${CASE_CGROUP%/*}/cgroup.procs"
		rmdir "$CASE_CGROUP" 2>/dev/null
	fi
	exit 0
fi

cases=("${@#case_}")
[ ${#cases[@]} -gt 0 ] || mapfile -t cases < <(declare -F | sed -n 's/^declare -f case_//p')
# A name that is no case stops here, before the images are made.
for c in "${cases[@]}"; do
	declare -F "case_$c" >/dev/null || {
		echo "boot: no case $c: the cases are the case_* functions of tests/boot/cases*.sh"
		echo "0 passed, ${#cases[@]} failed"
		exit 1
	}
done
rm -rf "$WORK/cases"
if ! prepare; then
	echo "boot: preparing the images and disks failed"
	echo "0 passed, ${#cases[@]} failed"
	exit 1
fi
busy=() waiting=()
for c in "${cases[@]}"; do
	if is_waiting_case "$c"; then waiting+=("$c"); else busy+=("$c"); fi
done
slow_first "${busy[@]}" | xargs -P "$JOBS" -I{} "$0" --case {} &
printf '%s\n' "${waiting[@]}" | xargs -P "$((WAIT_JOBS > 0 ? WAIT_JOBS : 1))" -I{} "$0" --case {}
wait
passed=0 failed=0
for c in "${cases[@]}"; do
	if [ "$(cat "$WORK/cases/$c/result" 2>/dev/null)" = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
for c in "${cases[@]}"; do
	echo "$(cat "$WORK/cases/$c/seconds" 2>/dev/null || echo 0) $c"
done | sort -rn | head -n 12 | awk '{ s = s sep $2 " " $1 "s"; sep = ", " } END { print "boot: slowest: " s }'
for c in "${cases[@]}"; do
	echo "$(cat "$WORK/cases/$c/seconds" 2>/dev/null || echo 0) $(cat "$WORK/cases/$c/cpu-seconds" 2>/dev/null || echo 0)"
done | awk '{ s += $1; c += $2 } END { print "boot: " s " case-seconds, " c " CPU-seconds (0: no cgroup)" }'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
