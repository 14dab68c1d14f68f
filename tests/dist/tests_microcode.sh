# tests_microcode.sh: --microcode with synthetic intel-ucode/ and amd-ucode/
# directories (Debian's intel-microcode and amd64-microcode are in
# non-free-firmware, which the test machines may not reach). Sourced by run.sh.
source "$TOP/tests/dist/layout_lib.sh"

make_ucode() {
	mkdir -p "$T/fw/intel-ucode" "$T/fw/amd-ucode"
	printf 'INTEL-A' > "$T/fw/intel-ucode/06-8e-0a"
	printf 'INTEL-B' > "$T/fw/intel-ucode/06-9e-0d"
	printf 'AMD-17' > "$T/fw/amd-ucode/microcode_amd_fam17h.bin"
	printf 'AMD-19' > "$T/fw/amd-ucode/microcode_amd_fam19h.bin"
	make_modtree "$T/mods" "" none
}

# The early archive is the image's first bytes, uncompressed, its members
# the kernel's names; the rest still lists.
test_microcode_all_first_uncompressed() {
	make_ucode || return 1
	"$LB" build --config /dev/null --generic --kmoddir "$T/mods" --firmware-dirs "$T/fw" \
		--microcode all -o "$T/img" 2>"$T/err" || { cat "$T/err"; return 1; }
	[ "$(head -c 6 "$T/img")" = 070701 ] || { echo "the image does not start with a newc cpio"; return 1; }
	# cpio reads only the first archive: exactly the early one.
	(cd "$T" && mkdir x && cd x && cpio -id --quiet < "$T/img") || { echo "cpio cannot read it"; return 1; }
	[ "$(cat "$T/x/kernel/x86/microcode/GenuineIntel.bin")" = INTEL-AINTEL-B ] ||
		{ echo "GenuineIntel.bin is not both Intel files in order"; return 1; }
	[ "$(cat "$T/x/kernel/x86/microcode/AuthenticAMD.bin")" = AMD-17AMD-19 ] ||
		{ echo "AuthenticAMD.bin is not both AMD files"; return 1; }
	[ ! -e "$T/x/init" ] || { echo "the early archive holds /init"; return 1; }
	"$LB" ls "$T/img" | grep -q ' init$' || { echo "lifeboat ls does not see the main archive"; return 1; }
}

# Host-only images carry only this machine's CPU's file.
test_microcode_host_only() {
	local vendor family model stepping want
	make_ucode || return 1
	vendor=$(sed -n 's/^vendor_id\s*: //p' /proc/cpuinfo | head -n 1)
	family=$(sed -n 's/^cpu family\s*: //p' /proc/cpuinfo | head -n 1)
	model=$(sed -n 's/^model\s*: //p' /proc/cpuinfo | head -n 1)
	stepping=$(sed -n 's/^stepping\s*: //p' /proc/cpuinfo | head -n 1)
	case $vendor in
	GenuineIntel) want=GenuineIntel.bin
		printf 'HOST' > "$T/fw/intel-ucode/$(printf '%02x-%02x-%02x' "$family" "$model" "$stepping")" ;;
	AuthenticAMD) want=AuthenticAMD.bin
		[ "$family" -ge 21 ] && printf 'HOST' > "$T/fw/amd-ucode/$(printf 'microcode_amd_fam%02xh.bin' "$family")" ||
			printf 'HOST' > "$T/fw/amd-ucode/microcode_amd.bin" ;;
	*) echo "not an x86 build host ($vendor): nothing to check"; return 1 ;;
	esac
	"$LB" build --config /dev/null --host-only --kmoddir "$T/mods" --firmware-dirs "$T/fw" \
		-o "$T/img" 2>"$T/err" || { cat "$T/err"; return 1; }
	(cd "$T" && mkdir x && cd x && cpio -id --quiet < "$T/img") || return 1
	[ "$(ls "$T/x/kernel/x86/microcode")" = "$want" ] || { echo "early files: $(ls "$T/x/kernel/x86/microcode")"; return 1; }
	[ "$(cat "$T/x/kernel/x86/microcode/$want")" = HOST ] || { echo "not the host's file"; return 1; }
}

test_microcode_none() {
	make_ucode || return 1
	"$LB" build --config /dev/null --generic --kmoddir "$T/mods" --firmware-dirs "$T/fw" \
		--microcode none -o "$T/img" 2>"$T/err" || { cat "$T/err"; return 1; }
	! "$LB" ls "$T/img" | grep -q microcode || { echo "microcode in a --microcode none image"; return 1; }
	"$LB" build --config /dev/null --microcode sometimes -o "$T/img" 2>"$T/err" && return 1
	grep -q "bad value 'sometimes' for microcode" "$T/err" || { cat "$T/err"; return 1; }
}
