/* vconsole: the keyboard layout of the screen's terminals, loaded before
 * any prompt (docs/input.md). */
#ifndef LIFEBOAT_VCONSOLE_H
#define LIFEBOAT_VCONSOLE_H

#include <stddef.h>

/* Load the keymap the image carries under name (LAYOUT_KEYMAP_DIR, made
 * by the generator with `loadkeys -b`) into the kernel, an entry at a time
 * with KDSKBENT. The kernel's keymap is one for every virtual terminal and
 * every keyboard, those that appear later too. Returns 0, -ENOENT when the
 * image has no such keymap, -ENOTTY when the kernel has no virtual
 * terminal, or -errno; why says what failed and what to do. */
int vconsole_keymap_load(const char *name, char *why, size_t size);

#endif
