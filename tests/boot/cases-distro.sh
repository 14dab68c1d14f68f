# cases-distro.sh: boots of images made from modules trees laid out as other
# distributions lay them out (sourced by run.sh). The tree is made from the
# installed kernel's modules (tests/dist/layout_lib.sh).

# Fedora, Arch, openSUSE: modules compressed, some .ko.xz some .ko.zst, only
# under /usr/lib/modules; the image must load them and reach the root.
case_compressed_modules_usr_tree() {
	local root=$CASE_DIR/tree img=$CASE_DIR/compressed.img
	LB=$BUILD/lifeboat
	LAYOUT_KVER=$KVER
	source "$TOP/tests/dist/layout_lib.sh"
	make_modtree "$root" usr mixed >/dev/null || { echo "making the modules tree failed"; return 1; }
	ls "$root"/usr/lib/modules/"$KVER"/kernel/fs/ext4/ext4.ko.* >/dev/null || return 1
	"$BUILD/lifeboat" build --config /dev/null --generic --kmoddir "$root" -o "$img" ||
		{ echo "lifeboat build from $root failed"; return 1; }
	boot_ok "$img" "root=LABEL=lbext4" ext4.img virtio-blk &&
	assert_log "$CASE_DIR/console.log" "rootmount /dev/vda ext4"
}
