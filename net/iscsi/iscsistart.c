/* iscsistart: run open-iscsi's iscsistart under a deadline and say what its exit status means. */
#include "net/iscsi/iscsistart.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#define POLL_MS 100
#define ARGV_MAX 48

/* iscsiadm(8), EXIT STATUS: the ones a boot login meets, what they mean and
 * what the user can do. */
static const struct {
	int status;
	bool transient;
	const char *text;
} statuses[] = {
	{ 4,  true,  "the connection to the target failed (refused or unreachable): check "
		     "the address and port, that the target runs and is reachable" },
	{ 5,  true,  "the login failed: check the target's log" },
	{ 8,  true,  "the connection timed out: check that the target is reachable from "
		     "this network" },
	{ 11, true,  "the target did not answer in time: check the target's log" },
	{ 12, false, "the iscsi_tcp transport is not loaded: build the image with --iscsi" },
	{ 19, false, "the login was refused: check the target name, that the target allows "
		     "this initiator name (rd.iscsi.initiator=) and, with mutual CHAP, the "
		     "target's name and secret (rd.iscsi.in.username=, rd.iscsi.in.password=)" },
	{ 24, false, "authorization failed: check the CHAP user name and secret "
		     "(rd.iscsi.username=, rd.iscsi.password=, or USER:PASSWORD@ in the root "
		     "path) against the target's account" },
	{ 29, true,  "the operation failed and may work later" },
};

static int status_find(int status)
{
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (statuses[i].status == status)
			return (int)i;
	return -1;
}

const char *iscsistart_status_text(int status)
{
	int i = status_find(status);

	return i < 0 ? "iscsistart failed: see its message above" : statuses[i].text;
}

bool iscsistart_status_transient(int status)
{
	int i = status_find(status);

	return i < 0 || statuses[i].transient;
}

static void argv_push(const char **argv, int *argc, const char *opt, const char *value)
{
	if (!value[0] || *argc + 2 >= ARGV_MAX)
		return;
	argv[(*argc)++] = opt;
	argv[(*argc)++] = value;
}

static void child_exec(const struct iscsi_target *t, const char *initiator,
		       const char *const *params)
{
	const char *argv[ARGV_MAX] = { ISCSISTART_PATH };
	char port[16], group[16];
	int argc = 1;

	snprintf(port, sizeof(port), "%u", t->port);
	snprintf(group, sizeof(group), "%u", t->group);
	argv_push(argv, &argc, "-i", initiator);
	argv_push(argv, &argc, "-t", t->name);
	argv_push(argv, &argc, "-g", group);
	argv_push(argv, &argc, "-a", t->server);
	argv_push(argv, &argc, "-p", port);
	argv_push(argv, &argc, "-u", t->chap.username);
	argv_push(argv, &argc, "-w", t->chap.password);
	argv_push(argv, &argc, "-U", t->chap.in_username);
	argv_push(argv, &argc, "-W", t->chap.in_password);
	for (; params && *params; params++)
		argv_push(argv, &argc, "-P", *params);
	argv[argc] = NULL;
	execv(ISCSISTART_PATH, (char *const *)argv);
	_exit(127);
}

/* "iscsistart: initiator reported error (24 - ...)": iscsistart exits 1
 * for any failed login and says the real status only in this line. */
int iscsistart_reported_status(const char *line)
{
	static const char mark[] = "reported error (";
	const char *p = strstr(line, mark);
	int v = 0;

	if (!p)
		return -1;
	p += sizeof(mark) - 1;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9' && v < 1000; p++)
		v = v * 10 + (*p - '0');
	return v < 1000 ? v : -1;
}

static void output_line(struct iscsistart_output *o, FILE *echo)
{
	int status;

	o->line[o->len] = '\0';
	if (echo)
		fprintf(echo, "%s\n", o->line);
	status = iscsistart_reported_status(o->line);
	if (status > 0)
		o->reported = status;
	o->len = 0;
}

void iscsistart_output_feed(struct iscsistart_output *o, const char *buf, size_t len, FILE *echo)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n')
			output_line(o, echo);
		else if (o->len + 1 < sizeof(o->line))
			o->line[o->len++] = buf[i];
	}
}

void iscsistart_output_end(struct iscsistart_output *o, FILE *echo)
{
	if (o->len)
		output_line(o, echo);
}

/* Pass iscsistart's output on to the console line by line, noting the
 * status it reports; until it closes the pipe or the deadline passes. */
static int output_relay(int fd, unsigned int timeout_ms, int *reported)
{
	struct iscsistart_output out = { .len = 0 };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (unsigned int waited = 0; waited < timeout_ms; ) {
		char buf[256];
		int r = poll(&pfd, 1, POLL_MS);
		ssize_t n;

		if (r == 0) {
			waited += POLL_MS;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		n = r < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (n <= 0) {
			iscsistart_output_end(&out, stderr);
			*reported = out.reported;
			return 0;
		}
		iscsistart_output_feed(&out, buf, (size_t)n, stderr);
	}
	*reported = out.reported;
	return -ETIMEDOUT;
}

static int child_wait(pid_t pid, bool kill_it, int *wstatus)
{
	if (kill_it)
		kill(pid, SIGKILL);
	while (waitpid(pid, wstatus, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int iscsistart_login(const struct iscsi_target *t, const char *initiator,
		     const char *const *params, unsigned int timeout_ms, int *status)
{
	int wstatus = 0, reported = 0, fds[2];
	pid_t pid;
	int r;

	*status = 0;
	if (access(ISCSISTART_PATH, X_OK) < 0)
		return -ENOENT;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(fds[0]);
		close(fds[1]);
		return r;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		child_exec(t, initiator, params);
	}
	close(fds[1]);
	r = output_relay(fds[0], timeout_ms, &reported);
	close(fds[0]);
	if (child_wait(pid, r == -ETIMEDOUT, &wstatus) < 0 || r < 0)
		return -ETIMEDOUT;
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	if (*status != 0 && reported > 0)
		*status = reported;
	/* 15: a session to the target is up already (a retry after rescue). */
	return *status == 0 || *status == 15 ? 0 : -EIO;
}
