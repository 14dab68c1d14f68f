/* lukskey: open a LUKS container with the key files rd.luks.key= names. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSKEY_H
#define LIFEBOAT_BLOCKSTACK_LUKSKEY_H

#include <stdbool.h>

#include "blockstack/luks.h"
#include "blockstack/stack_params.h"

enum key_result {
	KEY_OPENED,   /* a key opened it */
	KEY_NONE,     /* no rd.luks.key= is for this container */
	KEY_FAILED,   /* every key was tried or unreadable (each said why on the console) */
	KEY_WAIT,     /* a key device has not appeared yet: try again later */
};

/* The container c is to open: its keys (rd.luks.key= and crypttab's)
 * are read as its options' keyfile-offset= and keyfile-size= say.
 * keydev_allowed: the resume decision is made, so key devices may be
 * mounted (read-only); before it their keys fail (the container may hold
 * the resume device: it cannot wait). last_chance: nothing more is coming
 * (the devices settled), so a key device still missing counts as failed
 * instead of KEY_WAIT. Key bytes are wiped after each try, never logged. */
enum key_result luks_keys_open(const struct stack_params *p, const struct luks_container *c,
			       bool keydev_allowed, bool last_chance);

#endif
