/* keyscript: run a container's crypttab keyscript, open with what it prints, retry. */
#include "blockstack/keyscript.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blockstack/key_read.h"
#include "blockstack/keyscript_env.h"
#include "bootlib/clock.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/scriptout.h"
#include "bootlib/shell.h"
#include "bootlib/timeline.h"
#include "common/keyscripts.h"
#include "common/layout.h"

/* The key bytes: locked out of swap, wiped after each try. */
struct key_bytes {
	char bytes[KEY_BYTES_MAX];
	struct scriptout out;
};

/* How long the tries may take, in seconds (0: no bound): the shorter of
 * rd.timeout= and the container's prompt bound. */
static unsigned int bound_sec(const struct stack_params *p, const struct luks_container *c)
{
	unsigned int a = p->keyscript_timeout_sec, b = luks_prompt_sec(c);

	if (!a || !b)
		return a ? a : b;
	return a < b ? a : b;
}

/* Whether path is a "#!" script. */
static bool is_script(const char *path)
{
	char head[2] = "";
	FILE *f = fopen(path, "re");
	bool script = f && fread(head, 1, sizeof(head), f) == sizeof(head) && head[0] == '#' &&
		      head[1] == '!';

	if (f)
		fclose(f);
	return script;
}

/* busybox's applet for a path a keyscript runs by name (passdev's
 * /bin/mount), when the image's /bin is a directory without it. */
static void applet_link(const char *path)
{
	char applet[128];

	snprintf(applet, sizeof(applet), LAYOUT_BUSYBOX_DIR "/%s", strrchr(path, '/') + 1);
	if (access(path, X_OK) < 0 && access(applet, X_OK) == 0 && symlink(applet, path) < 0)
		log_warn("linking %s to busybox's %s failed: %s", path, applet, strerror(errno));
}

/* What the program needs before it runs: #!/bin/sh and the applets Debian's
 * keyscripts call are the image's busybox, unpacked once; a known
 * keyscript's modules (passdev's filesystems) are loaded. */
static int script_ready(const char *path)
{
	const struct keyscript_needs *needs = keyscripts_find(path);

	if (access(path, X_OK) < 0)
		return -errno;
	if (is_script(path) || (needs && needs->applets[0]))
		shell_for_scripts();
	if (needs && needs->applet_path)
		applet_link(needs->applet_path);
	for (size_t i = 0; needs && i < sizeof(needs->modules) / sizeof(needs->modules[0]) &&
	     needs->modules[i]; i++)
		modload_name(needs->modules[i]);
	return 0;
}

/* The line's fields for the environment: crypttab's when the container
 * has a line, else its name and UUID, and "none" for the key. */
static void line_of(const struct stack_params *p, const struct luks_container *c, char *source,
		    size_t source_size, char *device, size_t device_size, struct keyscript_line *l)
{
	const struct luks_entry *t = stack_params_crypttab_line(p, c->uuid);

	snprintf(device, device_size, "/dev/%s", c->devname);
	snprintf(source, source_size, "UUID=%s", t ? t->uuid : c->uuid);
	*l = (struct keyscript_line){ c->name, source, device, "none", "" };
	if (t) {
		l->name = t->name;
		l->source = t->source[0] ? t->source : source;
		l->key = t->key;
		l->options = t->options;
	}
}

/* keyfile-offset= and keyfile-size= apply to what the program printed, as
 * cryptsetup-initramfs has cryptsetup apply them. Returns the key's length. */
static size_t key_cut(const struct luks_opts *o, struct key_bytes *k, const char **key)
{
	size_t len = k->out.len;

	if (o->keyfile_offset >= len)
		return 0;
	*key = k->bytes + o->keyfile_offset;
	len -= (size_t)o->keyfile_offset;
	return o->keyfile_size && o->keyfile_size < len ? o->keyfile_size : len;
}

/* How the program ended, for messages ("exited with 1"). */
static void ended_text(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "was ended by signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "exited with %d", WEXITSTATUS(status));
}

/* Open with what the program printed. */
static int open_with(const struct luks_container *c, struct key_bytes *k)
{
	const char *script = c->opts->keyscript, *key = NULL;
	size_t len = key_cut(c->opts, k, &key);
	char ended[48], out[1024];
	int r;

	ended_text(k->out.status, ended, sizeof(ended));
	if (k->out.overflow) {
		log_console("lifeboat: the keyscript %s printed more than %d bytes for /dev/%s "
			    "(UUID=%s): not a key\n", script, KEY_BYTES_MAX, c->devname, c->uuid);
		return -EACCES;
	}
	if (!len) {
		log_console("lifeboat: the keyscript %s %s and printed no key for /dev/%s (UUID=%s)\n",
			    script, ended, c->devname, c->uuid);
		return -EACCES;
	}
	r = luks_open_key(c, key, len, out, sizeof(out));
	if (r == -EACCES)
		log_console("lifeboat: the key the keyscript %s printed does not open /dev/%s "
			    "(UUID=%s)\n", script, c->devname, c->uuid);
	else if (r < 0)
		log_error("cryptsetup could not open /dev/%s (UUID=%s) as %s with the key of the "
			  "keyscript %s: %s", c->devname, c->uuid, c->name, script, out);
	return r;
}

/* One run of the program and, when it printed a key, one open. */
static int try_once(const struct keyscript_line *l, const struct luks_container *c,
		    unsigned int tried, uint64_t deadline, struct key_bytes *k)
{
	static struct keyscript_env env;
	uint64_t start = clock_now_ms();
	int r = keyscript_env_make(&env, c->opts->keyscript, l, tried);

	if (r < 0)
		return r;
	timeline_mark("keyscript", "%s for %s start (try %u)", c->opts->keyscript, c->name,
		      tried + 1);
	r = scriptout_run(env.argv, env.envp, deadline, &k->out);
	timeline_mark("keyscript", "%s for %s end after %llu ms", c->opts->keyscript, c->name,
		      (unsigned long long)(clock_now_ms() - start));
	if (r == 0)
		r = open_with(c, k);
	explicit_bzero(k->bytes, sizeof(k->bytes));
	return r;
}

/* The end of the tries, said once: on the console and, for the rescue's
 * report, in the log. */
static void report(const struct luks_container *c, int r, unsigned int tried, unsigned int sec)
{
	const char *script = c->opts->keyscript;

	if (r == 0)
		log_info("opened /dev/%s (LUKS UUID=%s) as /dev/mapper/%s with the key of the "
			 "keyscript %s", c->devname, c->uuid, c->name, script);
	else if (r == -EACCES)
		log_error("the keyscript %s gave no key that opens /dev/%s (UUID=%s, crypttab's %s) "
			  "in %u %s; the devices on it stay locked", script, c->devname, c->uuid,
			  c->name, tried, tried == 1 ? "try" : "tries");
	else if (r == -ETIMEDOUT)
		log_error("the keyscript %s for /dev/%s (UUID=%s, crypttab's %s) gave no key within "
			  "%u s (rd.timeout=, crypttab's timeout=, rd.luks.timeout=) and was stopped; "
			  "the devices on it stay locked", script, c->devname, c->uuid, c->name, sec);
	else
		log_error("the keyscript %s for /dev/%s (UUID=%s, crypttab's %s) could not run: %s%s",
			  script, c->devname, c->uuid, c->name, strerror(-r), r == -ENOENT ?
			  " (is it, or the interpreter its #! line names, in the image? a host-only "
			  "image carries it: docs/blockstacks.md)" : "");
}

/* The tries, while the program's prompts hold the console. */
static int tries(const struct stack_params *p, const struct luks_container *c, unsigned int sec)
{
	uint64_t deadline = clock_deadline(clock_now_ms(), sec);
	unsigned int tried;
	static struct key_bytes k;
	char source[CRYPTTAB_FIELD_MAX + 8], device[96];
	struct keyscript_line l;
	int r = -EACCES;

	line_of(p, c, source, sizeof(source), device, sizeof(device), &l);
	k.out = (struct scriptout){ .buf = k.bytes, .size = sizeof(k.bytes) };
	/* Not in swap; a kernel without mlock still wipes it. */
	if (mlock(k.bytes, sizeof(k.bytes)) < 0)
		log_debug("locking the keyscript's key buffer failed: %s", strerror(errno));
	evloop_prompt_begin();
	for (tried = 0; r == -EACCES && (c->opts->tries_forever || tried < c->opts->tries); tried++)
		r = try_once(&l, c, tried, deadline, &k);
	/* Said before the console is given back: a queued container runs then. */
	report(c, r, tried, sec);
	evloop_prompt_end();
	return r;
}

int keyscript_open(const struct stack_params *p, const struct luks_container *c)
{
	int r = script_ready(c->opts->keyscript);

	if (r < 0) {
		report(c, r, 0, 0);
		return r;
	}
	log_console("lifeboat: /dev/%s (UUID=%s) opens as /dev/mapper/%s with the key of "
		    "crypttab's keyscript %s\n", c->devname, c->uuid, c->name, c->opts->keyscript);
	return tries(p, c, bound_sec(p, c));
}
