/* stage: the names of the rd.break stages and what they mean in lifeboat. */
#include "rescue/stage.h"

#include <errno.h>
#include <string.h>

struct stage_name {
	const char *name;
	enum rescue_stage stage;
};

/* The first entry of each stage is its own name; the others are dracut's
 * hooks that lifeboat folds into the same step. */
static const struct stage_name stage_names[] = {
	{ "cmdline",     RESCUE_STAGE_CMDLINE },
	{ "pre-udev",    RESCUE_STAGE_PRE_UDEV },
	{ "pre-mount",   RESCUE_STAGE_PRE_MOUNT },
	{ "mount",       RESCUE_STAGE_MOUNT },
	{ "pre-pivot",   RESCUE_STAGE_PRE_PIVOT },
	{ "pre-trigger", RESCUE_STAGE_PRE_UDEV },
	{ "initqueue",   RESCUE_STAGE_PRE_UDEV },
	{ "cleanup",     RESCUE_STAGE_PRE_PIVOT },
};

int rescue_stage_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(stage_names) / sizeof(stage_names[0]); i++)
		if (strcmp(stage_names[i].name, name) == 0)
			return (int)stage_names[i].stage;
	return -EINVAL;
}

const char *rescue_stage_name(enum rescue_stage stage)
{
	return stage < RESCUE_STAGE_COUNT ? stage_names[stage].name : "?";
}
