/* stage: the points of the boot where rd.break=STAGE stops (dracut's names). */
#ifndef LIFEBOAT_RESCUE_STAGE_H
#define LIFEBOAT_RESCUE_STAGE_H

/* In boot order. Each is a bit in boot_args.break_stages. */
enum rescue_stage {
	RESCUE_STAGE_CMDLINE,    /* the command line was read; nothing loaded yet */
	RESCUE_STAGE_PRE_UDEV,   /* rd.driver.pre loaded; before coldplug and the wait */
	RESCUE_STAGE_PRE_MOUNT,  /* the root device appeared; before anything touches it */
	RESCUE_STAGE_MOUNT,      /* just before the root filesystem is mounted */
	RESCUE_STAGE_PRE_PIVOT,  /* the root is mounted on /sysroot; before switch_root */
	RESCUE_STAGE_COUNT,
};

#define RESCUE_STAGE_BIT(s) (1u << (s))

/* The stage rd.break=NAME names: dracut's names, with its pre-trigger and
 * initqueue read as pre-udev and cleanup as pre-pivot (lifeboat has one step
 * where dracut has those). Returns the stage or -EINVAL. */
int rescue_stage_parse(const char *name);
/* dracut's name of a stage, for messages. */
const char *rescue_stage_name(enum rescue_stage stage);

#endif
