# Debian's update-initramfs (dist/debian/update-initramfs) on a /boot that
# holds more than kernels' images, with a stub lifeboat that records each
# build (and fails for the kernel named by $STUB_FAIL).

# $T/boot: three kernels (modules, vmlinuz, image), a removed kernel's
# image, and copies named like images (dkms's .old-dkms, a .bak).
ui_fixture() {
	mkdir -p "$T/boot" "$T/modules"
	for v in 6.1.0-9-amd64 6.1.0-10-amd64 6.1.0-13-amd64; do
		mkdir -p "$T/modules/$v"
		: > "$T/boot/vmlinuz-$v"
		echo old > "$T/boot/initrd.img-$v"
	done
	for stale in 6.1.0-8-amd64 6.1.0-10-amd64.old-dkms 6.1.0-13-amd64.bak; do
		echo mine > "$T/boot/initrd.img-$stale"
	done
	cat > "$T/lifeboat" <<'STUB'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --kver ] && kver=$2; shift; done
echo "$kver" >> "${STUB_LOG:?}"
[ "$kver" != "${STUB_FAIL:-}" ]
STUB
	chmod +x "$T/lifeboat"
}

# update-initramfs ARGS... with the fixture; the builds go to $T/built.
ui_run() {
	: > "$T/built"
	env -u DPKG_MAINTSCRIPT_PACKAGE LIFEBOAT="$T/lifeboat" LIFEBOAT_MODDIR="$T/modules" \
		STUB_LOG="$T/built" sh "$TOP/dist/debian/update-initramfs" "$@" -b "$T/boot" > "$T/out" 2>&1
}

ui_built() {
	tr '\n' ' ' < "$T/built"
}

# A stale name is no kernel: configure's -u -k all remakes every kernel's
# image, in version order, and succeeds; the copies are left as they were.
test_update_initramfs_stale_names() {
	ui_fixture
	ui_run -u -k all || { echo "-u -k all failed:"; cat "$T/out"; return 1; }
	[ "$(ui_built)" = "6.1.0-9-amd64 6.1.0-10-amd64 6.1.0-13-amd64 " ] ||
		{ echo "-u -k all built: $(ui_built)"; return 1; }
	for stale in 6.1.0-8-amd64 6.1.0-10-amd64.old-dkms 6.1.0-13-amd64.bak; do
		[ "$(cat "$T/boot/initrd.img-$stale")" = mine ] || { echo "initrd.img-$stale was touched"; return 1; }
	done
	# The trigger's -u: the newest kernel by version, not the last name.
	ui_run -u || { cat "$T/out"; return 1; }
	[ "$(ui_built)" = "6.1.0-13-amd64 " ] || { echo "-u built: $(ui_built)"; return 1; }
	# -d -k all removes kernels' images only.
	ui_run -d -k all || { cat "$T/out"; return 1; }
	[ ! -e "$T/boot/initrd.img-6.1.0-9-amd64" ] && [ -e "$T/boot/initrd.img-6.1.0-13-amd64.bak" ] ||
		{ echo "-d -k all removed the wrong images: $(ls "$T/boot")"; return 1; }
}

# One kernel's failed build does not stop the others; it is named, and the
# run fails at the end. An explicit -k of no kernel fails at once.
test_update_initramfs_one_failure() {
	ui_fixture
	STUB_FAIL=6.1.0-10-amd64 ui_run -u -k all && { echo "a failed build was not reported"; return 1; }
	[ "$(ui_built)" = "6.1.0-9-amd64 6.1.0-10-amd64 6.1.0-13-amd64 " ] ||
		{ echo "after a failure, built: $(ui_built)"; return 1; }
	grep -q "no new image for kernel(s) 6.1.0-10-amd64" "$T/out" || { cat "$T/out"; return 1; }
	ui_run -u -k 6.1.0-13-amd64.bak && { echo "-k of no kernel succeeded"; return 1; }
	[ ! -s "$T/built" ] || { echo "-k of no kernel built: $(ui_built)"; return 1; }
	grep -q "kernel 6.1.0-13-amd64.bak has no modules tree" "$T/out" || { cat "$T/out"; return 1; }
}
