/* lukskey: try each rd.luks.key= for a container, in the order given. */
#include "blockstack/lukskey.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/key_read.h"
#include "bootlib/devwait.h"
#include "bootlib/log.h"

/* Whether a key must wait for its device to appear. Not before the resume
 * decision: the container may hold the resume device, and the resume wait
 * must not run out while it stays locked, so then its key device is
 * reported unreadable and the passphrase asked. */
static bool must_wait(const struct luks_key *k, bool keydev_allowed)
{
	struct found_dev dev;

	return k->has_keydev && keydev_allowed && devwait_lookup(&k->keydev, &dev) < 0;
}

/* The key's bytes into buf; on failure why says what, for the console. */
static int key_get(const struct luks_key *k, const struct luks_opts *o, bool keydev_allowed,
		   char *buf, size_t *len, char *why, size_t why_size)
{
	struct key_request req = { .path = k->path, .offset = o->keyfile_offset,
				   .limit = o->keyfile_size };
	struct found_dev dev;
	char where[300];
	int r;

	if (!k->has_keydev) {
		r = key_file_read(&req, buf, KEY_BYTES_MAX, len);
		if (r < 0)
			snprintf(why, why_size, "the key file %s in the image: %s", k->path,
				 key_read_strerror(r));
		return r;
	}
	keyspec_dev_text(&k->keydev, where, sizeof(where));
	if (!keydev_allowed) {
		snprintf(why, why_size, "the key device %s is not read yet: no filesystem is "
			 "mounted before the resume decision, and this container may hold the "
			 "resume device", where);
		return -EAGAIN;
	}
	r = devwait_lookup(&k->keydev, &dev);
	if (r < 0) {
		snprintf(why, why_size, "the key device %s (for %s) did not appear", where, k->path);
		return r;
	}
	return keydev_read(dev.devname, &req, buf, KEY_BYTES_MAX, len, why, why_size);
}

/* One key: 0 when it opened the container; else the console says why. */
static int key_try(const struct luks_container *c, const struct luks_key *k, bool keydev_allowed)
{
	char key[KEY_BYTES_MAX], why[1024], out[1024], where[300] = "in the image", used[300];
	size_t len = 0;
	int r = key_get(k, c->opts, keydev_allowed, key, &len, why, sizeof(why));
	bool read = r == 0;

	if (k->has_keydev) {
		strcpy(where, "on ");
		keyspec_dev_text(&k->keydev, where + 3, sizeof(where) - 3);
	}
	if (read)
		r = luks_open_key(c, key, len, out, sizeof(out));
	explicit_bzero(key, sizeof(key));
	luks_opts_suffix(c, true, used, sizeof(used));
	if (r == 0)
		log_info("opened /dev/%s (LUKS UUID=%s) as /dev/mapper/%s with the key file %s %s%s",
			 c->devname, c->uuid, c->name, k->path, where, used);
	else if (r == -EACCES)
		log_console("lifeboat: the key file %s %s does not open /dev/%s (UUID=%s)\n",
			    k->path, where, c->devname, c->uuid);
	else if (read)
		log_console("lifeboat: cryptsetup could not open /dev/%s (UUID=%s) with the key "
			    "file %s %s: %s\n", c->devname, c->uuid, k->path, where, out);
	else
		log_console("lifeboat: rd.luks.key for /dev/%s (UUID=%s): %s\n", c->devname,
			    c->uuid, why);
	return r;
}

enum key_result luks_keys_open(const struct stack_params *p, const struct luks_container *c,
			       bool keydev_allowed, bool last_chance)
{
	bool any = false;

	/* Wait before trying anything: each refused key costs cryptsetup a
	 * full key derivation, so the keys are tried once, all together. */
	for (size_t i = 0; i < p->n_keys; i++) {
		const struct luks_key *k = &p->luks_keys[i];

		if (!keyspec_applies(k, c->devname, c->uuid))
			continue;
		any = true;
		if (!last_chance && must_wait(k, keydev_allowed))
			return KEY_WAIT;
	}
	if (!any)
		return KEY_NONE;
	for (size_t i = 0; i < p->n_keys; i++)
		if (keyspec_applies(&p->luks_keys[i], c->devname, c->uuid) &&
		    key_try(c, &p->luks_keys[i], keydev_allowed) == 0)
			return KEY_OPENED;
	log_console("lifeboat: no key file of rd.luks.key= opened /dev/%s (UUID=%s); asking "
		    "for its passphrase instead\n", c->devname, c->uuid);
	return KEY_FAILED;
}
