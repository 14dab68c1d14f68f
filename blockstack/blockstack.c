/* blockstack: dispatch each appearing block device to its stack's assembler. */
#include "blockstack/blockstack.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "blockstack/devlinks.h"
#include "blockstack/luks.h"
#include "blockstack/lukscfg.h"
#include "blockstack/luksunlock.h"
#include "blockstack/lvmact.h"
#include "blockstack/mpath.h"
#include "blockstack/stack_params.h"
#include "bootlib/blkprobe.h"
#include "bootlib/devwait.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/run.h"
#include "common/featuremods.h"
#include "common/filewrite.h"
#include "common/layout.h"

#define MDADM LAYOUT_MDADM
/* md_mod's start_ro: 1 starts every array auto-read-only (array_state
 * read-auto): no resync, recovery or superblock update until the first
 * write to the array, which makes it read-write by itself. */
#define MD_START_RO "/sys/module/md_mod/parameters/start_ro"
#define SEEN_MAX 64

/* Everything the assembly keeps between devices. One per boot: the event
 * loop's observer calls (blockstack.h) have no context to carry it. */
struct blockstack {
	struct stack_params params;
	bool configured;
	char seen[SEEN_MAX][STACK_NAME_MAX];   /* devname:uuid already assembled */
	size_t n_seen;
	bool decided;                    /* the resume decision is made */
	bool md_held_read_only;          /* start_ro is 1 (md_hold_read_only) */
	bool md_degraded_started;        /* md_start_degraded ran */
	bool devlinks;                   /* /dev/disk links are made (a keyscript may look) */
	struct luksunlock_state unlock;  /* LUKS containers and their order */
	struct lvm_activation lvm;       /* what waits for the decision */
};

static struct blockstack stack;

static void console_free(void);

/* The event loop offers every block device it sees, says when it is quiet
 * and when the console is free again. */
static const struct evloop_observer stack_observer = {
	.added = blockstack_device_added,
	.settled = blockstack_settled,
	.console_free = console_free,
};

static void forget_seen(const char *devname, const char *uuid);

/* Debian's keyscripts name devices by udev's links (passdev's
 * /dev/disk/by-label/KEYS:/key); lifeboat's own words need none. */
static bool keyscripts_named(const struct stack_params *p)
{
	for (size_t i = 0; i < p->n_tab; i++)
		if (p->tab[i].opts.keyscript[0])
			return true;
	return false;
}

void blockstack_setup(const struct stack_params *p)
{
	stack.params = *p;
	lukscfg_load(&stack.params);
	stack.devlinks = keyscripts_named(&stack.params);
	luksunlock_init(&stack.unlock, &luksunlock_boot_ops, &stack.params, forget_seen);
	lvmact_init(&stack.lvm, NULL);
	/* The paths of a multipath LUN show what the map shows: neither the
	 * root's matcher nor the assemblers below may take one. */
	mpath_setup((enum mpath_word)stack.params.multipath);
	devwait_set_skip(mpath_skip);
	stack.configured = true;
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
static const char *const md_modules[] = { "md_mod", FEATUREMODS_MD_PERSONALITIES, NULL };

static int assemble_luks(struct blockstack *s, const char *devname, const struct blk_info *info)
{
	return luksunlock_container(&s->unlock, devname, info->uuid, false, true);
}

static void console_free(void)
{
	luksunlock_console_free(&stack.unlock);
}

/* The volumes rd.lvm.lv= and rd.lvm.vg= name (neither: every group);
 * before the resume decision only those whose activation writes nothing
 * (blockstack/lvmact.h). */
static int assemble_lvm(struct blockstack *s, const char *devname, const struct blk_info *info)
{
	(void)info;
	if (!s->params.lvm) {
		log_info("/dev/%s is an LVM physical volume; rd.lvm=0 leaves its volume group "
			 "inactive", devname);
		return 0;
	}
	load_modules(lvm_modules);
	lvmact_pv_appeared(&s->lvm, &s->params, devname);
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
static void md_hold_read_only(struct blockstack *s)
{
	int r;

	if (s->decided || s->md_held_read_only)
		return;
	r = file_write_value(MD_START_RO, "1");
	if (r < 0)
		log_warn("writing 1 to %s failed (%s): md arrays assembled before the resume "
			 "decision start read-write and may resync", MD_START_RO, strerror(-r));
	else
		s->md_held_read_only = true;
}

static int assemble_md(struct blockstack *s, const char *devname, const struct blk_info *info)
{
	char dev[96], out[1024];
	char *argv[] = { MDADM, "--incremental", dev, NULL };
	int r;

	if (!stack_params_md_wanted(&s->params, info->uuid)) {
		log_info("/dev/%s is a member of the md array UUID=%s, which is not assembled: %s",
			 devname, info->uuid, s->params.md ? "rd.md.uuid= (or a host-only image's "
			 "30-stacks.conf) does not list it" : "rd.md=0");
		return 0;
	}
	load_modules(md_modules);
	md_hold_read_only(s);
	snprintf(dev, sizeof(dev), "/dev/%s", devname);
	r = run_tool(argv, NULL, 0, out, sizeof(out));
	if (r != 0)
		log_warn("mdadm --incremental /dev/%s (array UUID=%s) failed (exit %d): %s",
			 devname, info->uuid, r, out);
	return 0;
}

struct stack_kind {
	const char *type;   /* libblkid's TYPE of a member */
	int (*assemble)(struct blockstack *s, const char *devname, const struct blk_info *info);
};

static const struct stack_kind kinds[] = {
	{ "crypto_LUKS",       assemble_luks },
	{ "LVM2_member",       assemble_lvm },
	{ "linux_raid_member", assemble_md },
};

/* Each member is handled once (it may be offered by "add" and "change"). */
static bool mark_seen(struct blockstack *s, const char *devname, const char *uuid)
{
	char key[STACK_NAME_MAX];

	snprintf(key, sizeof(key), "%s:%s", devname, uuid);
	for (size_t i = 0; i < s->n_seen; i++)
		if (strcmp(s->seen[i], key) == 0)
			return false;
	if (s->n_seen < SEEN_MAX)
		snprintf(s->seen[s->n_seen++], sizeof(s->seen[0]), "%s", key);
	return true;
}

/* A container left locked is offered again at the next look. */
static void forget_seen(const char *devname, const char *uuid)
{
	struct blockstack *s = &stack;
	char key[STACK_NAME_MAX];

	snprintf(key, sizeof(key), "%s:%s", devname, uuid);
	for (size_t i = 0; i < s->n_seen; i++)
		if (strcmp(s->seen[i], key) == 0) {
			memmove(s->seen[i], s->seen[i + 1], (s->n_seen - i - 1) * sizeof(s->seen[0]));
			s->n_seen--;
			return;
		}
}

void blockstack_device_added(const char *devname)
{
	struct blk_info info;

	if (!stack.configured || mpath_device_added(devname) || blkprobe_dev(devname, &info) < 0)
		return;
	if (stack.devlinks && devlinks_add(DEVLINKS_DIR, devname, &info) < 0)
		log_warn("making the %s links of /dev/%s failed: a keyscript that names it by one "
			 "does not find it", DEVLINKS_DIR, devname);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(info.type, kinds[i].type) == 0 && mark_seen(&stack, devname, info.uuid))
			kinds[i].assemble(&stack, devname, &info);
	/* It may be the key device a container waits for. */
	if (stack.unlock.n_pending)
		luksunlock_retry_pending(&stack.unlock, false);
}

/* From now on key devices may be read and LVM volumes that write are
 * activated (those held are now). */
static void decide(struct blockstack *s)
{
	s->decided = true;
	s->unlock.keydev_allowed = true;
	if (s->configured)
		lvmact_decided(&s->lvm, &s->params);
}

void blockstack_resume_decided(void)
{
	/* Arrays started from now on are read-write again; those started
	 * before turn read-write at their first write (a mount rw, fsck). */
	if (stack.md_held_read_only && file_write_value(MD_START_RO, "0") < 0)
		log_warn("writing 0 to %s failed: md arrays assembled from now on start "
			 "auto-read-only (read-write at their first write)", MD_START_RO);
	stack.md_held_read_only = false;
	decide(&stack);
}

static void md_start_degraded(struct blockstack *s)
{
	char out[1024];
	char *argv[] = { MDADM, "--incremental", "--run", "--scan", NULL };
	struct stat st;

	/* Only when some member was seen (mdadm made /run/mdadm). */
	if (s->md_degraded_started || !s->params.md || stat("/run/mdadm", &st) < 0)
		return;
	s->md_degraded_started = true;
	if (run_tool(argv, NULL, 0, out, sizeof(out)) == 0)
		log_warn("md arrays with missing members were started degraded: %s", out);
}

void blockstack_settled(void)
{
	if (!stack.configured)
		return;
	/* A key device that has not come by now is not coming. */
	if (stack.unlock.n_pending)
		luksunlock_retry_pending(&stack.unlock, true);
	mpath_settled();
	md_start_degraded(&stack);
}

/* No resume is decided in a capture kernel: nothing waits for it. */
void blockstack_unattended(unsigned int prompt_sec)
{
	decide(&stack);
	luks_bound_prompts(prompt_sec);
}
