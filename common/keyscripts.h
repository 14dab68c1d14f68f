/* keyscripts: Debian's crypttab keyscripts (cryptsetup-initramfs'
 * /lib/cryptsetup/scripts) and what each needs in the image beyond itself:
 * the generator packs it (gen/feature/keyscript_pack.c), the init loads
 * the modules before the script runs (blockstack/keyscript.c). Spelled
 * once here. docs/blockstacks.md has the table for people. */
#ifndef LIFEBOAT_KEYSCRIPTS_H
#define LIFEBOAT_KEYSCRIPTS_H

#include <stdbool.h>

/* Debian's helper that asks for a passphrase on the console (keyscripts
 * call it by this path); put in the image whenever a keyscript is. */
#define KEYSCRIPT_ASKPASS "/lib/cryptsetup/askpass"

struct keyscript_needs {
	const char *name;             /* in LUKS_OPTS_KEYSCRIPT_DIR */
	const char *programs[3];      /* found in PATH on the host, packed where they are */
	const char *package;          /* Debian's package of the programs */
	/* Tools busybox has: its applets when the image carries busybox,
	 * else the host's programs, packed as programs are. */
	const char *applets[3];
	const char *modules[7];       /* packed when present, loaded before it runs */
	/* An applet it runs by this path, not through PATH (passdev's
	 * /bin/mount); the init links it to busybox's when it is missing. */
	const char *applet_path;
};

/* What the keyscript at path needs, or NULL for one lifeboat does not know
 * (it gets its interpreter and libraries only). */
const struct keyscript_needs *keyscripts_find(const char *path);

#endif
