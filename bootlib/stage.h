/* stage: the points of the boot where rd.break=STAGE stops (dracut's names). */
#ifndef LIFEBOAT_RESCUE_STAGE_H
#define LIFEBOAT_RESCUE_STAGE_H

/* In boot order. Each is a bit in boot_args.break_stages. */
enum boot_stage {
	STAGE_CMDLINE,    /* the command line was read; nothing loaded yet */
	STAGE_PRE_UDEV,   /* rd.driver.pre loaded; before coldplug and the wait */
	STAGE_PRE_MOUNT,  /* the root device appeared; before anything touches it */
	STAGE_MOUNT,      /* just before the root filesystem is mounted */
	STAGE_PRE_PIVOT,  /* the root is mounted on /sysroot; before switch_root */
	STAGE_SHUTDOWN,   /* not in the boot: the way out stops there (shutdown/) */
	STAGE_COUNT,
};

#define STAGE_BIT(s) (1u << (s))

/* The stage rd.break=NAME names: dracut's names, with its pre-trigger and
 * initqueue read as pre-udev and cleanup as pre-pivot (lifeboat has one step
 * where dracut has those). Returns the stage or -EINVAL. */
int stage_parse(const char *name);
/* dracut's name of a stage, for messages. */
const char *stage_name(enum boot_stage stage);

#endif
