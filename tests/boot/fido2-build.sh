#!/usr/bin/sh
# fido2-build.sh: the /sbin/init of the FIDO2 disk builder (run by
# tests/boot/cases-fido2.sh in a qemu guest with uhid loaded). Makes LUKS2
# roots on the empty virtio disks named by their serial and enrols them
# with the real systemd-cryptenroll against softfido (tests/softfido), the
# project's software authenticator on /dev/uhid; one state file (one
# authenticator) per disk, handed back in a tar on the disk "fido2state".
# Tries what the init will run and prints cryptsetup's words; powers off.
BUILDER=FIDO2-BUILD
. /builder-lib.sh
. /fido2.env
[ -e /dev/uhid ] || fail "no /dev/uhid (is uhid loaded: rd.driver.pre=uhid,hid_generic?)"
mkdir -p /fido
# luksroot SERIAL LUKS-UUID FS-LABEL FS-UUID: a LUKS2 container holding a test root.
luksroot() {
	dev=$(disk "$1")
	printf '%s' "$LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --uuid "$2" --key-file=- "$dev" || fail "luksFormat $dev"
	printf '%s' "$LUKS_PW" | cryptsetup open --key-file=- "$dev" lbfido2 || fail "open $dev"
	mke2fs.e2fs -q -F -t ext4 -L "$3" -U "$4" -d /stackroot /dev/mapper/lbfido2 || fail "mke2fs on $dev"
	cryptsetup close lbfido2 || fail "close $dev"
}
# key_start STATE [ARGS]: softfido on STATE, waited for until its hidraw is there.
key_start() {
	softfido --state "/fido/$1.state" --always-present $2 &
	KEY=$!
	i=0
	while ! ls /sys/class/hidraw/hidraw* >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 50 ] && fail "softfido made no hidraw device"
		sleep 0.1
	done
}
key_stop() {
	kill "$KEY"
	wait "$KEY"
	while ls /sys/class/hidraw/hidraw* >/dev/null 2>&1; do sleep 0.1; done
}
# try WHAT ARGS...: cryptsetup open --test-passphrase --token-only, its words shown.
try() {
	what=$1
	shift
	out=$(cryptsetup open --test-passphrase --token-only "$@" 2>&1 </tmp/pin)
	echo "FIDO2-BUILD: $what: exit $? said: $(echo "$out" | tr '\n' '|')"
}
luksroot fido2root "$UUID_FIDO2" lbfido2fs "$UUID_FIDO2_FS"
key_start plain
PASSWORD=$LUKS_PW systemd-cryptenroll --fido2-device=auto --fido2-with-client-pin=no \
	"$(disk fido2root)" || fail "systemd-cryptenroll --fido2-device fido2root"
: >/tmp/pin
try "token, key present" "$(disk fido2root)"
key_stop
try "token, no key" "$(disk fido2root)"
luksroot fido2pin "$UUID_FIDO2_PIN" lbfido2pinfs "$UUID_FIDO2_PIN_FS"
key_start pin "--initial-pin $FIDO2_PIN"
# systemd 252's cryptenroll takes the key's PIN from the credential
# fido2-pin (it has no $PIN for it; no terminal and no agent here).
mkdir -p /run/creds && printf '%s' "$FIDO2_PIN" >/run/creds/fido2-pin
PASSWORD=$LUKS_PW CREDENTIALS_DIRECTORY=/run/creds systemd-cryptenroll --fido2-device=auto \
	--fido2-with-client-pin=yes "$(disk fido2pin)" || fail "systemd-cryptenroll --fido2-with-client-pin fido2pin"
rm -rf /run/creds
: >/tmp/pin
try "pin token, no PIN" "$(disk fido2pin)"
printf 'wrong-%s\n' "$FIDO2_PIN" >/tmp/pin
try "pin token, wrong PIN on stdin" "$(disk fido2pin)"
printf '%s\n' "$FIDO2_PIN" >/tmp/pin
try "pin token, PIN on stdin" "$(disk fido2pin)"
rm -f /tmp/pin
key_stop
tar cf "$(disk fido2state)" -C /fido plain.state pin.state || fail "tar of the state files"
sync
echo "FIDO2-BUILD: done"
poweroff -f
