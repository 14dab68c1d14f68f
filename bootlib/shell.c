/* shell: the gate to a shell (rd.shell, the root password), then the
 * image's shell on the console with job control. */
#include "bootlib/shell.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "bootlib/authlimit.h"
#include "bootlib/console.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/shellsetup.h"
#include "bootlib/shellstate.h"
#include "bootlib/unxz.h"
#include "common/fileread.h"
#include "common/layout.h"

static const char *const shell_paths[] = { "/bin/sh", "/usr/bin/sh", "/sbin/sh" };

/* The applet links LAYOUT_BUSYBOX_APPLETS names; one that exists (a link
 * made by another unpacking, a real program) stays. */
static int busybox_links(void)
{
	char *list, *name, *save = NULL;
	size_t len;
	int dirfd, r = file_read_all(LAYOUT_BUSYBOX_APPLETS, 1 << 20, &list, &len);

	if (r < 0)
		return r;
	dirfd = open(LAYOUT_BUSYBOX_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		free(list);
		return -errno;
	}
	name = strtok_r(list, "\n", &save);
	for (; name; name = strtok_r(NULL, "\n", &save))
		if (strchr(name, '/') == NULL && symlinkat("busybox", dirfd, name) < 0 &&
		    errno != EEXIST)
			r = -errno;
	close(dirfd);
	free(list);
	return r;
}

/* busybox from LAYOUT_BUSYBOX_XZ, once. Its links first: a busybox in place
 * has them, even while the init and an SSH login both unpack it. */
static int busybox_unpack(void)
{
	int r = busybox_links();

	return r < 0 ? r : unxz_file(LAYOUT_BUSYBOX_XZ, LAYOUT_BUSYBOX, 0755);
}

int shell_find(char *out, size_t size)
{
	int r;

	if (access(LAYOUT_BUSYBOX, X_OK) < 0 && access(LAYOUT_BUSYBOX_XZ, F_OK) == 0) {
		r = busybox_unpack();
		if (r < 0)
			log_error("cannot unpack the rescue shell %s into %s: %s; the image is "
				  "damaged or the initramfs is full: rebuild it", LAYOUT_BUSYBOX_XZ,
				  LAYOUT_BUSYBOX, strerror(-r));
	}
	r = shellsetup_install();
	if (r < 0)
		log_warn("making the rescue shell's modprobe and %s failed (%s): load modules "
			 "with insmod", SHELLSETUP_FILESYSTEMS, strerror(-r));
	for (size_t i = 0; i < sizeof(shell_paths) / sizeof(shell_paths[0]); i++)
		if (access(shell_paths[i], X_OK) == 0) {
			snprintf(out, size, "%s", shell_paths[i]);
			return 0;
		}
	return -ENOENT;
}

/* An image made on a merged-/usr host has no /bin unless something of it
 * lies there: it gets the host's /bin -> usr/bin, else a /bin/sh of its
 * own. A script still without a shell fails to start, and says so. */
void shell_for_scripts(void)
{
	char shell[64];

	if (shell_find(shell, sizeof(shell)) < 0 || access("/bin/sh", X_OK) == 0)
		return;
	if (symlink("usr/bin", "/bin") < 0 && errno == EEXIST && access("/bin/sh", X_OK) < 0 &&
	    symlink(shell, "/bin/sh") < 0)
		log_debug("making /bin/sh for the image's scripts failed: %s", strerror(errno));
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

/* Exec shell with argv in the environment every shell of the image gets;
 * term is the terminal's type. Does not return. */
static void exec_with(const char *shell, char *const argv[], const char *term)
{
	char term_var[64];
	char *env[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"PS1=lifeboat:\\w# ", "HOME=/root", "SHELL=/bin/sh", "ENV=" SHELLSETUP_RC, term_var,
		NULL,
	};

	snprintf(term_var, sizeof(term_var), "TERM=%s", term);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	if (chdir("/") < 0)
		_exit(127);
	execve(shell, argv, env);
	dprintf(2, "lifeboat: starting %s failed: %s\n", shell, strerror(errno));
	_exit(127);
}

static void exec_shell(const char *shell, const char *tty)
{
	char *const argv[] = { "sh", NULL };

	/* A serial line's far end is usually a terminal emulator speaking vt102;
	 * the virtual terminals are "linux". */
	exec_with(shell, argv, strncmp(tty, "/dev/tty", 8) == 0 && tty[8] >= '0' &&
		  tty[8] <= '9' ? "linux" : "vt102");
}

/* The gate's facts for a remote login, once shell_publish() was called. */
static struct shell_state published;
static bool publishing;

void shell_publish(const struct rescue_args *args)
{
	mkdir("/run/lifeboat", 0700);
	published = (struct shell_state){ .shell = args->shell, .cause = SHELL_FOR_REMOTE };
	publishing = true;
	if (shell_state_write(SHELL_STATE_PATH, &published) < 0)
		log_warn("writing %s failed; a login over SSH gets no shell", SHELL_STATE_PATH);
}

static void publish(enum shell_cause cause, pid_t pid)
{
	if (!publishing)
		return;
	published.cause = cause;
	published.console_pid = pid;
	shell_state_write(SHELL_STATE_PATH, &published);
}

/* Run shell on the terminal tty in its own session with tty as its
 * controlling terminal; return when it exits. 0 or -errno when it could
 * not start. Static: every shell goes through shell_enter's gate. */
static int shell_run(const char *shell, const char *tty, enum shell_cause cause)
{
	pid_t pid = fork();
	int r;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		attach_terminal(tty);
		exec_shell(shell, tty);
	}
	publish(cause, pid);
	/* Only the shell (other components may have children of their own to
	 * wait for), following kernel events meanwhile. */
	r = evloop_wait_child(pid);
	publish(SHELL_FOR_REMOTE, 0);
	return r;
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
	int r = shell[0] ? shell_run(shell, tty, req->cause) : -ENOENT;

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

/* A login's session already has its terminal (the SSH server made the
 * pty its controlling terminal); its TERM is the client's. */
static void exec_remote(const char *shell, const char *command)
{
	const char *term = getenv("TERM");
	char *const interactive[] = { "sh", "-i", NULL };
	/* A shell with a command is not interactive and reads no $ENV: the rc
	 * (lifeboat's modprobe) first, then the command as given. */
	char *const with_command[] = {
		"sh", "-c", "[ -r " SHELLSETUP_RC " ] && . " SHELLSETUP_RC "; eval \"$1\"", "sh",
		(char *)command, NULL,
	};

	if (!term || !*term || strlen(term) > 40 || strchr(term, '/'))
		term = "vt102";
	exec_with(shell, command ? with_command : interactive, term);
}

/* --rescue-auth's password, asked on the session (stdin), each answer
 * under the boot's count of wrong ones over SSH (bootlib/authlimit.h). */
static int remote_password(enum shell_verdict verdict, const char *hash)
{
	if (verdict == SHELL_REFUSED_AUTH_FILE) {
		dprintf(2, "lifeboat: %s cannot be read or is malformed, so no shell is opened; "
			"rebuild the image with --rescue-auth\n", RESCUE_AUTH_PATH);
		return -EACCES;
	}
	if (verdict != SHELL_ASK_PASSWORD)
		return 0;
	for (int i = 0; i < RESCUE_AUTH_TRIES && authlimit_may_try(AUTHLIMIT_PATH) == 0; i++) {
		char pw[256];
		int r;

		dprintf(2, "Root password for the rescue shell: ");
		r = console_read_line(0, pw, sizeof(pw), isatty(0));
		dprintf(2, "\n");
		if (r >= 0)
			r = authlimit_check(AUTHLIMIT_PATH, hash, pw);
		explicit_bzero(pw, sizeof(pw));
		if (r == 0)
			return 0;
		if (r == -ENOSYS)
			dprintf(2, "lifeboat: %s cannot be loaded, so no password can be checked\n",
				RESCUE_LIBCRYPT);
		if (r != -EACCES)
			return -EACCES;
	}
	return -EACCES;
}

/* Run the shell as the session's child and wait: 0..255, 128+signal. */
static int remote_run(const char *shell, const char *command)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0)
		exec_remote(shell, command);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The published facts, or why there are none. */
static int remote_state(struct shell_state *st)
{
	int r = shell_state_read(SHELL_STATE_PATH, st);

	if (r < 0)
		dprintf(2, "lifeboat: %s cannot be read (%s): the init opened no gate for a "
			"remote shell\n", SHELL_STATE_PATH, strerror(-r));
	return r < 0 ? -ENOENT : 0;
}

int shell_enter_remote(const char *command, enum shell_cause *cause)
{
	char hash[512], shell[64];
	struct shell_state st;
	struct rescue_args args = { 0 };
	enum shell_verdict verdict;
	int r = remote_state(&st);

	if (r < 0)
		return r;
	*cause = st.cause;
	args.shell = st.shell;
	verdict = shell_decide(&args, st.cause, auth_load(RESCUE_AUTH_PATH, hash, sizeof(hash)));
	if (verdict == SHELL_REFUSED_CMDLINE) {
		explicit_bzero(hash, sizeof(hash));
		dprintf(2, "lifeboat: rd.shell=0: no shell, over SSH either\n");
		return -EPERM;
	}
	if (shell_find(shell, sizeof(shell)) < 0) {
		explicit_bzero(hash, sizeof(hash));
		dprintf(2, "lifeboat: the image has no shell; build it with --rescue busybox\n");
		return -ENOENT;
	}
	r = remote_password(verdict, hash);
	explicit_bzero(hash, sizeof(hash));
	return r < 0 ? r : remote_run(shell, command);
}

int shell_end_console(void)
{
	struct shell_state st;

	if (shell_state_read(SHELL_STATE_PATH, &st) < 0 || !shell_state_console_open(&st))
		return -ESRCH;
	/* Its session: the shell and what it started. A hangup is what a
	 * shell gets when its terminal goes; the kill makes sure. */
	if (kill(-st.console_pid, SIGHUP) < 0)
		return -errno;
	kill(-st.console_pid, SIGCONT);
	usleep(300 * 1000);
	kill(-st.console_pid, SIGKILL);
	return 0;
}
