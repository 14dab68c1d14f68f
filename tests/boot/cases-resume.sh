# cases-resume.sh: resume from hibernation (resume/), with real hibernation
# in the guest (sourced by run.sh). Each case makes its own disks in
# $CASE_DIR: a test root whose /sbin/init is hib-init (it swapons, writes a
# token to /state.txt and hibernates when lbtest.hibernate=N is given) and a
# swap disk. A hibernated guest powers itself off; the next boot with
# resume= must continue it, which hib-init shows by printing the token of
# the boot that hibernated again.

HIB_INIT=$BUILD/hib-init
UUID_HIBROOT=6d1f3b5a-2c4e-4f6a-8b0c-1d3e5f7a9b46
UUID_HIBSWAP=4e6a8c0e-2b4d-4c6e-9a1b-3c5d7e9f1a57
UUID_PLAINSWAP=7a9c1e3b-5d7f-4a9c-8e1b-3d5f7a9c1e68

# hib_root FILE [SWAPFILE_MB]: an ext4 test root with hib-init; with a size,
# also /swapfile of that many MiB, filled (mke2fs -d leaves zero blocks out,
# and swapon refuses a file with holes) and made swap.
hib_root() {
	local file=$1 swap_mb=${2:-} tree=$CASE_DIR/tree size=32
	rm -rf "$tree"
	mkdir -p "$tree/sbin" "$tree/proc" "$tree/sys" "$tree/dev" "$tree/run"
	install -m 0755 "$HIB_INIT" "$tree/sbin/init"
	if [ -n "$swap_mb" ]; then
		head -c $((swap_mb << 20)) /dev/zero | tr '\0' '\132' > "$tree/swapfile"
		chmod 600 "$tree/swapfile"
		mkswap -q "$tree/swapfile" >/dev/null || return 1
		size=$((swap_mb + 32))
	fi
	rm -f "$file"
	truncate -s "${size}M" "$file"
	mkfs.ext4 -q -F -b 4096 -L lbhib -U "$UUID_HIBROOT" -d "$tree" "$file"
}

# hib_swap FILE UUID: a 64 MiB swap disk, written out (mkswap warns on holes).
hib_swap() {
	dd if=/dev/zero of="$1" bs=1M count=64 status=none &&
	mkswap -q -L lbswap -U "$2" "$1" >/dev/null
}

# hib_boot LOG APPEND ROOT [SWAP]: one boot of the generic image. The root
# is a virtio disk (/dev/vda), the swap a virtio-scsi disk: /dev/sda. Two
# virtio disks would probe in either order, and resume=/dev/... must be
# stable between boots.
hib_boot() {
	local log=$1 append=$2 root=$3 swap=${4:-} args=()
	args=(-drive "file=$root,format=raw,if=virtio")
	[ -z "$swap" ] || args+=(-device virtio-scsi-pci,id=scsi0
		-drive "file=$swap,format=raw,if=none,id=swap0" -device scsi-hd,drive=swap0,bus=scsi0.0)
	# The init stops looking at new devices once it has the root: sd_mod
	# loaded early lets the swap disk appear for hib-init's swapon too.
	[ -z "$swap" ] || append="rd.driver.pre=sd_mod $append"
	boot_qemu "$log" "$KERNEL" "$IMG_GENERIC" "$append" "${args[@]}"
}

blk_type() {
	blkid -p -o value -s TYPE "$1"
}

# Boot 1 must have written an image: it said so, did not come back, and
# the swap carries the kernel's signature (in a swap file: at the offset).
assert_hibernated() {
	local log=$1 n=$2 token=$3 swap=$4 offset=${5:-0} type
	assert_log "$log" "HIB-TEST: HIBERNATING $n $token" || return 1
	assert_not_log "$log" "HIB-TEST: RESUMED $n " || return 1
	type=$(blkid -p -O $((offset * 4096)) -o value -s TYPE "$swap")
	[ "$type" = swsuspend ] || { echo "after boot $n's hibernation the swap is '$type', not swsuspend"; return 1; }
}

# The root the hibernated system had mounted is intact and holds its state.
assert_root_intact() {
	local root=$1 want=$2 state
	e2fsck -fn "$root" >"$CASE_DIR/e2fsck.log" 2>&1 || { echo "e2fsck -fn finds the root damaged (e2fsck.log)"; return 1; }
	state=$(debugfs -R "cat /state.txt" "$root" 2>/dev/null | tr '\n' '|')
	[ "$state" = "$want" ] || { echo "/state.txt on the root is '$state', expected '$want'"; return 1; }
}

# Seconds from the kernel's "Run /init" to lifeboat's resume write, from the
# kernel's own timestamps in the console log.
resume_delay() {
	tr -d '\r' < "$1" | sed -n 's/^\[ *\([0-9.]*\)\] \(Run \/init\|lifeboat: resume: restoring\).*/\1/p' |
		head -n 2 | awk 'NR == 1 { s = $1 } NR == 2 { printf "%.3f\n", $1 - s }'
}

# The order that protects the disk: the init looked at mountinfo, found no
# block filesystem, and only then wrote /sys/power/resume; the resumed
# system then finds its root as it left it.
assert_resume_ordered() {
	local log=$1
	assert_log "$log" "resume: no block filesystem is mounted; safe to resume" &&
	assert_log "$log" "resume: restoring the hibernation image on /dev/" &&
	assert_not_log "$log" "EXT4-fs (vda): mounted"
}

# Hibernate, resume by UUID (and hibernate again), resume by path.
case_resume_uuid_then_path() {
	local root=$CASE_DIR/root.img swap=$CASE_DIR/swap.img token
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" && hib_swap "$swap" "$UUID_HIBSWAP" || return 1
	hib_boot "$CASE_DIR/boot1.log" "root=UUID=$UUID_HIBROOT rw lbtest.hibernate=2 lbtest.swap=/dev/sda lbtest.token=$token" "$root" "$swap"
	assert_hibernated "$CASE_DIR/boot1.log" 1 "$token" "$swap" || return 1
	hib_boot "$CASE_DIR/boot2.log" "root=UUID=$UUID_HIBROOT resume=UUID=$UUID_HIBSWAP" "$root" "$swap"
	assert_log "$CASE_DIR/boot2.log" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_resume_ordered "$CASE_DIR/boot2.log" &&
	assert_hibernated "$CASE_DIR/boot2.log" 2 "$token" "$swap" || return 1
	hib_boot "$CASE_DIR/boot3.log" "root=UUID=$UUID_HIBROOT resume=/dev/sda" "$root" "$swap"
	assert_log "$CASE_DIR/boot3.log" "HIB-TEST: RESUMED 2 $token rc=0" &&
	assert_resume_ordered "$CASE_DIR/boot3.log" &&
	assert_log "$CASE_DIR/boot3.log" "LIFEBOAT-TEST: end" || return 1
	[ "$(blk_type "$swap")" = swap ] || { echo "after the resume the swap is not plain swap again"; return 1; }
	assert_root_intact "$root" "before-hibernate $token|after-resume $token 1|after-resume $token 2|" || return 1
	{ resume_delay "$CASE_DIR/boot2.log"; resume_delay "$CASE_DIR/boot3.log"; } > "$CASE_DIR/resume-delay"
}

# A swap file on the ext4 root: resume= names the filesystem, resume_offset=
# the file's first page on it (from debugfs, as filefrag -v would give).
case_resume_swapfile() {
	local root=$CASE_DIR/root.img token offset
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" 40 || return 1
	offset=$(debugfs -R "bmap /swapfile 0" "$root" 2>/dev/null)
	[ -n "$offset" ] && [ "$offset" -gt 0 ] || { echo "no block for /swapfile: '$offset'"; return 1; }
	# The hibernating kernel writes its header at resume_offset too (without
	# it, at page 0 of the filesystem: "Swap header not found").
	hib_boot "$CASE_DIR/boot1.log" "root=UUID=$UUID_HIBROOT rw resume_offset=$offset lbtest.hibernate=1 lbtest.swap=/swapfile lbtest.token=$token" "$root"
	assert_hibernated "$CASE_DIR/boot1.log" 1 "$token" "$root" "$offset" || return 1
	hib_boot "$CASE_DIR/boot2.log" "root=UUID=$UUID_HIBROOT resume=UUID=$UUID_HIBROOT resume_offset=$offset" "$root"
	assert_log "$CASE_DIR/boot2.log" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_log "$CASE_DIR/boot2.log" "resume: /dev/vda at page $offset: kernel hibernation image" &&
	assert_resume_ordered "$CASE_DIR/boot2.log" &&
	assert_root_intact "$root" "before-hibernate $token|after-resume $token 1|"
}

# noresume with a valid image boots normally and leaves the image alone;
# the same image with its header corrupted is refused by the kernel, and
# the boot goes on with a clear message.
case_noresume_then_corrupt() {
	local root=$CASE_DIR/root.img swap=$CASE_DIR/swap.img token
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" && hib_swap "$swap" "$UUID_HIBSWAP" || return 1
	hib_boot "$CASE_DIR/boot1.log" "root=UUID=$UUID_HIBROOT rw lbtest.hibernate=1 lbtest.swap=/dev/sda lbtest.token=$token" "$root" "$swap"
	assert_hibernated "$CASE_DIR/boot1.log" 1 "$token" "$swap" || return 1
	hib_boot "$CASE_DIR/boot2.log" "root=UUID=$UUID_HIBROOT resume=UUID=$UUID_HIBSWAP noresume" "$root" "$swap"
	assert_root_reached "$CASE_DIR/boot2.log" &&
	assert_not_log "$CASE_DIR/boot2.log" "HIB-TEST: RESUMED" &&
	assert_log "$CASE_DIR/boot2.log" "resume: noresume given" &&
	assert_log "$CASE_DIR/boot2.log" "LIFEBOAT-TEST: timeline [0-9.]* resume-skip noresume" &&
	assert_root_intact "$root" "before-hibernate $token|" || return 1
	[ "$(blk_type "$swap")" = swsuspend ] || { echo "noresume did not leave the image in place"; return 1; }
	# The header's first swap-map sector (page end - 32, 8 bytes) zeroed.
	dd if=/dev/zero of="$swap" bs=1 seek=$((4096 - 32)) count=8 conv=notrunc status=none
	hib_boot "$CASE_DIR/boot3.log" "root=UUID=$UUID_HIBROOT resume=UUID=$UUID_HIBSWAP" "$root" "$swap"
	assert_root_reached "$CASE_DIR/boot3.log" &&
	assert_not_log "$CASE_DIR/boot3.log" "HIB-TEST: RESUMED" &&
	assert_log "$CASE_DIR/boot3.log" "resume: /dev/sda at page 0: kernel hibernation image" &&
	assert_log "$CASE_DIR/boot3.log" "the hibernation image on /dev/sda was not restored" &&
	assert_log "$CASE_DIR/boot3.log" "timeline [0-9.]* resume-failed /dev/sda" &&
	assert_root_intact "$root" "before-hibernate $token|"
}

# Plain swap, no image: a normal boot, and the decision comes before the
# root is mounted (timeline order).
case_resume_plain_swap() {
	local swap=$CASE_DIR/swap.img disk log=$CASE_DIR/console.log
	disk=$(disk_copy ext4.img)
	hib_swap "$swap" "$UUID_PLAINSWAP" || return 1
	hib_boot "$log" "root=UUID=$UUID_EXT4 resume=UUID=$UUID_PLAINSWAP" "$disk" "$swap"
	assert_root_reached "$log" && assert_timeline "$log" &&
	assert_log "$log" "resume: /dev/sda at page 0: swap without a hibernation image (signature \"SWAPSPACE2\"; libblkid TYPE=swap" &&
	assert_not_log "$log" "resume: restoring" || return 1
	local check mounted
	check=$(sed -n 's/^LIFEBOAT-TEST: timeline \([0-9.]*\) resume-check .*/\1/p' "$log" | tr -d '\r')
	mounted=$(sed -n 's/^LIFEBOAT-TEST: timeline \([0-9.]*\) mounted .*/\1/p' "$log" | tr -d '\r')
	[ -n "$check" ] && awk -v a="$check" -v b="$mounted" 'BEGIN { exit !(a < b) }' ||
		{ echo "the resume decision ($check) is not before the root mount ($mounted)"; return 1; }
}

# A resume device that never appears costs rd.resume.timeout, no more.
case_resume_missing_device() {
	local disk log=$CASE_DIR/console.log wait root
	disk=$(disk_copy ext4.img)
	hib_boot "$log" "root=UUID=$UUID_EXT4 resume=UUID=00000000-dead-beef-0000-000000000001 rd.resume.timeout=2" "$disk"
	assert_root_reached "$log" && assert_timeline "$log" &&
	assert_log "$log" "resume device resume=UUID=00000000-dead-beef-0000-000000000001 did not appear within rd.resume.timeout=2 s" || return 1
	wait=$(sed -n 's/^LIFEBOAT-TEST: timeline \([0-9.]*\) resume-wait .*/\1/p' "$log" | tr -d '\r')
	root=$(sed -n 's/^LIFEBOAT-TEST: timeline \([0-9.]*\) rootdev .*/\1/p' "$log" | tr -d '\r')
	awk -v a="$wait" -v b="$root" 'BEGIN { d = b - a; exit !(d >= 2 && d < 4) }' ||
		{ echo "waiting for the missing resume device took $wait..$root, not about 2 s"; return 1; }
}
