/* sequence: the steps of the way out, in the order the stack comes apart
 * (processes, sync, unmount, the block layers from the top, then the
 * iSCSI sessions under them), each bounded in time; a step that fails or
 * overruns is logged and the rest goes on, since powering off with part
 * of the stack up is still better than not powering off. */
#ifndef LIFEBOAT_SHUTDOWN_SEQUENCE_H
#define LIFEBOAT_SHUTDOWN_SEQUENCE_H

#include <stddef.h>

struct shutdown_step {
	const char *name;          /* for the log: "unmounting the old root" */
	int (*run)(void);          /* 0: done; > 0: how many things are left */
	unsigned int timeout_ms;
	const char *left_hint;     /* what the user can look at when things are left */
};

/* How a step is run: in a bounded child (bounded_run) in the program,
 * directly in the unit tests. Returns the step's value or -errno. */
typedef int (*step_runner)(const struct shutdown_step *step);

/* The way out's steps, in order; *count gets their number. */
const struct shutdown_step *shutdown_sequence_steps(size_t *count);

/* Run steps[0..n) in order with runner, logging each outcome. Returns how
 * many steps did not finish clean. */
int shutdown_sequence_run(const struct shutdown_step *steps, size_t n, step_runner runner);

/* The runner of the program: bounded_run with the step's time limit. */
int shutdown_sequence_step_run_bounded(const struct shutdown_step *step);

#endif
