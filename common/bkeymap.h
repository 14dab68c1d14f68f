/* bkeymap: the binary console keymap that `loadkeys -b` writes, which the
 * generator compiles from the host's layout and the init loads.
 *
 * The format (kbd's, also busybox loadkmap's): the 7 bytes "bkeymap"; one
 * byte per keymap (modifier combination), 256 of them, 1 when the keymap
 * is present; then, for each present keymap in order, 128 keys of 16 bits
 * each in the build host's byte order: the value that KDSKBENT takes.
 * It carries no compose table and no function-key strings; the kernel's
 * own stay in place (docs/input.md).
 */
#ifndef LIFEBOAT_BKEYMAP_H
#define LIFEBOAT_BKEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BKEYMAP_MAGIC "bkeymap"
#define BKEYMAP_MAGIC_LEN 7
#define BKEYMAP_TABLES 256    /* the kernel's MAX_NR_KEYMAPS */
#define BKEYMAP_KEYS 128      /* the kernel's NR_KEYS */

/* Whether name can name a keymap in the image (and an XKB setting on the
 * build host): letters, digits and _ . , + - : only, not starting with '.'
 * or '-', so it stays one file name and one argument. */
bool bkeymap_name_ok(const char *name);

/* Check that data is a whole binary keymap: the magic, the table flags
 * (each 0 or 1), at least one table, and exactly the keys they announce.
 * Returns the number of tables, or -EINVAL. */
int bkeymap_check(const unsigned char *data, size_t len);

/* Call fn for every key of every present table, in file order; stops at
 * the first negative return of fn and returns it. data must have passed
 * bkeymap_check(). Returns 0 or what fn returned. */
int bkeymap_foreach(const unsigned char *data, size_t len,
		    int (*fn)(unsigned int table, unsigned int key, uint16_t value, void *ctx),
		    void *ctx);

#endif
