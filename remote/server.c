/* server: start and stop dropbear for the time the init runs. */
#include "remote/remote.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/guest.h"
#include "bootlib/log.h"
#include "bootlib/shell.h"
#include "bootlib/shellstate.h"
#include "bootlib/timeline.h"
#include "common/layout.h"
#include "remote/proctree.h"

#define SESSIONS_MAX 256
/* How long stopped sessions may take to be gone, in 10 ms steps. */
#define REAP_STEPS 200

static pid_t server_pid;

bool remote_in_image(void)
{
	return access(LAYOUT_DROPBEAR, X_OK) == 0;
}

/* Sessions need pseudo-terminals: devtmpfs has /dev/ptmx, not /dev/pts. */
static int mount_devpts(char *why, size_t why_size)
{
	mkdir("/dev/pts", 0755);
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		  "gid=5,mode=620,ptmxmode=666") < 0 && errno != EBUSY) {
		int r = -errno;

		snprintf(why, why_size, "mounting /dev/pts failed: %s; the kernel needs "
			 "CONFIG_UNIX98_PTYS", strerror(-r));
		return r;
	}
	return 0;
}

/* dropbear records every login in lastlog, and without the file says so
 * in its log at every login ("lastlog_perform_login: Couldn't stat"): an
 * empty one takes the records (it goes with the initramfs). */
static void make_lastlog(void)
{
	int fd;

	mkdir("/var", 0755);
	mkdir("/var/log", 0755);
	fd = open(REMOTE_LASTLOG, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0)
		close(fd);
	else
		log_debug("creating %s: %s", REMOTE_LASTLOG, strerror(errno));
}

/* In the child: a session of its own, no terminal, the log as output. */
static void exec_server(unsigned int port)
{
	char listen[16];
	char *const argv[] = {
		LAYOUT_DROPBEAR, "-F", "-E",
		"-s", "-g",            /* keys only: no password, root's neither */
		"-j", "-k",            /* no port forwarding either way */
		"-T", REMOTE_AUTH_TRIES,
		"-p", listen, "-r", LAYOUT_SSH_HOST_KEY, NULL,
	};
	int fd;

	snprintf(listen, sizeof(listen), "%u", port);
	setsid();
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		dup2(fd, 0);
	fd = open(REMOTE_LOG, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	execv(argv[0], argv);
	_exit(127);
}

int remote_start(const struct remote_args *args, const struct rescue_args *rescue,
		 char *why, size_t why_size)
{
	pid_t pid;
	int r;

	if (server_pid > 0 || !remote_in_image())
		return 0;
	if (!args->ssh) {
		log_info("rd.ssh=0: the SSH server stays off");
		return 0;
	}
	r = mount_devpts(why, why_size);
	if (r < 0)
		return r;
	mkdir("/run/lifeboat", 0700);
	make_lastlog();
	shell_publish(rescue);
	pid = fork();
	if (pid < 0) {
		r = -errno;
		snprintf(why, why_size, "starting %s failed: %s", LAYOUT_DROPBEAR, strerror(-r));
		return r;
	}
	if (pid == 0)
		exec_server(args->port);
	server_pid = pid;
	guest_allow(true);
	timeline_mark("ssh", "port %u", args->port);
	log_info("SSH server started on port %u (pid %d); its messages are in %s", args->port,
		 (int)pid, REMOTE_LOG);
	return 0;
}

/* Whether any of pids still exists (a zombie is reaped on the way). Only
 * these: the init may have a child of its own (bootlib/modload.h's
 * background load) that it waits for later. */
static bool any_left(const pid_t *pids, int n)
{
	bool left = false;

	for (int i = 0; i < n; i++) {
		waitpid(pids[i], NULL, WNOHANG);
		if (kill(pids[i], 0) == 0)
			left = true;
	}
	return left;
}

void remote_stop(void)
{
	pid_t pids[SESSIONS_MAX + 1];
	int n;

	if (server_pid <= 0)
		return;
	guest_allow(false);
	/* Stopped first, the server accepts nothing new while its sessions
	 * are looked up; then they all go at once. */
	kill(server_pid, SIGSTOP);
	n = proctree_descendants(server_pid, pids, SESSIONS_MAX);
	if (n < 0)
		n = 0;
	pids[n++] = server_pid;
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	/* The sessions become the init's children as their parents die. */
	for (int step = 0; step < REAP_STEPS && any_left(pids, n); step++)
		usleep(10 * 1000);
	server_pid = 0;
	unlink(SHELL_STATE_PATH);
	if (umount2("/dev/pts", MNT_DETACH) < 0)
		log_debug("unmounting /dev/pts: %s", strerror(errno));
	log_info("SSH server stopped (%d processes)", n);
}
