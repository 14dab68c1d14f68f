/* blockstack: dispatch each appearing block device to its stack's assembler. */
#include "blockstack/blockstack.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "blockstack/luks.h"
#include "blockstack/lukscfg.h"
#include "blockstack/lukskey.h"
#include "blockstack/lukstang.h"
#include "blockstack/lukstpm2.h"
#include "blockstack/lvmact.h"
#include "blockstack/params.h"
#include "bootlib/blkprobe.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/run.h"
#include "common/dmname.h"
#include "common/featuremods.h"
#include "common/filewrite.h"
#include "common/layout.h"

#define MDADM LAYOUT_MDADM
/* md_mod's start_ro: 1 starts every array auto-read-only (array_state
 * read-auto): no resync, recovery or superblock update until the first
 * write to the array, which makes it read-write by itself. */
#define MD_START_RO "/sys/module/md_mod/parameters/start_ro"
#define SEEN_MAX 64

static struct stack_params params;
static bool configured;
static char seen[SEEN_MAX][STACK_NAME_MAX];   /* devname:uuid already assembled */
static size_t n_seen;
/* Key devices are mounted only once the resume decision is made. */
static bool keydev_allowed;
/* start_ro is 1 until the resume decision (md_hold_read_only). */
static bool md_held_read_only;
/* LVM volumes that can write wait for the resume decision. */
static struct lvm_activation lvm;

/* Containers whose key device is not readable yet. */
struct pending_luks {
	char devname[64];
	char uuid[64];
};
static struct pending_luks pending[STACK_LIST_MAX];
static size_t n_pending;
/* Containers that appeared while a prompt held the console: their
 * passphrase is asked once it is free, in the order they came. Queued,
 * not nested: a prompt inside a prompt inside a prompt would stack
 * without bound and leave the person unsure which device they answer. */
static struct pending_luks queued[STACK_LIST_MAX];
static size_t n_queued;

static void console_free(void);

/* The event loop offers every block device it sees, says when it is quiet
 * and when the console is free again. */
static const struct evloop_observer stack_observer = {
	.added = blockstack_device_added,
	.settled = blockstack_settled,
	.console_free = console_free,
};

void blockstack_setup(const struct stack_params *p)
{
	params = *p;
	luks_config_load(&params);
	lvmact_init(&lvm, NULL);
	configured = true;
	evloop_observe(&stack_observer);
}

/* The kernel cannot load modules itself here (no modprobe in the image):
 * load what the tools will ask the kernel for. Names the image lacks are
 * fine: the module may be built in. */
static void load_modules(const char *const *names)
{
	for (; *names; names++)
		modload_name(*names);
}

/* dm_snapshot too: an origin is a snapshot-origin target, which lvm only
 * asks the kernel for (loading it writes nothing, held or not). */
static const char *const lvm_modules[] = { "dm_mod", "dm_snapshot", NULL };
static const char *const crypt_modules[] = {
	"dm_mod", "dm_crypt", FEATUREMODS_LUKS_CRYPTO, NULL,
};
static const char *const md_modules[] = { "md_mod", FEATUREMODS_MD_PERSONALITIES, NULL };

static void unmark_seen(const char *devname, const char *uuid);

static bool list_add(struct pending_luks *list, size_t *n, const char *devname, const char *uuid)
{
	if (*n >= STACK_LIST_MAX)
		return false;
	snprintf(list[*n].devname, sizeof(list[0].devname), "%s", devname);
	snprintf(list[*n].uuid, sizeof(list[0].uuid), "%s", uuid);
	(*n)++;
	return true;
}

/* Queue c behind the prompt that holds the console. */
static int queue_prompt(const struct luks_container *c)
{
	if (!list_add(queued, &n_queued, c->devname, c->uuid)) {
		log_warn("/dev/%s (LUKS UUID=%s) appeared while %d others wait for a prompt; it is "
			 "asked for when the devices are looked at again (after the rescue shell)",
			 c->devname, c->uuid, STACK_LIST_MAX);
		return -ENOSPC;
	}
	log_info("/dev/%s (LUKS UUID=%s) appeared while another prompt waits; it is asked "
		 "for after that one", c->devname, c->uuid);
	return 0;
}

/* The passphrase now, or after the prompt that holds the console. */
static int ask_passphrase(const struct luks_container *c)
{
	return evloop_prompt_busy() ? queue_prompt(c) : luks_unlock(c);
}

/* The key files first (a container waits while its key device has not
 * appeared), then its TPM2 token, then the passphrase: the order of
 * systemd-cryptsetup. */
static int open_luks(const struct luks_container *c, bool last_chance, bool first)
{
	switch (luks_keys_open(&params, c, keydev_allowed, last_chance)) {
	case KEY_OPENED:
		return 0;
	case KEY_WAIT:
		if (!list_add(pending, &n_pending, c->devname, c->uuid))
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
	switch (lukstpm2_open(c)) {
	case TPM2_OPENED:
		return 0;
	case TPM2_NEEDS_CONSOLE:
		return queue_prompt(c);
	case TPM2_NONE:
	case TPM2_REFUSED:
		break;
	}
	/* A Tang server, if a binding names one, before a person. */
	if (luks_tang_open(c) == TANG_OPENED)
		return 0;
	return ask_passphrase(c);
}

/* Why stack_params_luks_wanted said no, for the log. */
static const char *locked_reason(const struct luks_opts *o)
{
	if (!params.luks)
		return "rd.luks=0";
	if (!params.n_luks && (o->flags & LUKS_OPT_NOAUTO))
		return "its options say noauto; rd.luks.uuid= opens it";
	return "rd.luks.uuid=/rd.luks.name= (or a host-only image's 30-stacks.conf) do not list it";
}

/* A container left locked is asked for again at the next wait (the retry
 * after the rescue shell), not given up for good. */
static int unlock_luks(const char *devname, const char *uuid, bool last_chance, bool first)
{
	char name[STACK_NAME_MAX];
	struct luks_container c = { devname, uuid, name, stack_params_luks_opts(&params, uuid),
				    stack_params_luks_timeout(&params, uuid) };
	int r;

	if (!stack_params_luks_wanted(&params, uuid, name, sizeof(name))) {
		if (first)
			log_info("/dev/%s (LUKS UUID=%s) stays locked: %s", devname, uuid,
				 locked_reason(c.opts));
		return 0;
	}
	load_modules(crypt_modules);
	r = open_luks(&c, last_chance, first);
	if (r < 0)
		unmark_seen(devname, uuid);
	return r;
}

static int assemble_luks(const char *devname, const struct blk_info *info)
{
	return unlock_luks(devname, info->uuid, false, true);
}

/* Try the waiting containers again: a device appeared, or (last_chance)
 * the devices settled. */
static void retry_pending(bool last_chance)
{
	struct pending_luks again[STACK_LIST_MAX];
	size_t n = n_pending;

	memcpy(again, pending, n * sizeof(again[0]));
	n_pending = 0;
	for (size_t i = 0; i < n; i++)
		unlock_luks(again[i].devname, again[i].uuid, last_chance, false);
}

/* The console is free: ask for the queued containers, one after the
 * other (each prompt's end calls this again: the flag keeps it flat). */
static void console_free(void)
{
	static bool asking;

	if (asking)
		return;
	asking = true;
	while (n_queued && !evloop_prompt_busy()) {
		struct pending_luks next = queued[0];

		memmove(queued, queued + 1, --n_queued * sizeof(queued[0]));
		unlock_luks(next.devname, next.uuid, false, true);
	}
	asking = false;
}

/* The volumes rd.lvm.lv= and rd.lvm.vg= name (neither: every group);
 * before the resume decision only those whose activation writes nothing
 * (blockstack/lvmact.h). */
static int assemble_lvm(const char *devname, const struct blk_info *info)
{
	(void)info;
	if (!params.lvm) {
		log_info("/dev/%s is an LVM physical volume; rd.lvm=0 leaves its volume group "
			 "inactive", devname);
		return 0;
	}
	load_modules(lvm_modules);
	lvmact_pv_appeared(&lvm, &params, devname);
	return 0;
}

/* Before the resume decision the members may belong to a hibernated
 * kernel, which wakes up believing its arrays are as it left them: no
 * resync, recovery or superblock update may touch them until then.
 * Measured (tests/boot/cases-stacks-resume.sh): Debian 12's mdadm 4.2
 * starts even a dirty array listed in mdadm.conf that way by itself, and
 * nothing reaches the members. md_mod's start_ro, meant for resume from
 * disk, makes it the kernel's rule for every array started before the
 * decision, whatever the image's mdadm and its policy do. */
static void md_hold_read_only(void)
{
	int r;

	if (keydev_allowed || md_held_read_only)
		return;
	r = file_write_value(MD_START_RO, "1");
	if (r < 0)
		log_warn("writing 1 to %s failed (%s): md arrays assembled before the resume "
			 "decision start read-write and may resync", MD_START_RO, strerror(-r));
	else
		md_held_read_only = true;
}

static int assemble_md(const char *devname, const struct blk_info *info)
{
	char dev[96], out[1024];
	char *argv[] = { MDADM, "--incremental", dev, NULL };
	int r;

	if (!stack_params_md_wanted(&params, info->uuid)) {
		log_info("/dev/%s is a member of the md array UUID=%s, which is not assembled: %s",
			 devname, info->uuid, params.md ? "rd.md.uuid= (or a host-only image's "
			 "30-stacks.conf) does not list it" : "rd.md=0");
		return 0;
	}
	load_modules(md_modules);
	md_hold_read_only();
	snprintf(dev, sizeof(dev), "/dev/%s", devname);
	r = run_tool(argv, NULL, 0, out, sizeof(out));
	if (r != 0)
		log_warn("mdadm --incremental /dev/%s (array UUID=%s) failed (exit %d): %s",
			 devname, info->uuid, r, out);
	return 0;
}

struct stack_kind {
	const char *type;   /* libblkid's TYPE of a member */
	int (*assemble)(const char *devname, const struct blk_info *info);
};

static const struct stack_kind kinds[] = {
	{ "crypto_LUKS",       assemble_luks },
	{ "LVM2_member",       assemble_lvm },
	{ "linux_raid_member", assemble_md },
};

/* Each member is handled once (it may be offered by "add" and "change"). */
static bool mark_seen(const char *devname, const char *uuid)
{
	char key[STACK_NAME_MAX];

	snprintf(key, sizeof(key), "%s:%s", devname, uuid);
	for (size_t i = 0; i < n_seen; i++)
		if (strcmp(seen[i], key) == 0)
			return false;
	if (n_seen < SEEN_MAX)
		snprintf(seen[n_seen++], sizeof(seen[0]), "%s", key);
	return true;
}

static void unmark_seen(const char *devname, const char *uuid)
{
	char key[STACK_NAME_MAX];

	snprintf(key, sizeof(key), "%s:%s", devname, uuid);
	for (size_t i = 0; i < n_seen; i++)
		if (strcmp(seen[i], key) == 0) {
			memmove(seen[i], seen[i + 1], (n_seen - i - 1) * sizeof(seen[0]));
			n_seen--;
			return;
		}
}

void blockstack_device_added(const char *devname)
{
	struct blk_info info;

	if (!configured || blkprobe_dev(devname, &info) < 0)
		return;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(info.type, kinds[i].type) == 0 && mark_seen(devname, info.uuid))
			kinds[i].assemble(devname, &info);
	/* It may be the key device a container waits for. */
	if (n_pending)
		retry_pending(false);
}

void blockstack_resume_decided(void)
{
	keydev_allowed = true;
	/* Arrays started from now on are read-write again; those started
	 * before turn read-write at their first write (a mount rw, fsck). */
	if (md_held_read_only && file_write_value(MD_START_RO, "0") < 0)
		log_warn("writing 0 to %s failed: md arrays assembled from now on start "
			 "auto-read-only (read-write at their first write)", MD_START_RO);
	md_held_read_only = false;
	if (configured)
		lvmact_decided(&lvm, &params);
}

static void md_start_degraded(void)
{
	char out[1024];
	char *argv[] = { MDADM, "--incremental", "--run", "--scan", NULL };
	struct stat st;
	static bool done;

	/* Only when some member was seen (mdadm made /run/mdadm). */
	if (done || !params.md || stat("/run/mdadm", &st) < 0)
		return;
	done = true;
	if (run_tool(argv, NULL, 0, out, sizeof(out)) == 0)
		log_warn("md arrays with missing members were started degraded: %s", out);
}

void blockstack_settled(void)
{
	if (!configured)
		return;
	/* A key device that has not come by now is not coming. */
	if (n_pending)
		retry_pending(true);
	md_start_degraded();
}

void blockstack_unattended(unsigned int prompt_sec)
{
	keydev_allowed = true;
	/* No resume is decided in a capture kernel: nothing waits for it. */
	if (configured)
		lvmact_decided(&lvm, &params);
	luks_bound_prompts(prompt_sec);
}
