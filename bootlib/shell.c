/* shell: run the image's shell on the console, with job control. */
#include "bootlib/shell.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/console.h"
#include "bootlib/evloop.h"

static const char *const shell_paths[] = { "/bin/sh", "/usr/bin/sh", "/sbin/sh" };

int shell_find(char *out, size_t size)
{
	for (size_t i = 0; i < sizeof(shell_paths) / sizeof(shell_paths[0]); i++)
		if (access(shell_paths[i], X_OK) == 0) {
			snprintf(out, size, "%s", shell_paths[i]);
			return 0;
		}
	return -ENOENT;
}

/* In the child: a session of its own whose controlling terminal is tty, so
 * the shell gets ^C, ^Z and job control; on /dev/console it cannot. */
static void attach_terminal(const char *tty)
{
	int fd;

	setsid();
	fd = open(tty, O_RDWR);
	if (fd < 0)
		fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	if (ioctl(fd, TIOCSCTTY, 0) < 0)
		dprintf(fd, "lifeboat: %s cannot be the shell's terminal (%s): no job control\n",
			tty, strerror(errno));
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
	console_make_sane(0);
}

static void exec_shell(const char *shell, const char *tty)
{
	char term[32];
	char *const argv[] = { "sh", NULL };
	char *env[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"PS1=lifeboat:\\w# ", "HOME=/root", "SHELL=/bin/sh", term, NULL,
	};

	/* A serial line's far end is usually a terminal emulator speaking vt102;
	 * the virtual terminals are "linux". */
	snprintf(term, sizeof(term), "TERM=%s", strncmp(tty, "/dev/tty", 8) == 0 &&
		 tty[8] >= '0' && tty[8] <= '9' ? "linux" : "vt102");
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	if (chdir("/") < 0)
		_exit(127);
	execve(shell, argv, env);
	dprintf(2, "lifeboat: starting %s failed: %s\n", shell, strerror(errno));
	_exit(127);
}

int shell_run(const char *shell, const char *tty)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		attach_terminal(tty);
		exec_shell(shell, tty);
	}
	/* Only the shell (other components may have children of their own to
	 * wait for), following kernel events meanwhile. */
	return evloop_wait_child(pid);
}
