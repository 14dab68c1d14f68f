# tests_itools.sh: lifeboat's bridge to initramfs-tools' hooks
# (itools/hooks.d/50-initramfs-tools, docs/initramfs-tools.md) run as
# lifeboat build runs it, without a build: in a mount namespace of its own
# where tmpfs holds the test's /usr/share/initramfs-tools and
# /etc/initramfs-tools, so the hooks source hook-functions from the path
# packages' hooks name. Sourced by run.sh. The boot cases in
# tests/boot/cases-initramfs-tools.sh and cases-itools.sh run the images.

# itools_run SETUP: the bridge's requests on $T/out, its messages on
# $T/err, after SETUP (shell run in the namespace) made the two
# directories' contents. Returns the bridge's status.
itools_run() {
	local kver
	kver=$(ls /lib/modules | sort -V | tail -n 1)
	rm -rf "$T/tmp" && mkdir -p "$T/tmp"
	unshare -m /bin/bash -c '
		set -e
		functions=$1 setup=$2; shift 2
		for d in /usr/share/initramfs-tools /etc/initramfs-tools; do
			[ -d "$d" ] || exit 97
			mount -t tmpfs -o mode=0755 none "$d"
		done
		cp "$functions" /usr/share/initramfs-tools/
		mkdir -p /usr/share/initramfs-tools/hooks /etc/initramfs-tools
		eval "$setup"
		exec env -i "$@"' itools "$TOP/itools/hook-functions" "$1" \
		LIFEBOAT_KVER="$kver" LIFEBOAT_MODDIR="/lib/modules/$kver" LIFEBOAT_TMPDIR="$T/tmp" \
		LIFEBOAT_VERBOSE=0 PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C \
		"$TOP/itools/hooks.d/50-initramfs-tools" >"$T/out" 2>"$T/err"
}

# A hook as packages write them: set -e, prereqs, hook-functions.
itools_hook_text() {
	printf '#!/bin/sh\nset -e\n[ "$1" = prereqs ] && { echo "%s"; exit 0; }\n. /usr/share/initramfs-tools/hook-functions\n%s\n' "$1" "$2"
}

# What the hooks did becomes requests: the host's program at the path the
# hook chose (its libraries lifeboat's business), a module by name (one the
# kernel lacks left out), force_load's list as rd.driver.pre= and the
# module's argument, a written file, a symlink and an empty directory from
# DESTDIR; the boot script with its ORDER and lifeboat's stage script.
test_itools_requests() {
	local h
	h=$(itools_hook_text "" 'copy_exec /usr/bin/numfmt /bin
manual_add_modules dummy no_such_module_here
force_load loop max_loop=4
echo written >"$DESTDIR/etc/frob.conf"
ln -s frob.conf "$DESTDIR/etc/frob-link"
mkdir -p "$DESTDIR/var/lib/frob"')
	itools_run "
		printf '%s\n' '$h' >/usr/share/initramfs-tools/hooks/frob
		chmod 0755 /usr/share/initramfs-tools/hooks/frob
		mkdir -p /usr/share/initramfs-tools/scripts/local-bottom
		printf '#!/bin/sh\necho hi\n' >/usr/share/initramfs-tools/scripts/local-bottom/frob
		chmod 0755 /usr/share/initramfs-tools/scripts/local-bottom/frob" ||
		{ echo "the bridge failed: $(cat "$T/err")"; return 1; }
	local want
	for want in "program $(readlink -f /usr/bin/numfmt) /usr/bin/numfmt" "module dummy" "module loop" \
		"cmdline loop.max_loop=4" "cmdline rd.driver.pre=loop" "symlink frob.conf /etc/frob-link" \
		"dir /var/lib/frob" "file .* /usr/lib/lifeboat/initramfs-tools/run-scripts" \
		"file .*/root/scripts/local-bottom/frob /scripts/local-bottom/frob" \
		"file .*/root/scripts/local-bottom/ORDER /scripts/local-bottom/ORDER" \
		"file .*/root/etc/frob.conf /etc/frob.conf" \
		"script pre-pivot .*/stages/pre-pivot/50-initramfs-tools"; do
		grep -q "^$want" "$T/out" || { echo "no request '$want' in: $(tr '\n' '|' < "$T/out")"; return 1; }
	done
	! grep -q no_such_module_here "$T/out" || { echo "a module the kernel lacks was asked for"; return 1; }
	! grep -q "^dir /usr/sbin$" "$T/out" || { echo "the scratch tree's own directories were asked for"; return 1; }
	grep -q "ran 1 hooks; 1 boot scripts" "$T/err" || { echo "no closing line: $(cat "$T/err")"; return 1; }
}

# A hook anyone but root could change is not run, and the build stops
# naming it; a failing hook stops it naming the hook.
test_itools_refuses() {
	local h
	h=$(itools_hook_text "" 'echo ran-anyway >&2')
	itools_run "
		printf '%s\n' '$h' >/usr/share/initramfs-tools/hooks/open
		chmod 0775 /usr/share/initramfs-tools/hooks/open"
	[ $? -eq 1 ] || { echo "a group-writable hook did not stop the bridge: $(cat "$T/err")"; return 1; }
	grep -q "hooks/open will not run: .* is writable by group or others" "$T/err" &&
	! grep -q ran-anyway "$T/err" || { echo "$(cat "$T/err")"; return 1; }
	h=$(itools_hook_text "" 'copy_exec /no/such/program')
	itools_run "
		printf '%s\n' '$h' >/usr/share/initramfs-tools/hooks/broken
		chmod 0755 /usr/share/initramfs-tools/hooks/broken"
	[ $? -eq 1 ] || { echo "a failing hook did not stop the bridge"; return 1; }
	grep -q "cannot copy the binary /no/such/program" "$T/err" &&
	grep -q "hook /usr/share/initramfs-tools/hooks/broken (no package) failed with status 1" "$T/err" ||
		{ echo "$(cat "$T/err")"; return 1; }
}
