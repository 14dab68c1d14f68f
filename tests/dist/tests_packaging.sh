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
