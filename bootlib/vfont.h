/* vfont: the console font of the screen's terminals, loaded before any
 * prompt (docs/input.md). */
#ifndef LIFEBOAT_BOOTLIB_VFONT_H
#define LIFEBOAT_BOOTLIB_VFONT_H

#include <stddef.h>

/* Load the font the image carries under name (LAYOUT_FONT_DIR, a PSF1 or
 * PSF2 file put there by the generator) into the kernel's console with
 * KDFONTOP, and its Unicode table with PIO_UNIMAP. Returns 0, -ENOENT when
 * the image has no such font, -ENOTTY when the kernel has no virtual
 * terminal, or -errno; why says what failed and what to do, or, on
 * success, what was loaded. */
int vfont_load(const char *name, char *why, size_t size);

#endif
