/* lvmact: activate LVM volumes as their physical volumes appear, holding
 * back until the resume decision every volume whose activation can write.
 *
 * A hibernated kernel wakes up believing its disks are as it left them, so
 * nothing may be written to them before the decision. Before it only the
 * volumes that write nothing when activated are activated (linear or
 * striped, no snapshot merge pending, not being moved by pvmove): the swap
 * a hibernated kernel resumes from is one. The others (raid and mirror
 * volumes that resync, snapshot merges, thin and cache pools, pvmove) are
 * activated once the decision is made, which a resume never returns from. */
#ifndef LIFEBOAT_LVMACT_H
#define LIFEBOAT_LVMACT_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/stack_params.h"

/* How lvm is run: bootlib/run.h's run_tool, or a unit test's stand-in. */
typedef int (*lvmact_run_fn)(char *const argv[], const void *input, size_t input_len,
			     char *out, size_t size);

struct lvm_activation {
	lvmact_run_fn run;
	bool decided;   /* the resume decision is made: activate everything */
	bool held;      /* a physical volume appeared before it: some wait */
};

/* Before the decision; run NULL: run_tool. */
void lvmact_init(struct lvm_activation *a, lvmact_run_fn run);
/* An LVM physical volume appeared: activate what p names (rd.lvm.lv=,
 * rd.lvm.vg=; neither: every group), before the decision only the volumes
 * that write nothing when activated. devname is for the log. */
void lvmact_pv_appeared(struct lvm_activation *a, const struct stack_params *p,
			const char *devname);
/* The resume decision is made (or none is to be made: a capture kernel):
 * activate what was held. Later calls do nothing. */
void lvmact_decided(struct lvm_activation *a, const struct stack_params *p);

/* The lvm selection (lvmreport(7)) of the volumes activated before the
 * decision, for the unit tests. */
extern const char lvmact_write_free[];

#endif
