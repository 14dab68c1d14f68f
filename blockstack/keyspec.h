/* keyspec: rd.luks.key=KEYPATH[:KEYDEV[:LUKSDEV]], dracut's key-file parameter. */
#ifndef LIFEBOAT_BLOCKSTACK_KEYSPEC_H
#define LIFEBOAT_BLOCKSTACK_KEYSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "bootlib/devspec.h"

#define KEY_PATH_MAX 256

struct luks_key {
	char path[KEY_PATH_MAX];     /* absolute: in the image, or on KEYDEV's filesystem */
	bool has_keydev, has_luksdev;
	struct dev_spec keydev;     /* UUID=, LABEL=, PARTUUID=, PARTLABEL=, /dev/... */
	struct dev_spec luksdev;    /* only this container: UUID= or /dev/... */
};

/* Parse one rd.luks.key= value. An empty KEYDEV ("/k::UUID=...") means the
 * image, as an absent one does. Returns 0, or -EINVAL (no KEYPATH, a
 * relative one or one with a ".." part, a KEYDEV or LUKSDEV that names no
 * device, a fourth field), -ENAMETOOLONG. */
int keyspec_parse(const char *value, struct luks_key *key);
/* Whether key is for the container /dev/DEVNAME with LUKS UUID uuid: it
 * has no LUKSDEV, or its LUKSDEV names this container. */
bool keyspec_applies(const struct luks_key *key, const char *devname, const char *uuid);
/* "LABEL=keys" and the like, for messages. */
void keyspec_dev_text(const struct dev_spec *spec, char *out, size_t size);

#endif
