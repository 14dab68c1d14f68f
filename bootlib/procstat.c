/* procstat: one process's /proc/PID/stat, the fields the init needs.
 *
 * The text is the kernel's, but its second field is the name a process
 * gave itself (prctl PR_SET_NAME, or its program's file name): any
 * process may put ")", blanks or digits there. proc(5). */
#include "bootlib/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileread.h"

/* include/linux/sched.h: set for the kernel's own threads only. */
#define PF_KTHREAD 0x00200000UL
/* The largest PID the kernel hands out (PID_MAX_LIMIT, 2^22). */
#define PROCSTAT_PID_MAX (1L << 22)

/* One blank-separated decimal field at *p, moved past it. */
static int field(const char **p, long min, long max, long *out)
{
	char *end;
	long v;

	if (**p != ' ' || !((*p)[1] == '-' || ((*p)[1] >= '0' && (*p)[1] <= '9')))
		return -EINVAL;
	errno = 0;
	v = strtol(*p + 1, &end, 10);
	if (errno || v < min || v > max || (*end != ' ' && *end != '\0' && *end != '\n'))
		return -EINVAL;
	*p = end;
	*out = v;
	return 0;
}

bool procstat_is_pid_name(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (*name < '0' || *name > '9')
			return false;
	return true;
}

int procstat_parse(const char *text, struct procstat *st)
{
	const char *close = strrchr(text, ')'), *p;
	long pid, v[6];
	char *end;

	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || end == text || text[0] < '0' || text[0] > '9' || pid > PROCSTAT_PID_MAX ||
	    strncmp(end, " (", 2) != 0 || !close || close < end + 1)
		return -EINVAL;
	if (close[1] != ' ' || !close[2] || close[2] == ' ' || close[2] == '\n')
		return -EINVAL;
	/* ppid, pgrp, session, tty_nr, tpgid (-1: none), flags (an unsigned int). */
	p = close + 3;
	for (int i = 0; i < 6; i++)
		if (field(&p, i == 4 ? -1 : 0, i == 5 ? 0xffffffffL : i == 3 ? 0x7fffffffL :
			  PROCSTAT_PID_MAX, &v[i]) < 0)
			return -EINVAL;
	*st = (struct procstat){ .pid = (pid_t)pid, .state = close[2], .ppid = (pid_t)v[0],
				 .flags = (unsigned long)v[5] };
	return 0;
}

int procstat_read(const char *dir, const char *pid, struct procstat *st)
{
	char path[64], text[512];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/stat", dir, pid);
	n = file_read_text(path, 0, text, sizeof(text));
	if (n < 0)
		return (int)n;
	return procstat_parse(text, st);
}

bool procstat_is_kernel_thread(const struct procstat *st)
{
	return (st->flags & PF_KTHREAD) != 0;
}
