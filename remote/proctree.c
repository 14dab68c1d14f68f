/* proctree: the processes under one process, read from /proc.
 *
 * The SSH server forks a process per connection, and each a session in a
 * session of its own: signalling the server's process group misses them.
 * Their parent links in /proc find them all. */
#include "remote/proctree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROCTREE_SCAN_MAX 4096

int proctree_stat_ppid(const char *text, pid_t *ppid)
{
	const char *close = strrchr(text, ')');
	char *end;
	long v;

	if (!close || close[1] != ' ' || !close[2] || close[3] != ' ')
		return -EINVAL;
	if (!isdigit((unsigned char)close[4]))
		return -EINVAL;
	errno = 0;
	v = strtol(close + 4, &end, 10);
	if (errno || (*end != ' ' && *end != '\0' && *end != '\n') || v < 0 || v > 1 << 22)
		return -EINVAL;
	*ppid = (pid_t)v;
	return 0;
}

static int read_ppid(const char *pid, pid_t *ppid)
{
	char path[64], text[512];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	text[n] = '\0';
	return proctree_stat_ppid(text, ppid);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

struct proc_link {
	pid_t pid, ppid;
};

/* Every process with its parent, at most max. */
static int scan(struct proc_link *links, size_t max)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	if (!dir)
		return -errno;
	while (n < max && (de = readdir(dir)))
		if (all_digits(de->d_name) && read_ppid(de->d_name, &links[n].ppid) == 0)
			links[n++].pid = (pid_t)atoi(de->d_name);
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
