/* luksunlock: open a LUKS container by key file, TPM2 or FIDO2 token, Tang or passphrase (or keyscript), in that order. */
#include "blockstack/luksunlock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/keyscript.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "common/featuremods.h"

/* The kernel cannot load modules itself here (no modprobe in the image):
 * load what cryptsetup will ask the kernel for. Names the image lacks are
 * fine: the module may be built in. */
static void load_crypt_modules(void)
{
	static const char *const names[] = { "dm_mod", "dm_crypt", FEATUREMODS_LUKS_CRYPTO, NULL };

	for (const char *const *n = names; *n; n++)
		modload_name(*n);
}

const struct luksunlock_ops luksunlock_boot_ops = {
	.load_modules = load_crypt_modules,
	.keys = luks_keys_open,
	.token = lukstoken_open,
	.tang = luks_tang_open,
	.passphrase = luks_unlock,
	.keyscript = keyscript_open,
	.prompt_busy = evloop_prompt_busy,
};

void luksunlock_init(struct luksunlock_state *u, const struct luksunlock_ops *ops,
		 const struct stack_params *p, luksunlock_failed_fn failed)
{
	memset(u, 0, sizeof(*u));
	u->ops = ops;
	u->params = p;
	u->failed = failed;
}

static bool list_add(struct luksunlock_waiting *list, size_t *n, const char *devname,
		     const char *uuid)
{
	if (*n >= STACK_LIST_MAX)
		return false;
	snprintf(list[*n].devname, sizeof(list[0].devname), "%s", devname);
	snprintf(list[*n].uuid, sizeof(list[0].uuid), "%s", uuid);
	(*n)++;
	return true;
}

/* Queue c behind the prompt that holds the console. */
static int queue_prompt(struct luksunlock_state *u, const struct luks_container *c)
{
	if (!list_add(u->queued, &u->n_queued, c->devname, c->uuid)) {
		log_warn("/dev/%s (LUKS UUID=%s) appeared while %d others wait for a prompt; it is "
			 "asked for when the devices are looked at again (after the rescue shell)",
			 c->devname, c->uuid, STACK_LIST_MAX);
		return -ENOSPC;
	}
	log_info("/dev/%s (LUKS UUID=%s) appeared while another prompt waits; it is asked "
		 "for after that one", c->devname, c->uuid);
	return 0;
}

/* The passphrase (or the keyscript, which may prompt) now, or after the
 * prompt that holds the console; while it is up, clevis bindings that
 * failed (a Tang server down) are tried again. */
static int ask_passphrase(struct luksunlock_state *u, const struct luks_container *c,
			  enum tang_result tang)
{
	struct luks_container asked = *c;

	if (u->ops->prompt_busy())
		return queue_prompt(u, c);
	if (c->opts->keyscript[0])
		return u->ops->keyscript(u->params, c);
	asked.clevis_retry = tang == TANG_FAILED;
	return u->ops->passphrase(&asked);
}

/* The key files first (a container waits while its key device has not
 * appeared), then its TPM2 or FIDO2 token, then a Tang server if a binding names
 * one, then a person. */
static int open_luks(struct luksunlock_state *u, const struct luks_container *c, bool last_chance,
		     bool first)
{
	enum tang_result tang;

	switch (u->ops->keys(u->params, c, u->keydev_allowed, last_chance)) {
	case KEY_OPENED:
		return 0;
	case KEY_WAIT:
		if (!list_add(u->pending, &u->n_pending, c->devname, c->uuid))
			break;
		if (first)
			log_console("lifeboat: /dev/%s (LUKS UUID=%s) waits for the device of its "
				    "rd.luks.key; its passphrase is asked if that does not appear\n",
				    c->devname, c->uuid);
		return 0;
	case KEY_NONE:
	case KEY_FAILED:
		break;
	}
	switch (u->ops->token(c)) {
	case TOKEN_OPENED:
		return 0;
	case TOKEN_NEEDS_CONSOLE:
		return queue_prompt(u, c);
	case TOKEN_NONE:
	case TOKEN_REFUSED:
		break;
	}
	tang = u->ops->tang(c);
	if (tang == TANG_OPENED)
		return 0;
	return ask_passphrase(u, c, tang);
}

/* Why stack_params_luks_wanted said no, for the log. */
static const char *locked_reason(const struct stack_params *p, const struct luks_opts *o)
{
	if (!p->luks)
		return "rd.luks=0";
	if (!p->n_luks && (o->flags & LUKS_OPT_NOAUTO))
		return "its options say noauto; rd.luks.uuid= opens it";
	return "rd.luks.uuid=/rd.luks.name= (or a host-only image's 30-stacks.conf) do not list it";
}

/* A container left locked is asked for again at the next wait (the retry
 * after the rescue shell), not given up for good. */
int luksunlock_container(struct luksunlock_state *u, const char *devname, const char *uuid,
		     bool last_chance, bool first)
{
	char name[STACK_NAME_MAX];
	const struct stack_params *p = u->params;
	struct luks_container c = { devname, uuid, name, stack_params_luks_opts(p, uuid),
				    stack_params_luks_timeout(p, uuid), false };
	int r;

	if (!stack_params_luks_wanted(p, uuid, name, sizeof(name))) {
		if (first)
			log_info("/dev/%s (LUKS UUID=%s) stays locked: %s", devname, uuid,
				 locked_reason(p, c.opts));
		return 0;
	}
	u->ops->load_modules();
	r = open_luks(u, &c, last_chance, first);
	if (r < 0)
		u->failed(devname, uuid);
	return r;
}

void luksunlock_retry_pending(struct luksunlock_state *u, bool last_chance)
{
	struct luksunlock_waiting again[STACK_LIST_MAX];
	size_t n = u->n_pending;

	memcpy(again, u->pending, n * sizeof(again[0]));
	u->n_pending = 0;
	for (size_t i = 0; i < n; i++)
		luksunlock_container(u, again[i].devname, again[i].uuid, last_chance, false);
}

/* Each prompt's end calls this again: the flag keeps it flat. */
void luksunlock_console_free(struct luksunlock_state *u)
{
	if (u->asking)
		return;
	u->asking = true;
	while (u->n_queued && !u->ops->prompt_busy()) {
		struct luksunlock_waiting next = u->queued[0];

		memmove(u->queued, u->queued + 1, --u->n_queued * sizeof(u->queued[0]));
		luksunlock_container(u, next.devname, next.uuid, false, true);
	}
	u->asking = false;
}
