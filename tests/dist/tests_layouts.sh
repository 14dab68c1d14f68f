# tests_layouts.sh: images from modules trees and library directories as
# other distributions lay them out, checked with `lifeboat ls`. Sourced by run.sh.
source "$TOP/tests/dist/layout_lib.sh"

# build_from_tree ROOT IMAGE [OPTIONS...]: a generic image from a synthetic tree.
build_from_tree() {
	local root=$1 img=$2
	shift 2
	"$LB" build --config /dev/null --generic --kmoddir "$root" -o "$img" "$@" 2>"$T/build.log" ||
		{ echo "build failed:"; cat "$T/build.log"; return 1; }
}

# Every module of the tree is in the image, under /lib/modules/KVER, and the
# table names each.
check_modules_in() {
	local img=$1 m
	for m in virtio_blk virtio_pci virtio_ring ext4 jbd2 mbcache crc16 crc32c_generic; do
		image_modules "$img" | grep -q "/$m\.ko" || { echo "module $m not in $img:"; image_modules "$img"; return 1; }
	done
	"$LB" ls "$img" | grep -q "lib/lifeboat/modules.tab" || { echo "no module table"; return 1; }
}

test_layout_modules_xz() {
	make_modtree "$T/root" "" xz || return 1
	ls "$T/root/lib/modules/$LAYOUT_KVER/kernel/fs/ext4/ext4.ko.xz" >/dev/null || return 1
	build_from_tree "$T/root" "$T/img" && check_modules_in "$T/img"
}

test_layout_modules_zst() {
	make_modtree "$T/root" "" zst || return 1
	ls "$T/root/lib/modules/$LAYOUT_KVER/kernel/fs/ext4/ext4.ko.zst" >/dev/null || return 1
	build_from_tree "$T/root" "$T/img" && check_modules_in "$T/img"
}

# Arch, openSUSE Tumbleweed, Fedora: modules only under /usr/lib/modules.
test_layout_usr_lib_modules_only() {
	make_modtree "$T/root" usr mixed || return 1
	[ ! -e "$T/root/lib" ] || { echo "the tree has a /lib"; return 1; }
	build_from_tree "$T/root" "$T/img" && check_modules_in "$T/img"
}

# The kernel version directory itself as --kmoddir, and --kver picking one
# of two kernels in a tree.
test_layout_two_kernels() {
	make_modtree "$T/root" "" none || return 1
	cp -a "$T/root/lib/modules/$LAYOUT_KVER" "$T/root/lib/modules/9.9.9-other"
	"$LB" build --config /dev/null --generic --kmoddir "$T/root" -o "$T/img" 2>"$T/err" &&
		{ echo "two kernels without --kver was accepted"; return 1; }
	grep -q "several kernels; choose one with --kver" "$T/err" || { cat "$T/err"; return 1; }
	build_from_tree "$T/root" "$T/img" --kver "$LAYOUT_KVER" && check_modules_in "$T/img" &&
	build_from_tree "$T/root/lib/modules/$LAYOUT_KVER" "$T/img2" && check_modules_in "$T/img2"
}

# -v says why each module and firmware file is there, and sizes by kind that
# add up to the total.
test_build_verbose_sizes() {
	local sum=0 total kind v
	make_modtree "$T/root" "" none || return 1
	mkdir -p "$T/fw/qlogic"
	head -c 3000 /dev/urandom > "$T/fw/qlogic/1040.bin"
	build_from_tree "$T/root" "$T/img" -v --firmware-dirs "$T/fw" || return 1
	grep -q "^lifeboat: module ext4: " "$T/build.log" || { echo "no reason for ext4"; cat "$T/build.log"; return 1; }
	grep -q "^lifeboat: firmware $T/fw/qlogic/1040.bin: declared by module qla1280" "$T/build.log" ||
		{ echo "no firmware line"; cat "$T/build.log"; return 1; }
	for kind in other modules firmware libraries binaries; do
		v=$(sed -n "s/^lifeboat:   $kind  *\([0-9]*\) bytes$/\1/p" "$T/build.log")
		[ -n "$v" ] || { echo "no size for $kind"; cat "$T/build.log"; return 1; }
		[ "$kind" = other ] || [ "$v" -gt 0 ] || { echo "$kind: 0 bytes"; return 1; }
		sum=$((sum + v))
	done
	[ "$(sed -n 's/^lifeboat:   firmware  *\([0-9]*\) bytes$/\1/p' "$T/build.log")" = 3000 ] ||
		{ echo "firmware is not the 3000 bytes given"; return 1; }
	total=$(sed -n 's/.*(\([0-9]*\) bytes of content)$/\1/p' "$T/build.log")
	[ "$sum" = "$total" ] || { echo "kinds sum to $sum, total is $total"; return 1; }
}

# make_libtree ROOT LIBDIR LINK: a program ROOT/bin/demo using libdemo.so.1,
# installed in ROOT/LIBDIR, found through RUNPATH ROOT/LINK (LINK may differ
# from LIBDIR through a symlink, as /lib64 -> usr/lib64).
make_libtree() {
	local root=$1 libdir=$2 link=$3
	mkdir -p "$root/$libdir" "$root/bin"
	echo 'int demo(void) { return 7; }' > "$T/demo.c"
	echo 'int demo(void); int main(void) { return demo(); }' > "$T/main.c"
	gcc -shared -fPIC -Wl,-soname,libdemo.so.1 -o "$root/$libdir/libdemo.so.1.0" "$T/demo.c" &&
	ln -s libdemo.so.1.0 "$root/$libdir/libdemo.so.1" &&
	gcc -o "$root/bin/demo" "$T/main.c" "$root/$libdir/libdemo.so.1.0" \
		-Wl,--enable-new-dtags,-rpath,"$root/$link"
}

# ls_has IMAGE REGEX: a line of `lifeboat ls` matches.
ls_has() {
	"$LB" ls "$1" | grep -Eq -- "$2" || { echo "lifeboat ls $1 lacks /$2/:"; "$LB" ls "$1" | grep -F "${T#/}" | head; return 1; }
}

build_with_demo() {
	make_modtree "$T/mods" "" none &&
	build_from_tree "$T/mods" "$T/img" --add-binaries "$T/root/bin/demo"
}

# Debian, Ubuntu: multiarch directories, /lib a symlink to usr/lib.
test_layout_multiarch_merged_usr() {
	mkdir -p "$T/root/usr/lib" && ln -s usr/lib "$T/root/lib" &&
	make_libtree "$T/root" usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu && build_with_demo &&
	ls_has "$T/img" "^l.* ${T#/}/root/lib -> usr/lib$" &&
	ls_has "$T/img" " ${T#/}/root/usr/lib/x86_64-linux-gnu/libdemo.so.1.0$" &&
	ls_has "$T/img" " ${T#/}/root/usr/lib/x86_64-linux-gnu/libdemo.so.1 -> libdemo.so.1.0$" &&
	ls_has "$T/img" "^-rwx.* ${T#/}/root/bin/demo$"
}

# Fedora, openSUSE: lib64, /lib64 a symlink to usr/lib64.
test_layout_lib64() {
	mkdir -p "$T/root/usr/lib64" && ln -s usr/lib64 "$T/root/lib64" &&
	make_libtree "$T/root" usr/lib64 lib64 && build_with_demo &&
	ls_has "$T/img" "^l.* ${T#/}/root/lib64 -> usr/lib64$" &&
	ls_has "$T/img" " ${T#/}/root/usr/lib64/libdemo.so.1.0$"
}

# Debian before bookworm, Slackware, Gentoo: /lib and /usr/lib apart.
test_layout_non_merged_usr() {
	make_libtree "$T/root" lib/x86_64-linux-gnu lib/x86_64-linux-gnu && build_with_demo &&
	ls_has "$T/img" "^d.* ${T#/}/root/lib$" &&
	ls_has "$T/img" " ${T#/}/root/lib/x86_64-linux-gnu/libdemo.so.1.0$" &&
	! "$LB" ls "$T/img" | grep -q "${T#/}/root/usr" || { echo "a /usr appeared in the image"; return 1; }
}
