/* proctree: the processes under one process, read from /proc.
 *
 * The SSH server forks a process per connection, and each a session in a
 * session of its own: signalling the server's process group misses them.
 * Their parent links in /proc find them all, but not what left its parent
 * (setsid and a double fork): bootlib/procsweep.c ends those before
 * switch_root. */
#include "remote/proctree.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#include "bootlib/procstat.h"

#define PROCTREE_SCAN_MAX 4096

struct proc_link {
	pid_t pid, ppid;
};

/* Every process with its parent, at most max. */
static int scan(struct proc_link *links, size_t max)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	struct procstat st;
	size_t n = 0;

	if (!dir)
		return -errno;
	while (n < max && (de = readdir(dir)))
		if (procstat_is_pid_name(de->d_name) && procstat_read("/proc", de->d_name, &st) == 0)
			links[n++] = (struct proc_link){ .pid = st.pid, .ppid = st.ppid };
	closedir(dir);
	return (int)n;
}

int proctree_descendants(pid_t root, pid_t *out, size_t max)
{
	struct proc_link *links = calloc(PROCTREE_SCAN_MAX, sizeof(*links));
	int n = links ? scan(links, PROCTREE_SCAN_MAX) : -ENOMEM;
	size_t found = 0;

	/* Breadth first: out itself is the queue of parents still to look under. */
	for (size_t at = 0; n > 0 && at <= found; at++) {
		pid_t parent = at == 0 ? root : out[at - 1];

		for (int i = 0; i < n && found < max; i++)
			if (links[i].ppid == parent && links[i].pid != root)
				out[found++] = links[i].pid;
	}
	free(links);
	return n < 0 ? n : (int)found;
}
