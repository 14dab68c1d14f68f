/* keyscripts: the table of Debian's keyscripts and what each needs. */
#include "common/keyscripts.h"

#include <string.h>

#include "common/luksopts.h"

/* passdev mounts the key device read-only with each of these types in
 * turn (its own list begins ext4, ext3, ext2, vfat); vfat's default code
 * page and character sets come with it. */
#define PASSDEV_FS "ext4", "vfat", "nls_cp437", "nls_ascii", "nls_utf8", "nls_iso8859_1"

static const struct keyscript_needs known[] = {
	/* The passphrase in the kernel's user keyring, for the next container. */
	{ "decrypt_keyctl",  { "keyctl" },  "keyutils", { NULL }, { NULL }, NULL },
	/* A key file on a removable device, DEVICE:PATH[:TIMEOUT]. */
	{ "passdev",         { NULL },      NULL,       { "mount" }, { PASSDEV_FS }, "/bin/mount" },
	/* The volume key of an open container, read with dmsetup. */
	{ "decrypt_derived", { "dmsetup" }, "dmsetup",  { "cut", "wc" }, { NULL }, NULL },
	/* A key file decrypted by gpg with a passphrase. */
	{ "decrypt_gnupg",   { "gpg" },     "gpg",      { NULL }, { NULL }, NULL },
};

const struct keyscript_needs *keyscripts_find(const char *path)
{
	size_t dir = strlen(LUKS_OPTS_KEYSCRIPT_DIR);

	if (strncmp(path, LUKS_OPTS_KEYSCRIPT_DIR "/", dir + 1) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(path + dir + 1, known[i].name) == 0)
			return &known[i];
	return NULL;
}
