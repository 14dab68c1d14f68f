/* fsck_args: rd.fsck, fastboot, forcefsck, rd.skipfsck, fsck.mode=. */
#include "fsck/fsck_args.h"

#include <errno.h>
#include <string.h>

static int set_mode(void *args, enum fsck_mode mode)
{
	*(enum fsck_mode *)args = mode;
	return 0;
}

/* rd.fsck=0 skips the check; rd.fsck (or =1) asks for it again. */
static int set_rd_fsck(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	return set_mode(args, cmdline_bool(value) ? FSCK_MODE_AUTO : FSCK_MODE_SKIP);
}

/* fastboot: the kernel's old word for "skip the filesystem check". */
static int set_fastboot(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	(void)value;
	return set_mode(args, FSCK_MODE_SKIP);
}

/* forcefsck: the kernel's old word for "check even a clean filesystem". */
static int set_forcefsck(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	(void)value;
	return set_mode(args, FSCK_MODE_FORCE);
}

/* rd.skipfsck: dracut's switch (a flag; rd.skipfsck=0 turns it off again). */
static int set_rd_skipfsck(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	return set_mode(args, cmdline_bool(value) ? FSCK_MODE_SKIP : FSCK_MODE_AUTO);
}

/* fsck.mode=auto|force|skip: systemd-fsck's, which dracut's images read too. */
static int set_fsck_mode(void *args, const struct cmdline_word *w, const char *value)
{
	static const char *const modes[] = {
		[FSCK_MODE_SKIP] = "skip", [FSCK_MODE_AUTO] = "auto", [FSCK_MODE_FORCE] = "force",
	};

	(void)w;
	for (size_t i = 0; value && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(value, modes[i]) == 0)
			return set_mode(args, (enum fsck_mode)i);
	return -EINVAL;
}

static const struct cmdline_word words[] = {
	{ "rd.fsck",     set_rd_fsck,     0 },
	{ "fastboot",    set_fastboot,    0 },
	{ "forcefsck",   set_forcefsck,   0 },
	{ "rd.skipfsck", set_rd_skipfsck, 0 },
	{ "fsck.mode",   set_fsck_mode,   0 },
};

struct cmdline_owner fsck_args_cmdline(enum fsck_mode *mode)
{
	return (struct cmdline_owner){ "fsck", words, CMDLINE_N(words), mode, NULL };
}
