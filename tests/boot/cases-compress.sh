# cases-compress.sh: the generic image in each compression boots to the test
# root by UUID, starts with that compressor's magic and is listed by
# `lifeboat ls` (sourced by run.sh). Each case leaves "FORMAT BYTES UNPACK
# RUN UPTIME" in $CASE_DIR/times for docs/benchmarks.md: the kernel's time
# from "Trying to unpack rootfs" to "Freeing initrd memory", its "Run /init"
# timestamp and the root init's /proc/uptime.

# The kernel's timestamp on the first console line that starts with PATTERN.
kernel_stamp() {
	tr -d '\r' < "$1" | sed -n "s/^\[ *\([0-9.]*\)\] $2.*/\1/p" | head -n 1
}

# compress_boot FORMAT MAGIC: build, check, boot, record.
compress_boot() {
	local fmt=$1 magic=$2 img=$CASE_DIR/$1.img head log=$CASE_DIR/console.log t0 t1 unpack run up
	if [ "$fmt" = lz4 ]; then
		img=$IMG_GENERIC  # run.sh's own generic image is lz4: the default
	elif ! "$BUILD/lifeboat" build --config /dev/null --generic --kver "$KVER" \
		--compress "$fmt" -o "$img" >"$CASE_DIR/build.log" 2>&1; then
		echo "lifeboat build --compress $fmt failed: $(grep error "$CASE_DIR/build.log" | head -n 1)"
		return 1
	fi
	head=$(head -c 4 "$img" | od -An -tx1 | tr -d ' \n')
	[ "$head" = "$magic" ] || { echo "the $fmt image starts with $head, not $magic"; return 1; }
	"$BUILD/lifeboat" ls "$img" >"$CASE_DIR/ls.txt" 2>&1 || { echo "lifeboat ls failed on the $fmt image"; return 1; }
	grep -q ' init$' "$CASE_DIR/ls.txt" || { echo "lifeboat ls does not list /init in the $fmt image"; return 1; }
	boot_ok "$img" "root=UUID=$UUID_EXT4" ext4.img virtio-blk || return 1
	t0=$(kernel_stamp "$log" 'Trying to unpack rootfs')
	t1=$(kernel_stamp "$log" 'Freeing initrd memory')
	unpack=$(awk -v a="$t0" -v b="$t1" 'BEGIN { if (a != "" && b != "") printf "%.3f", b - a }')
	run=$(kernel_stamp "$log" 'Run \/init as init process')
	up=$(tr -d '\r' < "$log" | sed -n 's/^LIFEBOAT-TEST: uptime \([0-9.]*\) .*/\1/p' | head -n 1)
	echo "$fmt $(stat -c %s "$img") ${unpack:-?} ${run:-?} ${up:-?}" > "$CASE_DIR/times"
}

case_compress_gzip() { compress_boot gzip 1f8b0800; }
case_compress_zstd() { compress_boot zstd 28b52ffd; }
case_compress_xz() { compress_boot xz fd377a58; }
case_compress_lz4() { compress_boot lz4 02214c18; }
case_compress_none() { compress_boot none 30373037; }
