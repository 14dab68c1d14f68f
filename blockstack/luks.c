/* luks: ask for a passphrase and run cryptsetup open, with bounded tries. */
#include "blockstack/luks.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/lukstang_retry.h"
#include "bootlib/clock.h"
#include "bootlib/console.h"
#include "bootlib/guest.h"
#include "bootlib/log.h"
#include "bootlib/run.h"
#include "common/layout.h"

#define CRYPTSETUP LAYOUT_CRYPTSETUP
/* cryptsetup's exit status for a refused passphrase (cryptsetup(8)). */
#define CRYPTSETUP_EXIT_BAD_PASSPHRASE 2

static unsigned int prompt_bound_sec;

void luks_bound_prompts(unsigned int sec)
{
	prompt_bound_sec = sec;
}

unsigned int luks_prompt_sec(const struct luks_container *c)
{
	if (!c->timeout_sec || !prompt_bound_sec)
		return c->timeout_sec ? c->timeout_sec : prompt_bound_sec;
	return c->timeout_sec < prompt_bound_sec ? c->timeout_sec : prompt_bound_sec;
}

uint64_t luks_prompt_deadline(const struct luks_container *c)
{
	unsigned int sec = luks_prompt_sec(c);

	return sec ? clock_now_ms() + (uint64_t)sec * 1000 : 0;
}

size_t luks_open_argv(const struct luks_container *c, const char **argv, char *dev,
		      size_t dev_size)
{
	static const char *const head[] = { CRYPTSETUP, "open", "--type", "luks", "--key-file=-" };
	size_t n = sizeof(head) / sizeof(head[0]);

	memcpy(argv, head, sizeof(head));
	snprintf(dev, dev_size, "/dev/%s", c->devname);
	n += luks_opts_argv(c->opts, argv + n, LUKS_OPTS_ARGV_MAX);
	argv[n++] = dev;
	argv[n++] = c->name;
	argv[n] = NULL;
	return n;
}

int luks_open_key(const struct luks_container *c, const void *key, size_t len,
		  char *out, size_t size)
{
	char dev[96];
	const char *argv[LUKS_OPEN_ARGV_MAX];
	int r;

	luks_open_argv(c, argv, dev, sizeof(dev));
	r = run_tool((char *const *)argv, key, len, out, size);
	if (r == CRYPTSETUP_EXIT_BAD_PASSPHRASE)
		return -EACCES;
	return r > 0 ? -EIO : r;
}

void luks_opts_suffix(const struct luks_container *c, bool key_file, char *buf, size_t size)
{
	char words[256];

	luks_opts_describe(c->opts, key_file, words, sizeof(words));
	snprintf(buf, size, "%s%s%s", words[0] ? " (" : "", words, words[0] ? ")" : "");
}

/* One try: prompt on every console, read the first answer with echo off,
 * open. LUKSTANG_RETRY_OPENED: a clevis binding opened it meanwhile. */
static int try_once(struct console_set *cons, const struct luks_container *c,
		    unsigned int attempt)
{
	char pw[512], out[1024];
	bool by_binding = false;
	int len, r;

	console_printf_all(cons, "\nlifeboat: /dev/%s is encrypted (LUKS UUID=%s; opens as "
			   "/dev/mapper/%s).\nPassphrase (try %u of %u): ", c->devname, c->uuid,
			   c->name, attempt, c->opts->tries);
	len = c->clevis_retry ? lukstang_retry_answer(cons, c, pw, sizeof(pw), &by_binding) :
				console_read_answer(cons, pw, sizeof(pw), true, NULL);
	if (by_binding)
		return LUKSTANG_RETRY_OPENED;
	console_printf_all(cons, "\n");
	if (len < 0) {
		explicit_bzero(pw, sizeof(pw));
		return len;
	}
	r = luks_open_key(c, pw, (size_t)len, out, sizeof(out));
	explicit_bzero(pw, sizeof(pw));
	if (r == 0 || r == -EACCES) {
		if (r == -EACCES)
			console_printf_all(cons, "lifeboat: the passphrase does not open /dev/%s "
					   "(UUID=%s).\n", c->devname, c->uuid);
		return r;
	}
	log_error("cryptsetup could not open /dev/%s (UUID=%s) as %s: %s; check the image "
		  "has dm-crypt and the cipher's modules, and the kernel the options' flags",
		  c->devname, c->uuid, c->name, out);
	return r;
}

int luks_unlock(const struct luks_container *c)
{
	struct console_set cons;
	unsigned int attempt;
	int r = console_open_all(&cons);

	if (r < 0)
		return r;
	/* A remote login (lifeboat-login unlock) may answer too. */
	console_take_guests(&cons, GUEST_SOCKET);
	cons.deadline_ms = luks_prompt_deadline(c);
	r = -EACCES;
	for (attempt = 1; attempt <= c->opts->tries && r == -EACCES; attempt++)
		r = try_once(&cons, c, attempt);
	if (r == -EACCES)
		console_printf_all(&cons, "lifeboat: no passphrase opened /dev/%s (UUID=%s) in %u "
				   "%s; the devices on it stay locked.\n", c->devname, c->uuid,
				   c->opts->tries, c->opts->tries == 1 ? "try" : "tries");
	if (r == -ETIMEDOUT)
		console_printf_all(&cons, "lifeboat: nobody answered for /dev/%s (UUID=%s) within "
				   "%u s (rd.luks.timeout=, crypttab's timeout=, or a capture "
				   "kernel's bound); it stays locked.\n",
				   c->devname, c->uuid, luks_prompt_sec(c));
	if (r == LUKSTANG_RETRY_OPENED)
		r = 0;
	else if (r == 0) {
		char used[300];

		luks_opts_suffix(c, false, used, sizeof(used));
		/* Every seat hears it: the one that did not answer learns why
		 * its prompt went away. */
		console_printf_all(&cons, "lifeboat: /dev/%s (UUID=%s) is open; the boot goes "
				   "on.\n", c->devname, c->uuid);
		log_info("opened /dev/%s (LUKS UUID=%s) as /dev/mapper/%s with a passphrase%s",
			 c->devname, c->uuid, c->name, used);
	}
	/* Last: giving the console back lets a queued prompt ask. */
	console_close_all(&cons);
	return r;
}
