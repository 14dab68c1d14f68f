/* resume_args: resume=, resume_offset=, noresume, rd.resume.timeout=. */
#include "resume/resume_args.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* resume_offset=: decimal pages, as the kernel reads it. */
static int set_offset(void *args, const struct cmdline_word *w, const char *value)
{
	char *end;
	unsigned long long v;

	(void)w;
	if (!value || !*value || *value == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno || *end)
		return -EINVAL;
	((struct resume_args *)args)->offset = v;
	return 0;
}

static const struct cmdline_word words[] = {
	{ "resume",            cmdline_set_string,  offsetof(struct resume_args, device) },
	{ "resume_offset",     set_offset,          0 },
	{ "noresume",          cmdline_set_flag,    offsetof(struct resume_args, noresume) },
	{ "rd.resume.timeout", cmdline_set_seconds, offsetof(struct resume_args, timeout_sec) },
};

void resume_args_init(struct resume_args *a)
{
	memset(a, 0, sizeof(*a));
	a->timeout_sec = RESUME_DEFAULT_TIMEOUT;
}

struct cmdline_owner resume_args_cmdline(struct resume_args *a)
{
	return (struct cmdline_owner){ "resume", words, CMDLINE_N(words), a, NULL };
}
