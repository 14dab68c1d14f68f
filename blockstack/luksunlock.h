/* luksunlock: the order a LUKS container is opened in, and the containers that
 * wait (for their key device, or for the console a prompt holds).
 *
 * Each container tries its key files (rd.luks.key=, crypttab's), then its
 * TPM2 or FIDO2 token, then a Tang binding, then asks a person for the passphrase:
 * the order of systemd-cryptsetup. A crypttab line's keyscript= takes the
 * passphrase's place (blockstack/keyscript.h), as it does in Debian's. The steps are a table of functions so
 * that the order can be tested without a boot (tests/unit/test_luksunlock.c). */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSUNLOCK_H
#define LIFEBOAT_BLOCKSTACK_LUKSUNLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"
#include "blockstack/lukskey.h"
#include "blockstack/lukstang.h"
#include "blockstack/lukstoken.h"
#include "blockstack/stack_params.h"

struct luksunlock_ops {
	void (*load_modules)(void);   /* dm_crypt and the ciphers */
	enum key_result (*keys)(const struct stack_params *p, const struct luks_container *c,
				bool keydev_allowed, bool last_chance);
	enum token_result (*token)(const struct luks_container *c);  /* TPM2, FIDO2 */
	enum tang_result (*tang)(const struct luks_container *c);
	int (*passphrase)(const struct luks_container *c);
	/* Instead of the passphrase when its options name a keyscript. */
	int (*keyscript)(const struct stack_params *p, const struct luks_container *c);
	bool (*prompt_busy)(void);    /* a prompt holds the console */
};

/* The steps of a boot: lukskey.c, lukstoken.c, lukstang.c, luks.c, keyscript.c, evloop.c. */
extern const struct luksunlock_ops luksunlock_boot_ops;

struct luksunlock_waiting {
	char devname[64];
	char uuid[64];
};

/* A container was left locked: offer its device again at the next look
 * (the retry after the rescue shell). */
typedef void (*luksunlock_failed_fn)(const char *devname, const char *uuid);

struct luksunlock_state {
	const struct luksunlock_ops *ops;
	const struct stack_params *params;
	luksunlock_failed_fn failed;
	/* Key devices are mounted only once the resume decision is made. */
	bool keydev_allowed;
	/* Containers whose key device is not readable yet. */
	struct luksunlock_waiting pending[STACK_LIST_MAX];
	size_t n_pending;
	/* Containers that appeared while a prompt held the console: their
	 * passphrase is asked once it is free, in the order they came.
	 * Queued, not nested: a prompt inside a prompt inside a prompt would
	 * stack without bound and leave the person unsure which device they
	 * answer. */
	struct luksunlock_waiting queued[STACK_LIST_MAX];
	size_t n_queued;
	bool asking;    /* luksunlock_console_free is asking the queued ones */
};

void luksunlock_init(struct luksunlock_state *u, const struct luksunlock_ops *ops,
		 const struct stack_params *p, luksunlock_failed_fn failed);
/* The LUKS container devname (its UUID uuid) appeared (first), or is
 * tried again (a device appeared, or last_chance: the devices settled).
 * A container p does not want stays locked (said once). Returns 0, or
 * -errno when it was left locked and is offered again later. */
int luksunlock_container(struct luksunlock_state *u, const char *devname, const char *uuid,
		     bool last_chance, bool first);
/* Try the containers that wait for their key device again. */
void luksunlock_retry_pending(struct luksunlock_state *u, bool last_chance);
/* The console is free: ask for the queued containers in turn. */
void luksunlock_console_free(struct luksunlock_state *u);

#endif
