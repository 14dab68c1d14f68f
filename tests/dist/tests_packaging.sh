# tests_packaging.sh: the RPM spec and the Arch PKGBUILD, as far as Debian's
# tools can check them (they are untested on Fedora, SUSE and Arch); the
# Debian package itself is tested by tests/deb/run.sh. Sourced by run.sh.

test_rpm_spec_lints() {
	local out
	out=$(rpmlint -r "$TOP/dist/rpm/lifeboat.rpmlintrc" "$TOP/dist/rpm/lifeboat.spec" 2>&1)
	echo "$out" | grep -q ' 0 errors' || { echo "$out" | tail -n 5; return 1; }
	# Every file make install puts in place is in %files, but Debian's hooks.
	rpmspec -P "$TOP/dist/rpm/lifeboat.spec" > "$T/spec" || return 1
	make -s -C "$TOP" BUILD="$BUILD" PREFIX=/usr DESTDIR="$T/root" install >/dev/null || return 1
	local f missing=
	for f in $(cd "$T/root" && find . -type f ! -path './etc/kernel/*' | sed 's|^\.||'); do
		grep -q "^${f%.gz}\*\?$" "$T/spec" || missing="$missing $f"
	done
	[ -z "$missing" ] || { echo "not in the spec's %files:$missing"; return 1; }
}

test_pkgbuild_parses() {
	bash -n "$TOP/dist/arch/PKGBUILD" && sh -n "$TOP/dist/arch/lifeboat-pacman" || return 1
	# The hook names the script the PKGBUILD installs.
	grep -q '^Exec = /usr/share/libalpm/scripts/lifeboat-pacman$' "$TOP/dist/arch/lifeboat.hook" &&
	grep -q 'usr/share/libalpm/scripts/lifeboat-pacman' "$TOP/dist/arch/PKGBUILD" ||
		{ echo "the pacman hook and the PKGBUILD disagree on the script's path"; return 1; }
}

# lifeboat build --uki twice gives the same bytes, with the four sections
# after the stub's and the command line as given.
test_uki_reproducible() {
	local kver
	kver=$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V | tail -n 1)
	[ -n "$kver" ] || { echo "no kernel in /boot: install linux-image-amd64"; return 1; }
	for i in 1 2; do
		SOURCE_DATE_EPOCH=1 "$LB" build --config /dev/null --generic --kver "$kver" --uki \
			--cmdline "root=LABEL=uki rd.timeout=5" -o "$T/$i.efi" 2>"$T/err" || { tail -n 2 "$T/err"; return 1; }
	done
	cmp -s "$T/1.efi" "$T/2.efi" || { echo "two builds of the same UKI differ"; return 1; }
	[ "$(objdump -h "$T/1.efi" | awk '$2 ~ /^\./ { print $2 }' | tail -n 4 | tr '\n' ' ')" = ".osrel .cmdline .initrd .linux " ] ||
		{ echo "sections: $(objdump -h "$T/1.efi" | awk '$2 ~ /^\./ { print $2 }' | tr '\n' ' ')"; return 1; }
	objcopy -O binary --only-section=.cmdline "$T/1.efi" "$T/cmdline" &&
	[ "$(cat "$T/cmdline")" = "root=LABEL=uki rd.timeout=5" ] || { echo ".cmdline holds '$(cat "$T/cmdline")'"; return 1; }
}
