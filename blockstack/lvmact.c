/* lvmact: activate LVM volumes, the ones that can write only after the resume decision. */
#include "blockstack/lvmact.h"

#include <stdio.h>

#include "bootlib/log.h"
#include "bootlib/run.h"
#include "common/layout.h"

/* Before the decision, lvm activates only the volumes this selects
 * (lvmreport(7)): a layout of plain linear or striped segments, so no raid
 * or mirror (a resync or recovery starts at activation), no thin or cache
 * pool (their metadata is checked, repaired or updated), no vdo; no
 * snapshot merge pending (lv_merging, set on the origin and the snapshot:
 * the kernel's snapshot-merge target copies the snapshot back into the
 * origin as soon as it is loaded); not locked by a pvmove (the volume's
 * segments then map onto the move's mirror, which copies). An origin with
 * snapshots that are not merging writes nothing until something writes
 * to it. */
const char lvmact_write_free[] =
	"(lv_layout=[linear] || lv_layout=[striped] || lv_layout=[linear,striped])"
	" && lv_merging=0 && lv_allocation_locked=0";

#define ARGV_MAX (6 + 2 * STACK_LIST_MAX + 1)

void lvmact_init(struct lvm_activation *a, lvmact_run_fn run)
{
	a->run = run ? run : run_tool;
	a->decided = false;
	a->held = false;
}

/* Append n names to argv at *i. */
static void add_names(char **argv, size_t *i, const char (*names)[STACK_NAME_MAX], size_t n)
{
	for (size_t k = 0; k < n; k++)
		argv[(*i)++] = (char *)names[k];
}

/* "lvm VERB -ay --sysinit [--select SELECTION] [LVS] [VGS]" (no names:
 * every volume group). --sysinit is lvm2's set for an initramfs:
 * --ignorelockingfailure (no lock directory to write to before the root),
 * --ignoremonitoring (no dmeventd here; the image's lvm.conf also says
 * monitoring = 0) and --poll n: no lvm process is left behind to finish a
 * merge or pvmove in the metadata (it would outlive the initramfs); the
 * booted system's lvm does that. */
static int run_lvm(const struct lvm_activation *a, const char *verb, const char *selection,
		   const struct stack_params *p, bool lvs, bool vgs, char *out, size_t size)
{
	char *argv[ARGV_MAX] = { LAYOUT_LVM, (char *)verb, "-ay", "--sysinit" };
	size_t i = 4;

	if (selection) {
		argv[i++] = "--select";
		argv[i++] = (char *)selection;
	}
	if (lvs)
		add_names(argv, &i, p->lvm_lvs, p->n_lvs);
	if (vgs)
		add_names(argv, &i, p->lvm_vgs, p->n_vgs);
	argv[i] = NULL;
	return a->run(argv, NULL, 0, out, size);
}

static void log_result(const char *verb, const char *what, int r, const char *out)
{
	/* A volume group whose other physical volumes have not appeared yet
	 * fails now and is activated when they do. */
	if (r != 0)
		log_info("lvm %s -ay %s: exit %d: %s", verb, what, r, out);
	else
		log_info("lvm %s -ay %s: done", verb, what);
}

/* Every volume p names, as the boot has always done: the logical volumes
 * rd.lvm.lv= names and the groups rd.lvm.vg= names (a host-only image
 * names its root's group, a boot entry may name LVs too: both). */
static void activate_all(const struct lvm_activation *a, const struct stack_params *p,
			 const char *what)
{
	char out[1024];
	int r;

	if (p->n_lvs) {
		r = run_lvm(a, "lvchange", NULL, p, true, false, out, sizeof(out));
		log_result("lvchange", what, r, out);
	}
	if (p->n_vgs || !p->n_lvs) {
		r = run_lvm(a, "vgchange", NULL, p, false, true, out, sizeof(out));
		log_result("vgchange", what, r, out);
	}
}

/* The same names, the selection applied: one lvchange, since vgchange
 * selects groups, not volumes (lvchange takes group names too). */
static void activate_write_free(const struct lvm_activation *a, const struct stack_params *p,
				const char *devname)
{
	char out[1024], what[160];
	int r = run_lvm(a, "lvchange", lvmact_write_free, p, true, p->n_vgs || !p->n_lvs,
			out, sizeof(out));

	snprintf(what, sizeof(what), "--select (the volumes that write nothing when activated) "
		 "after /dev/%s appeared", devname);
	log_result("lvchange", what, r, out);
}

void lvmact_pv_appeared(struct lvm_activation *a, const struct stack_params *p,
			const char *devname)
{
	if (a->decided) {
		char what[96];

		snprintf(what, sizeof(what), "after /dev/%s appeared", devname);
		activate_all(a, p, what);
		return;
	}
	if (!a->held)
		log_info("LVM volumes that can write when activated (raid, mirror, thin, cache, "
			 "a snapshot merge, a pvmove) wait for the resume decision");
	a->held = true;
	activate_write_free(a, p, devname);
}

void lvmact_decided(struct lvm_activation *a, const struct stack_params *p)
{
	bool held = a->held;

	if (a->decided)
		return;
	a->decided = true;
	a->held = false;
	if (held)
		activate_all(a, p, "after the resume decision");
}
