# tests_install.sh: man pages, bash completion, the kernel-install plugin,
# Debian's kernel hooks and make install/uninstall, all against scratch
# directories standing in for /boot, /etc and the prefix. Sourced by run.sh.

# Every page renders with man -l and groff reports no warning.
test_man_pages_render() {
	local p out
	make -s -C "$TOP" BUILD="$T/b" man >/dev/null || { echo "make man failed"; return 1; }
	for p in lifeboat.8 lifeboat.conf.5 lifeboat.cmdline.7; do
		out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$T/b/man/$p" 2>&1 >/dev/null)
		[ -z "$out" ] || { echo "man -l $p: $out"; return 1; }
		out=$(groff -man -ww -z "$T/b/man/$p" 2>&1)
		[ -z "$out" ] || { echo "groff $p: $out"; return 1; }
		MANWIDTH=80 man -l "$T/b/man/$p" 2>/dev/null | grep -q '^NAME' || { echo "$p has no NAME section"; return 1; }
	done
}

# lifeboat.cmdline(7) names every parameter in the init's table.
test_man_cmdline_lists_every_parameter() {
	local p missing=
	for p in $(sed -n '/^static const struct param params\[\]/,/^};/s/^\t{ "\([^"]*\)".*/\1/p' "$TOP/bootlib/cmdline.c"); do
		# An item's heading: "*name=*_VALUE_", "*name*", "*ro*, *rw*".
		grep -Eq "^(\*[a-z._]+\*, )?\*$p[=*[]" "$TOP/docs/man/lifeboat.cmdline.7.scd" || missing="$missing $p"
	done
	[ -z "$missing" ] || { echo "not in docs/man/lifeboat.cmdline.7.scd:$missing"; return 1; }
}

# complete_words WORDS...: what the completion offers for the last word.
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lifeboat; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$TOP/dist/bash-completion/lifeboat" "$@"
}

test_bash_completion() {
	[ "$(complete_words lifeboat ti)" = timeline ] || { echo "'ti' does not complete to timeline"; return 1; }
	complete_words "$LB" build --mic | grep -qx -- --microcode || { echo "--mic: $(complete_words "$LB" build --mic)"; return 1; }
	[ "$(complete_words "$LB" build --microcode a | tr '\n' ' ')" = "auto all " ] || { echo "--microcode values"; return 1; }
	complete_words "$LB" build --kver "" | grep -qx "$(ls /lib/modules | head -n 1)" || { echo "no kernel versions"; return 1; }
}

# A UKI signed through the plugin (lifeboat refuses to sign one without a
# command line): it carries the line kernel-install would use, the conf
# root's cmdline, else (with no /etc/kernel/cmdline on this host) the
# running kernel's without the loader's words.
kernel_install_signed_uki() {
	local plugin=$1 kver=$2 want
	uki_test_keys || { echo "openssl could not make the test key"; return 1; }
	printf '#!/bin/sh\nexec %s "$@" --sign-key %s --sign-cert %s\n' "$LB" "$T/key.pem" "$T/cert.pem" > "$T/lb-signed"
	chmod +x "$T/lb-signed"
	mkdir -p "$T/kiconf" && printf 'root=LABEL=kiroot\nro quiet\n' > "$T/kiconf/cmdline"
	rm -f "$T/staging/uki.efi"
	LIFEBOAT=$T/lb-signed KERNEL_INSTALL_CONF_ROOT=$T/kiconf KERNEL_INSTALL_LAYOUT=uki KERNEL_INSTALL_UKI_GENERATOR=lifeboat \
		KERNEL_INSTALL_STAGING_AREA=$T/staging "$plugin" add "$kver" "$T/boot/entry" "/boot/vmlinuz-$kver" 2>"$T/err" ||
		{ echo "signed UKI through the plugin: $(tail -n 1 "$T/err")"; return 1; }
	objcopy -O binary --only-section=.cmdline "$T/staging/uki.efi" "$T/uki.cmdline" &&
	[ "$(tr -d '\0' < "$T/uki.cmdline")" = "root=LABEL=kiroot ro quiet" ] ||
		{ echo "the signed UKI's .cmdline is '$(tr -d '\0' < "$T/uki.cmdline")'"; return 1; }
	[ ! -e /etc/kernel/cmdline ] && [ ! -e /usr/lib/kernel/cmdline ] || return 0
	rm -f "$T/staging/uki.efi"
	LIFEBOAT=$T/lb-signed KERNEL_INSTALL_LAYOUT=uki KERNEL_INSTALL_UKI_GENERATOR=lifeboat KERNEL_INSTALL_STAGING_AREA=$T/staging \
		"$plugin" add "$kver" "$T/boot/entry" "/boot/vmlinuz-$kver" 2>"$T/err" ||
		{ echo "signed UKI from /proc/cmdline: $(tail -n 1 "$T/err")"; return 1; }
	want=$(tr ' ' '\n' < /proc/cmdline | grep -v -e '^BOOT_IMAGE=' -e '^initrd=' -e '^$' | paste -s -d ' ')
	objcopy -O binary --only-section=.cmdline "$T/staging/uki.efi" "$T/uki.cmdline" &&
	[ "$(tr -d '\0' < "$T/uki.cmdline")" = "$want" ] ||
		{ echo "the UKI's .cmdline is not /proc/cmdline's words: '$(tr -d '\0' < "$T/uki.cmdline")'"; return 1; }
	rm -f "$T/staging/uki.efi"
}

# kernel-install's plugin: bls layout into the staging area, entry directory
# without one, nothing for other layouts or generators, removal.
test_kernel_install_plugin() {
	local plugin=$TOP/dist/kernel-install/50-lifeboat.install kver=$LAYOUT_KVER
	mkdir -p "$T/staging" "$T/boot/entry"
	LIFEBOAT=$LB KERNEL_INSTALL_LAYOUT=bls KERNEL_INSTALL_STAGING_AREA=$T/staging \
		"$plugin" add "$kver" "$T/boot/entry" "/boot/vmlinuz-$kver" 2>"$T/err" || { cat "$T/err"; return 1; }
	"$LB" ls "$T/staging/initrd" | grep -q ' init$' || { echo "no image in the staging area"; return 1; }
	# uki layout, lifeboat the UKI generator: uki.efi with the kernel given.
	rm -f "$T/staging/initrd"
	LIFEBOAT=$LB KERNEL_INSTALL_LAYOUT=uki KERNEL_INSTALL_UKI_GENERATOR=lifeboat KERNEL_INSTALL_STAGING_AREA=$T/staging \
		"$plugin" add "$kver" "$T/boot/entry" "/boot/vmlinuz-$kver" 2>"$T/err" || { cat "$T/err"; return 1; }
	objdump -h "$T/staging/uki.efi" 2>/dev/null | grep -q ' \.linux ' || { echo "no UKI with a .linux section in the staging area"; return 1; }
	[ ! -e "$T/staging/initrd" ] || { echo "the uki layout left an initrd beside the UKI"; return 1; }
	kernel_install_signed_uki "$plugin" "$kver" || return 1
	LIFEBOAT=$LB KERNEL_INSTALL_LAYOUT=bls "$plugin" add "$kver" "$T/boot/entry" "/boot/vmlinuz-$kver" 2>"$T/err" ||
		{ cat "$T/err"; return 1; }
	"$LB" ls "$T/boot/entry/initrd" | grep -q ' init$' || { echo "no image in the entry directory"; return 1; }
	LIFEBOAT=$LB KERNEL_INSTALL_LAYOUT=other "$plugin" add "$kver" "$T/boot/other" "/boot/vmlinuz-$kver" &&
	LIFEBOAT=$LB KERNEL_INSTALL_INITRD_GENERATOR=dracut "$plugin" add "$kver" "$T/boot/other" "/boot/vmlinuz-$kver" &&
	LIFEBOAT=$LB "$plugin" add "$kver" "$T/boot/other" "/boot/vmlinuz-$kver" /boot/given.img || return 1
	[ ! -e "$T/boot/other" ] || { echo "made an image where it must not"; return 1; }
	"$plugin" remove "$kver" "$T/boot/entry" || return 1
	[ ! -e "$T/boot/entry/initrd" ] || { echo "remove left the image"; return 1; }
	LIFEBOAT=/bin/false KERNEL_INSTALL_LAYOUT=bls "$plugin" add "$kver" "$T/boot/entry" x 2>/dev/null &&
		{ echo "a failed build was not reported"; return 1; }
	return 0
}

# Debian's hooks, called as the linux-image package calls them.
test_debian_kernel_hooks() {
	local kver=$LAYOUT_KVER
	mkdir -p "$T/boot" && : > "$T/boot/vmlinuz-$kver"
	DEB_MAINT_PARAMS=configure LIFEBOAT=$LB "$TOP/dist/debian/postinst.d-lifeboat" "$kver" "$T/boot/vmlinuz-$kver" \
		>"$T/out" 2>"$T/err" || { cat "$T/err"; return 1; }
	[ ! -s "$T/out" ] || { echo "the hook wrote to stdout"; return 1; }
	"$LB" ls "$T/boot/initrd.img-$kver" | grep -q ' init$' || { echo "no /boot/initrd.img-$kver"; return 1; }
	# abort-upgrade makes nothing; make install's INSTALL_MOD_PATH is the tree.
	rm "$T/boot/initrd.img-$kver"
	DEB_MAINT_PARAMS="abort-upgrade 1" LIFEBOAT=$LB "$TOP/dist/debian/postinst.d-lifeboat" "$kver" "$T/boot/vmlinuz-$kver" 2>/dev/null
	[ ! -e "$T/boot/initrd.img-$kver" ] || { echo "abort-upgrade made an image"; return 1; }
	make_modtree "$T/mods" "" none || return 1
	INSTALL_MOD_PATH=$T/mods LIFEBOAT=$LB "$TOP/dist/debian/postinst.d-lifeboat" "$kver" "$T/boot/vmlinuz-$kver" 2>"$T/err" ||
		{ cat "$T/err"; return 1; }
	[ "$("$LB" ls "$T/boot/initrd.img-$kver" | grep -c '\.ko')" -lt 30 ] || { echo "INSTALL_MOD_PATH was not used"; return 1; }
	"$TOP/dist/debian/postrm.d-lifeboat" "$kver" "$T/boot/vmlinuz-$kver" 2>/dev/null || return 1
	[ ! -e "$T/boot/initrd.img-$kver" ] || { echo "postrm left the image"; return 1; }
}

# make install puts every file in place; make uninstall removes exactly those.
test_make_install_uninstall() {
	local d=$T/dest n
	make -s -C "$TOP" BUILD="$T/b" install DESTDIR="$d" PREFIX=/usr >/dev/null 2>"$T/err" || { cat "$T/err"; return 1; }
	for f in usr/bin/lifeboat usr/lib/lifeboat/lifeboat-init usr/lib/lifeboat/lifeboat-shutdown \
		 usr/share/man/man8/lifeboat.8 \
		 usr/share/man/man5/lifeboat.conf.5 usr/share/man/man7/lifeboat.cmdline.7 \
		 usr/share/bash-completion/completions/lifeboat usr/lib/kernel/install.d/50-lifeboat.install \
		 etc/kernel/postinst.d/lifeboat etc/kernel/postrm.d/lifeboat; do
		[ -f "$d/$f" ] || { echo "make install did not install /$f"; return 1; }
	done
	touch "$d/etc/kernel/postinst.d/other-package"
	make -s -C "$TOP" BUILD="$T/b" uninstall DESTDIR="$d" PREFIX=/usr >/dev/null 2>&1
	n=$(find "$d" -type f | grep -v other-package)
	[ -z "$n" ] || { echo "left after uninstall: $n"; return 1; }
	[ -f "$d/etc/kernel/postinst.d/other-package" ] || { echo "uninstall removed another package's file"; return 1; }
}
