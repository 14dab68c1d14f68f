/* resume_args: the words of the resume decision (resume/, docs/resume.md). */
#ifndef LIFEBOAT_RESUME_ARGS_H
#define LIFEBOAT_RESUME_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"

/* rd.resume.timeout default: a swap that is missing or slow must not stall
 * a normal boot for long. */
#define RESUME_DEFAULT_TIMEOUT 5

struct resume_args {
	char device[CMDLINE_VALUE_MAX];       /* resume=: the swap device */
	unsigned long long offset;            /* resume_offset=: pages into it (swap file) */
	bool noresume;
	unsigned int timeout_sec;             /* rd.resume.timeout= */
};

void resume_args_init(struct resume_args *a);
struct cmdline_owner resume_args_cmdline(struct resume_args *a);

#endif
