# layout_lib.sh: synthetic module trees and library directories laid out as
# distributions lay them out, made from the installed Debian kernel's
# modules. Sourced by tests/dist/run.sh and tests/boot/cases-distro.sh.

LAYOUT_KVER=${LAYOUT_KVER:-$(ls /lib/modules | sort -V | tail -n 1)}
# What a virtio-blk ext4 root needs (with dependencies), and one module that
# declares firmware.
LAYOUT_MODULES="virtio_blk virtio_pci ext4 crc32c_generic qla1280"

# make_modtree ROOT MODBASE COMPRESS: the modules at ROOT/MODBASE/lib/modules/KVER
# (MODBASE "" for /lib/modules, "usr" for /usr/lib/modules), each compressed
# by COMPRESS (none, xz, zst, or mixed: xz and zst in turn), then depmod
# run on that tree as the distribution's kernel package would.
make_modtree() {
	local root=$1 base=$2 compress=$3 src=/lib/modules/$LAYOUT_KVER dst f n=0 c
	dst=$root/${base:+$base/}lib/modules/$LAYOUT_KVER
	mkdir -p "$dst"
	cp "$src"/modules.order "$src"/modules.builtin "$src"/modules.builtin.modinfo "$dst"/
	# One module a call: modprobe takes the words after the first as parameters.
	for f in $(for m in $LAYOUT_MODULES; do modprobe -S "$LAYOUT_KVER" --show-depends "$m"; done |
		   awk '$1 == "insmod" { print $2 }' | sort -u); do
		mkdir -p "$dst/$(dirname "${f#"$src"/}")"
		cp "$f" "$dst/${f#"$src"/}"
		c=$compress
		[ "$c" = mixed ] && { [ $((n % 2)) = 0 ] && c=xz || c=zst; }
		n=$((n + 1))
		case $c in
		xz)  xz --check=crc32 "$dst/${f#"$src"/}" ;;
		zst) zstd -q --rm "$dst/${f#"$src"/}" ;;
		esac
	done
	depmod -b "$root${base:+/$base}" "$LAYOUT_KVER"
}

# image_modules IMAGE: the module paths `lifeboat ls` shows, one a line.
image_modules() {
	"$LB" ls "$1" | awk '{ print $NF }' | grep '\.ko' | sort -u
}
