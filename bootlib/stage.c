/* stage: the names of the rd.break stages and what they mean in lifeboat. */
#include "bootlib/stage.h"

#include <errno.h>
#include <string.h>

struct stage_name {
	const char *name;
	enum boot_stage stage;
};

/* The first entry of each stage is its own name; the others are dracut's
 * hooks that lifeboat folds into the same step. */
static const struct stage_name stage_names[] = {
	{ "cmdline",     STAGE_CMDLINE },
	{ "pre-udev",    STAGE_PRE_UDEV },
	{ "pre-mount",   STAGE_PRE_MOUNT },
	{ "mount",       STAGE_MOUNT },
	{ "pre-pivot",   STAGE_PRE_PIVOT },
	{ "shutdown",    STAGE_SHUTDOWN },
	{ "pre-trigger", STAGE_PRE_UDEV },
	{ "initqueue",   STAGE_PRE_UDEV },
	{ "cleanup",     STAGE_PRE_PIVOT },
};

int stage_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(stage_names) / sizeof(stage_names[0]); i++)
		if (strcmp(stage_names[i].name, name) == 0)
			return (int)stage_names[i].stage;
	return -EINVAL;
}

const char *stage_name(enum boot_stage stage)
{
	return stage < STAGE_COUNT ? stage_names[stage].name : "?";
}
