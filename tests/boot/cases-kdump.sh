# cases-kdump.sh: kdump in qemu (sourced by run.sh). A real crash: the first
# kernel boots a test root whose init arms the capture kernel with
# `lifeboat kdump load`, writes a marker to the kernel log and crashes with
# sysrq-c; the capture kernel boots the capture image, which saves the dump.
# One qemu process runs both kernels and exits when the capture reboots.

# boot_qemu's guests have 512 MB; 96M was the smallest that worked (docs in
# the kdump reference), 128M leaves a margin.
KDUMP_CRASHKERNEL=128M

# The first kernel's root: busybox, lifeboat with its libraries, the kernel
# and the capture image to load, and an init script that crashes.
kdump_root_tree() {
	local tree=$1 capture=$2 token=$3 append=${4:-} lib
	rm -rf "$tree"
	mkdir -p "$tree"/{bin,sbin,proc,sys,dev,run,etc,boot,usr/bin}
	cp /bin/busybox "$tree/bin/busybox"
	for a in sh mount cat echo sleep; do ln -s busybox "$tree/bin/$a"; done
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
	lifeboat kdump load --kernel /boot/vmlinuz --image /boot/capture.img --append "$append" || echo "LIFEBOAT-TEST: kdump load failed"
	lifeboat kdump status
	echo "KDUMP-MARKER-$token" > /dev/kmsg
	echo 1 > /proc/sys/kernel/sysrq
	echo c > /proc/sysrq-trigger
	EOT
	chmod 0755 "$tree/sbin/init"
}

# kdump_boot CAPTURE_IMAGE TOKEN CAPTURE_APPEND QEMU_ARGS...: crash and
# capture in one qemu.
kdump_boot() {
	local capture=$1 token=$2 append=$3
	shift 3
	kdump_root_tree "$CASE_DIR/root" "$capture" "$token" "$append" &&
	mkfs_image ext4 "$CASE_DIR/root.img" 96 "$CASE_DIR/root" kdroot 7d0e4b1a-0c2f-4a5e-9b1d-6f3e2a1c0b01 &&
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$QEMU_TIMEOUT" ${KDUMP_NETNS:+ip netns exec $KDUMP_NETNS} \
		qemu-system-x86_64 -accel tcg -cpu max -m 512 -nographic -no-reboot -monitor none \
		-serial stdio -kernel "$KERNEL" -initrd "$IMG_GENERIC" \
		-append "console=ttyS0 panic=-1 root=LABEL=kdroot crashkernel=$KDUMP_CRASHKERNEL" \
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
		--kdump-options format=kdump+elf,action=poweroff -o "$capture" 2>"$CASE_DIR/build.log" ||
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
	kdump_check_elf "$token"
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

# Capture over HTTP: the capture kernel configures eth0 statically (ip= from
# `kdump load --append`) and PUTs the dump as a flattened stream to a server
# in the test's network namespace (cases-net.sh's bridge and tap). On the
# host, makedumpfile -R reassembles it and reads the marker from it.
case_kdump_http() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img srv=$CASE_DIR/srv dir rc
	token=$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4,virtio_net --kdump \
		--kdump-target "http://$NET_SERVER:8080/dumps/" \
		--kdump-options action=poweroff -o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	mkdir -p "$srv"
	setsid ip netns exec "$NET_NS" python3 "$TOP/tests/boot/kdump-httpd.py" "$NET_SERVER" 8080 "$srv" \
		>"$CASE_DIR/httpd.log" 2>&1 &
	NET_PIDS+=($!)
	net_wait_port 8080 >/dev/null || { echo "the test's HTTP server did not start: $CASE_DIR/httpd.log"; return 1; }
	KDUMP_NETNS=$NET_NS kdump_boot "$capture" "$token" \
		"ip=$NET_GUEST::$NET_SERVER:255.255.255.0::eth0:off" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$NET_MAC
	rc=$?
	net_ns_down
	[ $rc -eq 0 ] || { echo "qemu failed ($rc)"; return 1; }
	assert_log "$log" "kdump: armed" &&
	assert_log "$log" "kdump: saving the dump to target 1 of 1: http://" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	dir=$(ls -d "$srv"/dumps/*/ 2>/dev/null | head -n 1)
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

# Capture to NFS: the first target, an NFS export nobody serves, fails with a
# message; the second, an NFSv4 export of the namespace's ganesha
# (cases-net.sh), gets the dump; makedumpfile reads it on the host.
case_kdump_nfs() {
	local log=$CASE_DIR/console.log token capture=$CASE_DIR/capture.img dir rc
	token=$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
	"$BUILD/lifeboat" build --config /dev/null --host-only --kver "$KVER" \
		--add-modules virtio_pci,virtio_blk,ext4,virtio_net,nfsv4 --kdump \
		--kdump-target "nfs4:198.51.100.77:/nowhere" \
		--kdump-target "nfs4:$NET_SERVER:/nfsroot" \
		--kdump-options action=poweroff -o "$capture" 2>"$CASE_DIR/build.log" ||
		{ echo "lifeboat build --kdump failed: $(tail -n 1 "$CASE_DIR/build.log")"; return 1; }
	net_ns_up || { echo "setting up the network namespace failed"; return 1; }
	net_nfs_start || return 1
	KDUMP_NETNS=$NET_NS kdump_boot "$capture" "$token" \
		"ip=$NET_GUEST::$NET_SERVER:255.255.255.0::eth0:off" \
		-netdev tap,id=n0,ifname=tap0,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$NET_MAC
	rc=$?
	net_ns_down
	[ $rc -eq 0 ] || { echo "qemu failed ($rc)"; return 1; }
	assert_log "$log" "kdump: armed" &&
	assert_log "$log" "the NFS server of nfs4:198.51.100.77:/nowhere does not answer" &&
	assert_log "$log" "kdump: saving the dump to target 2 of 2: nfs4:" &&
	assert_log "$log" "kdump: dump saved as" || return 1
	dir=$(ls -d "$CASE_DIR"/nfsroot/*-*/ 2>/dev/null | head -n 1)
	[ -n "$dir" ] && [ -s "$dir/vmcore" ] || { echo "no vmcore on the NFS export"; return 1; }
	makedumpfile --dump-dmesg "$dir/vmcore" "$CASE_DIR/makedumpfile-dmesg.txt" >"$CASE_DIR/makedumpfile.log" 2>&1 &&
	grep -q "KDUMP-MARKER-$token" "$CASE_DIR/makedumpfile-dmesg.txt" ||
		{ echo "makedumpfile --dump-dmesg of the NFS dump lacks the marker"; return 1; }
}
