/* shell: the gate to a shell (rd.shell, the root password), then the
 * image's shell on the console with job control. */
#include "bootlib/shell.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "bootlib/console.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"

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

/* Run shell on the terminal tty in its own session with tty as its
 * controlling terminal; return when it exits. 0 or -errno when it could
 * not start. Static: every shell goes through shell_enter's gate. */
static int shell_run(const char *shell, const char *tty)
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

enum shell_verdict shell_decide(const struct rescue_args *args, enum shell_cause cause,
				int auth_loaded)
{
	if (!args->shell && cause != SHELL_FOR_BREAK)
		return SHELL_REFUSED_CMDLINE;
	if (auth_loaded == -ENOENT)
		return SHELL_OPEN;
	/* A password file that cannot be read or makes no sense must not
	 * open the shell to everyone. */
	return auth_loaded == 0 ? SHELL_ASK_PASSWORD : SHELL_REFUSED_AUTH_FILE;
}

/* Ask for the password when verdict says so, on every console; tty then
 * names the one it was typed on. Returns 0 when access is granted,
 * -EACCES otherwise (the reason printed). */
static int check_password(enum shell_verdict verdict, const char *hash, char *tty, size_t size)
{
	int r = 0;

	if (verdict == SHELL_REFUSED_AUTH_FILE) {
		log_console("lifeboat: %s cannot be read or is malformed, so no shell is opened; "
			    "rebuild the image with --rescue-auth\n", RESCUE_AUTH_PATH);
		return -EACCES;
	}
	if (verdict == SHELL_ASK_PASSWORD)
		r = auth_ask(hash, tty, size);
	if (r == -ENOSYS)
		log_console("lifeboat: %s cannot be loaded, so no password can be checked; "
			    "rebuild the image with --rescue-auth\n", RESCUE_LIBCRYPT);
	return r == 0 ? 0 : -EACCES;
}

/* The image's shell, or the fallback when there is none or it would not
 * start. A console that gives out counts as leaving. */
static void run_shell_or_fallback(const struct shell_request *req, const char *shell, int fd,
				  const char *tty)
{
	int r = shell[0] ? shell_run(shell, tty) : -ENOENT;

	if (r < 0 && shell[0])
		log_warn("starting the shell %s failed (%s)%s", shell, strerror(-r),
			 req->fallback ? "; using the built-in prompt" : "");
	if (r < 0 && req->fallback)
		req->fallback(fd);
}

/* The console's real terminal (for job control), else /dev/console. */
static int terminal_open(char *tty, size_t size)
{
	int fd;

	console_tty_path(tty, size);
	fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0)
		console_make_sane(fd);
	return fd;
}

/* The terminal the password was typed on, when it is not fd's (was):
 * the shell runs where the person is. */
static int terminal_follow(int fd, const char *was, const char *tty)
{
	int other;

	if (strcmp(was, tty) == 0)
		return fd;
	other = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (other < 0)
		return fd;
	console_make_sane(other);
	close(fd);
	return other;
}

int shell_enter(const struct rescue_args *args, const struct shell_request *req)
{
	char hash[512], shell[64] = "", tty[64], opened[64];
	enum shell_verdict verdict = shell_decide(args, req->cause,
						  auth_load(RESCUE_AUTH_PATH, hash, sizeof(hash)));
	int fd, r;

	if (verdict == SHELL_REFUSED_CMDLINE) {
		explicit_bzero(hash, sizeof(hash));
		return -EPERM;
	}
	if (shell_find(shell, sizeof(shell)) < 0 && !req->fallback) {
		explicit_bzero(hash, sizeof(hash));
		return -ENOENT;
	}
	if (req->announce)
		log_console("%s", req->announce);
	fd = terminal_open(tty, sizeof(tty));
	snprintf(opened, sizeof(opened), "%s", tty);
	/* Nobody can type: go on as if they had left. */
	r = fd < 0 ? 0 : check_password(verdict, hash, tty, sizeof(tty));
	explicit_bzero(hash, sizeof(hash));
	if (fd >= 0 && r == 0) {
		fd = terminal_follow(fd, opened, tty);
		run_shell_or_fallback(req, shell, fd, tty);
	}
	if (fd >= 0)
		close(fd);
	return r;
}
