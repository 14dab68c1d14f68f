/* vconsole: the keyboard layout of the screen's terminals, loaded before
 * any prompt (docs/input.md). */
#ifndef LIFEBOAT_VCONSOLE_H
#define LIFEBOAT_VCONSOLE_H

#include <stddef.h>

/* A terminal of the kernel's virtual consoles: tty0 (the current one),
 * or /dev/console when it is one (KDGKBTYPE answers only on a VT). Returns
 * the fd or -ENOTTY. */
int vconsole_vt_open(void);

/* A file of the image named by a command-line word (rd.vconsole.keymap=,
 * rd.vconsole.font=): DIR/NAME SUFFIX, at most max bytes. */
struct vconsole_file {
	const char *param;    /* the word, for messages */
	const char *option;   /* lifeboat build's option that adds one: "keymap" */
	const char *dir, *suffix;
	size_t max;
};
#define VCONSOLE_PATH_MAX 256
/* Read the file kind names name by into *data (malloc'd); its path in
 * path. Returns 0, -EINVAL for a name the generator cannot have made or a
 * file too large, or -errno; why says what failed and what to do. */
int vconsole_file_read(const struct vconsole_file *kind, const char *name, char *path,
		       size_t path_size, char **data, size_t *len, char *why, size_t size);

/* Load the keymap the image carries under name (LAYOUT_KEYMAP_DIR, made
 * by the generator with `loadkeys -b`) into the kernel, an entry at a time
 * with KDSKBENT. The kernel's keymap is one for every virtual terminal and
 * every keyboard, those that appear later too. Returns 0, -ENOENT when the
 * image has no such keymap, -ENOTTY when the kernel has no virtual
 * terminal, or -errno; why says what failed and what to do. */
int vconsole_keymap_load(const char *name, char *why, size_t size);

#endif
