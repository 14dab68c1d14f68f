# cases-pkcs11.sh: a LUKS2 root unlocked by its systemd-pkcs11 token
# (systemd-cryptenroll --pkcs11-token-uri), against softhsm2 as the
# PKCS#11 token: the token's PIN asked on the console (a wrong one said and
# asked again), and the fallback to the passphrase when the token is not
# there (sourced by run.sh; helpers of cases-stacks.sh and cases-rescue.sh).
#
# No builder guest: enrolling only adds a keyslot and a token to the LUKS2
# header, which systemd-cryptenroll does on an image file without
# device-mapper. The container is a copy of the stack builder's LUKS root
# (cases-stacks.sh); the token is a softhsm2 token made on the host with
# softhsm2-util (the token), p11tool (an RSA key on it) and certtool (a
# self-signed certificate for that key, which systemd-cryptenroll encrypts
# the new key to), all of Debian 12. The image under test is built with
# --pkcs11, which packs the host's p11-kit modules (softhsm2's among them);
# a hooks.d request adds the token's files and a softhsm2.conf naming them,
# and a pre-udev boot script that removes the token when
# lbtest.pkcs11=absent (the card pulled out).

PKCS11_PIN=lifeboat-pkcs11-pin-4711
PKCS11_SO_PIN=lifeboat-pkcs11-so-4711
PKCS11_URI='pkcs11:token=lifeboat-test'
PKCS11_TOKENS=/etc/lbtest-pkcs11/tokens

# pkcs11_enrol DIR: a softhsm2 token in DIR/tokens with a key and its
# certificate, and DIR/pkcs11root.img enrolled against it.
pkcs11_enrol() (
	local dir=$1
	export SOFTHSM2_CONF=$dir/softhsm2.conf GNUTLS_PIN=$PKCS11_PIN GNUTLS_SO_PIN=$PKCS11_SO_PIN
	set -e
	mkdir -p "$dir/tokens"
	printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' \
		"$dir/tokens" >"$SOFTHSM2_CONF"
	softhsm2-util --init-token --free --label lifeboat-test --so-pin "$PKCS11_SO_PIN" \
		--pin "$PKCS11_PIN" >/dev/null
	p11tool --login --generate-privkey=rsa --bits=2048 --label=luks --id=01 \
		--outfile="$dir/pub.pem" "$PKCS11_URI" 2>/dev/null
	printf 'cn = lifeboat test\nexpiration_days = 3650\nsigning_key\nencryption_key\n' \
		>"$dir/cert.tmpl"
	certtool --generate-self-signed --load-privkey "$PKCS11_URI;object=luks;type=private" \
		--template "$dir/cert.tmpl" --outfile "$dir/cert.pem" 2>/dev/null
	p11tool --login --write --load-certificate="$dir/cert.pem" --label=luks --id=01 \
		"$PKCS11_URI" >/dev/null
	PASSWORD=$LUKS_PW PIN=$PKCS11_PIN systemd-cryptenroll --pkcs11-token-uri="$PKCS11_URI" \
		"$dir/pkcs11root.img" </dev/null
)

# The enrolled disk and its token, once per stacked disk and enrolment.
pkcs11_disks() {
	local key dir
	key=$( (basename "$STACKS"; declare -f pkcs11_enrol; echo "$PKCS11_PIN $PKCS11_URI") |
		sha256sum | cut -c1-16)
	dir=$(builder_cache pkcs11-disks "$key")
	PKCS11_DIR=$dir
	(
		flock 9
		[ -e "$dir/done" ] && exit 0
		rm -rf "$dir/tokens" && cp --sparse=always "$STACKS/luks.img" "$dir/pkcs11root.img"
		pkcs11_enrol "$dir" >"$dir/enrol.log" 2>&1 ||
			{ echo "enrolling the PKCS#11 token failed (see $dir/enrol.log)"; exit 1; }
		pkcs11_hooks "$dir"
		touch "$dir/done"
	) 9>"$dir.lock"
}

# pkcs11_hooks DIR: the hook the image under test is built with: the
# token's files, a softhsm2.conf naming them, and a pre-udev script that
# removes them for lbtest.pkcs11=absent (the token pulled out).
pkcs11_hooks() {
	local dir=$1 s=$1/pull-token f
	mkdir -p "$dir/hooks"
	printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' \
		"$PKCS11_TOKENS" >"$dir/softhsm2.image.conf"
	cat >"$s" <<-SCRIPT
	#!/bin/sh
	# lbtest.pkcs11=absent: the token is not there.
	grep -q 'lbtest.pkcs11=absent' /proc/cmdline && rm -rf $PKCS11_TOKENS/*
	exit 0
	SCRIPT
	{
		echo "#!/bin/sh"
		echo "echo 'file $dir/softhsm2.image.conf /etc/softhsm/softhsm2.conf'"
		(cd "$dir/tokens" && find . -type f) | while read -r f; do
			echo "echo 'file $dir/tokens/${f#./} $PKCS11_TOKENS/${f#./}'"
		done
		echo "echo 'script pre-udev $s'"
	} >"$dir/hooks/50-softhsm2"
	chmod 0755 "$dir/hooks" "$dir/hooks/50-softhsm2" "$s"
}

# The image under test: --block-stacks --pkcs11 (softhsm2's module comes
# from the host's p11-kit configuration) with the token's hook; named by
# the enrolment's key, so a new token gets a new image.
pkcs11_image() {
	IMG_PKCS11=$(cached_image "pkcs11-$(basename "$PKCS11_DIR")" --generic --block-stacks \
		--pkcs11 --hooks-dir "$PKCS11_DIR/hooks") || { echo "$IMG_PKCS11"; return 1; }
}

pkcs11_setup() {
	stacks_disks && pkcs11_disks && pkcs11_image
}

# The token's PIN is asked (not the passphrase): a wrong one is refused by
# the token and said, the right one opens the root; neither PIN nor
# passphrase appears on the console.
case_pkcs11_pin() {
	local rc
	pkcs11_setup || return 1
	cp --sparse=always "$PKCS11_DIR/pkcs11root.img" "$CASE_DIR/pkcs11root.img"
	rescue_start "$IMG_PKCS11" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=90" \
		$(virtio_disk "$CASE_DIR/pkcs11root.img")
	{
		expect "/dev/vda \(LUKS UUID=$UUID_LUKS\) is bound to a PKCS#11 token \(smart card\) with a PIN" 90 &&
		expect 'PKCS#11 token PIN \(try 1 of 3\)' 10 &&
		type_line "wrong-$PKCS11_PIN" &&
		expect "the PKCS#11 token refused the PIN for /dev/vda \(UUID=$UUID_LUKS\)" 60 &&
		expect 'PKCS#11 token PIN \(try 2 of 3\)' 10 &&
		type_line "$PKCS11_PIN" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" 'rootmount /dev/dm-0 ext4' &&
	assert_log "$CASE_DIR/console.log" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with its PKCS#11 token and its PIN" &&
	assert_not_log "$CASE_DIR/console.log" 'Passphrase' &&
	assert_not_log "$CASE_DIR/console.log" "$PKCS11_PIN" &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}

# The token is not there: one line names the device, the token's URI and
# what to do, no PIN is asked, and the passphrase opens it.
case_pkcs11_no_token() {
	local rc
	pkcs11_setup || return 1
	cp --sparse=always "$PKCS11_DIR/pkcs11root.img" "$CASE_DIR/pkcs11root.img"
	rescue_start "$IMG_PKCS11" "root=UUID=$UUID_LUKS_FS rd.luks.uuid=$UUID_LUKS rd.timeout=90 lbtest.pkcs11=absent" \
		$(virtio_disk "$CASE_DIR/pkcs11root.img")
	{
		expect "the PKCS#11 token of /dev/vda \(LUKS UUID=$UUID_LUKS\) did not open it: no PKCS#11 token matching pkcs11:token=lifeboat-test is there \(plug in the smart card or token it was enrolled with and reboot, or type the passphrase\); asking for its passphrase instead" 90 &&
		expect 'Passphrase \(try 1 of 3\)' 10 &&
		type_line "$LUKS_PW" &&
		expect '^LIFEBOAT-TEST: end' 90
	}
	rc=$?
	rescue_stop $rc
	[ $rc -eq 0 ] || return 1
	assert_log "$CASE_DIR/console.log" "opened /dev/vda (LUKS UUID=$UUID_LUKS) as /dev/mapper/luks-$UUID_LUKS with a passphrase" &&
	assert_not_log "$CASE_DIR/console.log" 'PKCS#11 token PIN' &&
	assert_not_log "$CASE_DIR/console.log" "$LUKS_PW"
}
