#!/usr/bin/sh
# tpm-build.sh: the /sbin/init of the TPM2 disk builder (run by
# tests/boot/cases-tpm.sh in a qemu guest with a software TPM attached).
# Makes LUKS2 roots on the empty virtio disks named by their serial and
# enrols them with the real systemd-cryptenroll against that TPM, with the
# parameters in /tpm.env; prints a marker and powers off.
BUILDER=TPM-BUILD
. /builder-lib.sh
. /tpm.env
[ -e /dev/tpmrm0 ] || fail "no /dev/tpmrm0 (is the TPM attached?)"
# luksroot SERIAL LUKS-UUID FS-LABEL FS-UUID: a LUKS2 container holding a test root.
luksroot() {
	dev=$(disk "$1")
	printf '%s' "$LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --uuid "$2" --key-file=- "$dev" || fail "luksFormat $dev"
	printf '%s' "$LUKS_PW" | cryptsetup open --key-file=- "$dev" lbtpm || fail "open $dev"
	mke2fs.e2fs -q -F -t ext4 -L "$3" -U "$4" -d /stackroot /dev/mapper/lbtpm || fail "mke2fs on $dev"
	cryptsetup close lbtpm || fail "close $dev"
}
# The PCR the tokens are bound to, as the firmware measured it here.
echo "TPM-BUILD: PCR $TPM_PCR sha256 $(cat /sys/class/tpm/tpm0/pcr-sha256/$TPM_PCR 2>/dev/null)"
luksroot tpmroot "$UUID_TPM" lbtpmfs "$UUID_TPM_FS"
PASSWORD=$LUKS_PW systemd-cryptenroll --tpm2-device=auto --tpm2-pcrs="$TPM_PCR" "$(disk tpmroot)" ||
	fail "systemd-cryptenroll tpmroot"
luksroot tpmpin "$UUID_TPM_PIN" lbtpmpinfs "$UUID_TPM_PIN_FS"
PASSWORD=$LUKS_PW NEWPIN=$TPM_PIN systemd-cryptenroll --tpm2-device=auto --tpm2-pcrs="$TPM_PCR" \
	--tpm2-with-pin=yes "$(disk tpmpin)" || fail "systemd-cryptenroll --tpm2-with-pin tpmpin"
# A swap in a TPM2-bound container, its own UUID fixed (to resume from).
dev=$(disk tpmswap)
printf '%s' "$LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --uuid "$UUID_TPM_SWAP" --key-file=- "$dev" || fail "luksFormat $dev"
printf '%s' "$LUKS_PW" | cryptsetup open --key-file=- "$dev" lbtpmswap || fail "open $dev"
mkswap.util -U "$UUID_TPM_SWAP_INNER" /dev/mapper/lbtpmswap || fail "mkswap in $dev"
cryptsetup close lbtpmswap || fail "close $dev"
PASSWORD=$LUKS_PW systemd-cryptenroll --tpm2-device=auto --tpm2-pcrs="$TPM_PCR" "$dev" ||
	fail "systemd-cryptenroll tpmswap"
# A kdump dump disk: an empty ext4 in a TPM2-bound container.
dev=$(disk tpmdump)
printf '%s' "$LUKS_PW" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --uuid "$UUID_TPM_DUMP" --key-file=- "$dev" || fail "luksFormat $dev"
printf '%s' "$LUKS_PW" | cryptsetup open --key-file=- "$dev" lbtpmdump || fail "open $dev"
mke2fs.e2fs -q -F -t ext4 -L lbtpmdump -U "$UUID_TPM_DUMP_FS" /dev/mapper/lbtpmdump || fail "mke2fs in $dev"
cryptsetup close lbtpmdump || fail "close $dev"
PASSWORD=$LUKS_PW systemd-cryptenroll --tpm2-device=auto --tpm2-pcrs="$TPM_PCR" "$dev" ||
	fail "systemd-cryptenroll tpmdump"
# What the init will run, tried here once (the token opens without a passphrase).
cryptsetup open --test-passphrase --token-only "$(disk tpmroot)" && echo "TPM-BUILD: token opens"
printf '%s\n' "$TPM_PIN" | cryptsetup open --test-passphrase --token-only "$(disk tpmpin)" &&
	echo "TPM-BUILD: pin token opens with the PIN on stdin"
sync
echo "TPM-BUILD: done"
poweroff -f
