/* procstat: one process's /proc/PID/stat, the fields the init needs. */
#ifndef LIFEBOAT_BOOTLIB_PROCSTAT_H
#define LIFEBOAT_BOOTLIB_PROCSTAT_H

#include <stdbool.h>
#include <sys/types.h>

struct procstat {
	pid_t pid;
	char state;            /* 'R', 'S', 'D', 'Z' (a zombie), ... */
	pid_t ppid;
	unsigned long flags;   /* the kernel's PF_* bits */
};

/* Whether a name of /proc is a process's (all digits). */
bool procstat_is_pid_name(const char *name);
/* Parse "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS ...". COMM is
 * what the process named itself, blanks and parentheses included: the
 * fields start after its last ')'. Returns 0 or -EINVAL. */
int procstat_parse(const char *text, struct procstat *st);
/* Read and parse DIR/PID/stat (DIR: "/proc"). Returns 0, -EINVAL, or
 * -errno (-ENOENT: the process is gone). */
int procstat_read(const char *dir, const char *pid, struct procstat *st);
/* Whether st is a thread of the kernel itself (no program of its own). */
bool procstat_is_kernel_thread(const struct procstat *st);

#endif
