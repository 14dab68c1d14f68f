# tests_uki.sh: what lifeboat build --uki refuses before signing, and that a
# refused or failed signing leaves no file behind (the Secure Boot boot is
# tests/boot/cases-uki.sh's). Sourced by run.sh.

uki_kver() {
	ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V | tail -n 1
}

# A throwaway signing pair in $T; with a passphrase when $1 is given.
uki_test_keys() {
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=lifeboat-dist -days 1 \
		-keyout "$T/key.pem" -out "$T/cert.pem" >/dev/null 2>&1 || return 1
	[ -z "${1:-}" ] || { openssl pkey -in "$T/key.pem" -aes256 -passout "pass:$1" -out "$T/enc.pem" 2>/dev/null &&
		mv "$T/enc.pem" "$T/key.pem"; }
}

# build EXPECTED_STATUS ARGS...: lifeboat build --uki into $T/out, with no
# terminal (setsid, stdin from /dev/null), as from a kernel hook.
uki_build_status() {
	local want=$1 rc
	shift
	mkdir -p "$T/out"
	setsid "$LB" build --config /dev/null --generic --kver "$(uki_kver)" --uki -o "$T/out/lifeboat.efi" \
		"$@" </dev/null >"$T/log" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit status $rc, not $want: $(grep -v firmware "$T/log" | tail -n 2)"; return 1; }
}

uki_nothing_left() {
	[ -z "$(ls -A "$T/out")" ] || { echo "left behind: $(ls -A "$T/out" | tr '\n' ' ')"; return 1; }
}

# Signed without a command line is refused (usage error) before anything is
# built, for an empty --cmdline and, on a host without kernel-install's
# files, for none at all; --uki-loader-cmdline makes it, signed, with no
# .cmdline section.
test_uki_signed_needs_cmdline() {
	uki_test_keys || { echo "openssl could not make the test key"; return 1; }
	uki_build_status 2 --cmdline '' --sign-key "$T/key.pem" --sign-cert "$T/cert.pem" || return 1
	grep -q 'refusing to sign a unified kernel image without a command line' "$T/log" ||
		{ echo "no refusal: $(tail -n 1 "$T/log")"; return 1; }
	uki_nothing_left || return 1
	if [ ! -e /etc/kernel/cmdline ] && [ ! -e /usr/lib/kernel/cmdline ]; then
		uki_build_status 2 --sign-key "$T/key.pem" --sign-cert "$T/cert.pem" && uki_nothing_left || return 1
	fi
	uki_build_status 2 --uki-loader-cmdline --cmdline 'root=LABEL=x' || return 1
	uki_build_status 0 --uki-loader-cmdline --sign-key "$T/key.pem" --sign-cert "$T/cert.pem" || return 1
	[ "$(sbverify --cert "$T/cert.pem" "$T/out/lifeboat.efi" 2>&1)" = "Signature verification OK" ] ||
		{ echo "the --uki-loader-cmdline image does not verify"; return 1; }
	! objdump -h "$T/out/lifeboat.efi" | grep -q ' \.cmdline ' || { echo "--uki-loader-cmdline wrote a .cmdline section"; return 1; }
}

# A key with a passphrase and no terminal: the message says so, nothing is
# built; a key sbsign cannot use leaves neither the image nor its
# temporary files.
test_uki_sign_key_passphrase() {
	uki_test_keys lifeboat || { echo "openssl could not make the test key"; return 1; }
	uki_build_status 2 --cmdline ro --sign-key "$T/key.pem" --sign-cert "$T/cert.pem" || return 1
	grep -q "signing key $T/key.pem is protected by a passphrase, and there is no terminal" "$T/log" ||
		{ echo "the message does not name the passphrase: $(tail -n 1 "$T/log")"; return 1; }
	uki_nothing_left || return 1
	printf -- '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n' > "$T/garbage.pem"
	uki_build_status 1 --cmdline ro --sign-key "$T/garbage.pem" --sign-cert "$T/cert.pem" || return 1
	grep -q "sbsign could not sign" "$T/log" || { echo "no sbsign failure reported: $(tail -n 1 "$T/log")"; return 1; }
	uki_nothing_left
}
