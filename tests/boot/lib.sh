# lib.sh: shared helpers of the qemu boot tests (sourced).
#
# Disks are made as files without loop devices or mounts: mkfs.ext4 -d,
# mkfs.btrfs --rootdir, mkfs.xfs with a protofile, sfdisk on an image file.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
WORK=${WORK:-$BUILD/boot-tests}
TEST_INIT=$BUILD/test-init
QEMU_TIMEOUT=${QEMU_TIMEOUT:-150}

# The newest installed Debian kernel (linux-image-amd64): its version and image.
newest_kernel() {
	ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V | tail -n 1
}

# cached_image NAME ARGS...: $WORK/NAME.img, made by `lifeboat build
# --config /dev/null --kver $KVER ARGS...` once per run and again when a
# program of $BUILD is newer than it (a run after a change); cases running
# in parallel share it (the lock keeps one builder). Prints its path.
cached_image() {
	local name=$1 img=$WORK/$1.img prog
	shift
	(
		flock 9
		if [ -s "$img" ]; then
			for prog in "$BUILD"/lifeboat "$BUILD"/lifeboat-{init,shutdown,login,clevis}; do
				[ "$img" -nt "$prog" ] || break
			done
			[ "$img" -nt "$prog" ] && exit 0
		fi
		"$BUILD/lifeboat" build --config /dev/null --kver "$KVER" "$@" -o "$img" >"$img.log" 2>&1
	) 9>"$img.lock" || { echo "building $img failed (lifeboat build $*): $img.log"; return 1; }
	echo "$img"
}

# A root tree whose /sbin/init is the test init.
make_root_tree() {
	local dir=$1
	rm -rf "$dir"
	mkdir -p "$dir/sbin" "$dir/proc" "$dir/sys" "$dir/dev" "$dir/run" "$dir/etc"
	install -m 0755 "$TEST_INIT" "$dir/sbin/init"
	echo "lifeboat test root" > "$dir/etc/issue"
}

# mkfs_image TYPE FILE SIZE_MB TREE LABEL UUID
mkfs_image() {
	local type=$1 file=$2 size=$3 tree=$4 label=$5 uuid=$6
	rm -f "$file"
	truncate -s "${size}M" "$file"
	case $type in
	ext4)
		mkfs.ext4 -q -F -L "$label" -U "$uuid" -d "$tree" "$file" ;;
	btrfs)
		mkfs.btrfs -q -f -L "$label" -U "$uuid" --rootdir "$tree" "$file" >/dev/null ;;
	xfs)
		xfs_protofile "$tree" > "$file.proto"
		mkfs.xfs -q -f -L "$label" -m uuid="$uuid" -p "$file.proto" "$file" ;;
	*)
		echo "mkfs_image: unknown type $type" >&2; return 1 ;;
	esac
}

# A protofile for mkfs.xfs -p describing TREE (directories and regular files).
xfs_protofile() {
	local tree=$1
	printf '/dev/null\n0 0\nd--755 0 0\n'
	xfs_proto_dir "$tree" 1
	printf '$\n'
}

xfs_proto_dir() {
	local dir=$1 depth=$2 entry name mode
	for entry in "$dir"/*; do
		[ -e "$entry" ] || continue
		name=$(basename "$entry")
		mode=$(stat -c %a "$entry")
		if [ -d "$entry" ]; then
			printf '%s d--%s 0 0\n' "$name" "$mode"
			xfs_proto_dir "$entry" $((depth + 1))
			printf '$\n'
		else
			printf '%s ---%s 0 0 %s\n' "$name" "$mode" "$entry"
		fi
	done
}

# make_gpt_disk FILE FS_IMAGE DISK_UUID PART_UUID PART_NAME
# A GPT disk with a small first partition and the filesystem in partition 2.
make_gpt_disk() {
	local file=$1 fs=$2 disk_uuid=$3 part_uuid=$4 name=$5
	local fs_sectors=$(( $(stat -c %s "$fs") / 512 ))
	rm -f "$file"
	truncate -s $(( (fs_sectors + 4096 + 2048 + 64) * 512 )) "$file"
	sfdisk -q "$file" >/dev/null <<-EOT
	label: gpt
	label-id: $disk_uuid
	start=2048, size=2048, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=spare
	start=4096, size=$fs_sectors, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=$part_uuid, name=$name
	EOT
	dd if="$fs" of="$file" bs=512 seek=4096 conv=notrunc,sparse status=none
}

# The qemu disk options for a controller kind and a disk file.
disk_args() {
	local kind=$1 file=$2
	case $kind in
	virtio-blk)  echo "-drive file=$file,format=raw,if=virtio" ;;
	virtio-scsi) echo "-device virtio-scsi-pci,id=scsi0 -drive file=$file,format=raw,if=none,id=d0 -device scsi-hd,drive=d0,bus=scsi0.0" ;;
	# The PIIX IDE controller of qemu's pc machine (the generic image's late
	# driver, bootlib/coldplug.h), as the primary master.
	ide)         echo "-drive file=$file,format=raw,if=ide,index=0" ;;
	ahci)        echo "-device ahci,id=ahci0 -drive file=$file,format=raw,if=none,id=d0 -device ide-hd,drive=d0,bus=ahci0.0" ;;
	*) echo "disk_args: unknown kind $kind" >&2; return 1 ;;
	esac
}

# The kernel command line every test guest starts with. no_timer_check: under
# TCG on a loaded host the kernel's early check that the IO-APIC timer ticks
# can miss its window and panic ("IO-APIC + timer doesn't work") before any
# of lifeboat runs; the check tests the emulator, not the image.
GUEST_APPEND="console=ttyS0 panic=-1 no_timer_check"

# boot_qemu LOG KERNEL INITRD APPEND DISK_ARGS...: boot and log the serial console.
boot_qemu() {
	local log=$1 kernel=$2 initrd=$3 append=$4
	shift 4
	timeout --foreground -k 5 "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 512 \
		-nographic -no-reboot -nic none -monitor none -serial stdio \
		-kernel "$kernel" -initrd "$initrd" -append "$GUEST_APPEND $append" \
		"$@" </dev/null >"$log" 2>&1
}

# qemu_monitor SOCKET [-w LOG PATTERN] COMMAND...: once qemu's monitor
# listens on SOCKET (-monitor unix:SOCKET,server=on,wait=off), send each
# COMMAND, each after the monitor's prompt: a command sent before it is
# not always read (with -S the guest has not run yet when the first
# comes). With -w, first wait until PATTERN (a Python regular expression)
# shows in the console log LOG, polled every 20 ms, at most 120 s.
qemu_monitor() {
	python3 - "$@" <<-'EOT'
	import re, socket, sys, time
	path, cmds, log = sys.argv[1], sys.argv[2:], None
	if cmds[:1] == ["-w"]:
	    log, pattern, cmds = cmds[1], cmds[2], cmds[3:]
	s = socket.socket(socket.AF_UNIX)
	for _ in range(400):
	    try:
	        s.connect(path)
	        break
	    except OSError:
	        time.sleep(0.05)
	s.settimeout(10)
	def prompt():
	    seen = b""
	    while not seen.endswith(b"(qemu) "):
	        more = s.recv(4096)
	        if not more:
	            sys.exit("qemu's monitor closed")
	        seen += more
	prompt()
	end = time.time() + 120
	while log and time.time() < end:
	    try:
	        with open(log, errors="replace") as f:
	            if re.search(pattern, f.read()):
	                break
	    except OSError:
	        pass
	    time.sleep(0.02)
	for c in cmds:
	    s.sendall((c + "\n").encode())
	    prompt()
	s.close()
	EOT
}

# Assertions on a boot log: each prints what failed and returns non-zero.
assert_root_reached() {
	local log=$1
	grep -q '^LIFEBOAT-TEST: root reached' "$log" || { echo "no marker: the real root's init did not run"; return 1; }
	grep -q '^LIFEBOAT-TEST: end' "$log" || { echo "the test init did not finish"; return 1; }
}

# The timeline has every phase of a normal boot, in increasing time order.
assert_timeline() {
	local log=$1 phase prev=-1 t
	for phase in start modules rootdev mounted exec; do
		t=$(sed -n "s/^LIFEBOAT-TEST: timeline \([0-9.]*\) $phase\b.*/\1/p" "$log" | tr -d '\r' | head -n 1)
		[ -n "$t" ] || { echo "timeline has no '$phase' phase"; return 1; }
		awk -v a="$prev" -v b="$t" 'BEGIN { exit !(b >= a) }' || { echo "timeline phase $phase at $t is before the previous one ($prev)"; return 1; }
		prev=$t
	done
}

assert_log() {
	local log=$1 pattern=$2
	grep -q -- "$pattern" "$log" || { echo "log lacks: $pattern"; return 1; }
}

# The first line matching the first pattern comes before the first line
# matching the second.
assert_log_order() {
	local log=$1 first=$2 then=$3 a b
	a=$(grep -n -m1 -- "$first" "$log" | cut -d: -f1)
	b=$(grep -n -m1 -- "$then" "$log" | cut -d: -f1)
	[ -n "$a" ] || { echo "log lacks: $first"; return 1; }
	[ -n "$b" ] || { echo "log lacks: $then"; return 1; }
	[ "$a" -lt "$b" ] || { echo "log has '$then' before '$first'"; return 1; }
}

assert_not_log() {
	local log=$1 pattern=$2
	! grep -q -- "$pattern" "$log" || { echo "log has, but must not: $pattern"; return 1; }
}
