/* shellstate: the gate's facts in /run, for a login that is not PID 1. */
#include "bootlib/shellstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileread.h"

static const char *const cause_names[] = {
	[SHELL_FOR_FAILURE] = "failure", [SHELL_FOR_ACTION] = "action",
	[SHELL_FOR_BREAK] = "break", [SHELL_FOR_REMOTE] = "remote",
};
#define N_CAUSES (sizeof(cause_names) / sizeof(cause_names[0]))

const char *shell_state_cause_name(enum shell_cause cause)
{
	return (size_t)cause < N_CAUSES ? cause_names[cause] : "remote";
}

bool shell_state_console_open(const struct shell_state *st)
{
	return st->console_pid > 1 &&
	       (st->cause == SHELL_FOR_FAILURE || st->cause == SHELL_FOR_BREAK);
}

void shell_state_format(const struct shell_state *st, char *buf, size_t size)
{
	snprintf(buf, size, "shell=%d cause=%s pid=%ld\n", st->shell ? 1 : 0,
		 shell_state_cause_name(st->cause), (long)st->console_pid);
}

static int parse_cause(const char *word, size_t len, enum shell_cause *cause)
{
	for (size_t i = 0; i < N_CAUSES; i++)
		if (strlen(cause_names[i]) == len && strncmp(cause_names[i], word, len) == 0) {
			*cause = (enum shell_cause)i;
			return 0;
		}
	return -EINVAL;
}

/* "pid=N" with N a positive number or 0. */
static int parse_pid(const char *value, size_t len, pid_t *pid)
{
	long v = 0;

	if (len == 0 || len > 9)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (value[i] < '0' || value[i] > '9')
			return -EINVAL;
		v = v * 10 + (value[i] - '0');
	}
	*pid = (pid_t)v;
	return 0;
}

/* One "key=value" word; each of the three must come exactly once. */
static int parse_word(const char *w, size_t len, struct shell_state *st, unsigned int *seen)
{
	const char *eq = memchr(w, '=', len);
	size_t klen = eq ? (size_t)(eq - w) : len, vlen = eq ? len - klen - 1 : 0;
	unsigned int bit;
	int r;

	if (!eq)
		return -EINVAL;
	if (klen == 5 && strncmp(w, "shell", 5) == 0) {
		bit = 1;
		r = vlen == 1 && (eq[1] == '0' || eq[1] == '1') ? 0 : -EINVAL;
		st->shell = eq[1] == '1';
	} else if (klen == 5 && strncmp(w, "cause", 5) == 0) {
		bit = 2;
		r = parse_cause(eq + 1, vlen, &st->cause);
	} else if (klen == 3 && strncmp(w, "pid", 3) == 0) {
		bit = 4;
		r = parse_pid(eq + 1, vlen, &st->console_pid);
	} else {
		return -EINVAL;
	}
	if (r < 0 || (*seen & bit))
		return -EINVAL;
	*seen |= bit;
	return 0;
}

int shell_state_parse(const char *text, struct shell_state *st)
{
	unsigned int seen = 0;
	const char *p = text;

	*st = (struct shell_state){ .shell = false, .cause = SHELL_FOR_REMOTE };
	while (*p && *p != '\n') {
		size_t len = strcspn(p, " \n");

		if (len && parse_word(p, len, st, &seen) < 0)
			break;
		p += len;
		if (*p == ' ')
			p++;
	}
	if (seen != 7 || (*p == '\n' && p[1]) || (*p && *p != '\n')) {
		*st = (struct shell_state){ .shell = false, .cause = SHELL_FOR_REMOTE };
		return -EINVAL;
	}
	return 0;
}

int shell_state_write(const char *path, const struct shell_state *st)
{
	char line[96], tmp[256];
	int fd, r = 0;
	size_t len;

	shell_state_format(st, line, sizeof(line));
	len = strlen(line);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	if (write(fd, line, len) != (ssize_t)len)
		r = -EIO;
	close(fd);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

int shell_state_read(const char *path, struct shell_state *st)
{
	char line[128];
	ssize_t n = file_read_text(path, O_NOFOLLOW, line, sizeof(line));

	if (n < 0)
		return (int)n;
	return shell_state_parse(line, st);
}
