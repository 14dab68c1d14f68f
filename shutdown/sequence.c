/* sequence: the table of the way out's steps and the loop that runs it. */
#include "shutdown/sequence.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "shutdown/bounded.h"
#include "shutdown/finish.h"
#include "shutdown/iscsilogout.h"
#include "shutdown/nvmfdown.h"
#include "shutdown/stackdown.h"
#include "shutdown/unmount.h"

#define OLDROOT "/oldroot"
/* How long processes get between SIGTERM and SIGKILL. */
#define KILL_GRACE_MS 2000

static int clamp_left(int left)
{
	return left < 0 ? 255 : (left > 254 ? 254 : left);
}

/* Whether pid is spared: PID 1, this step's process and the way out that
 * runs it (its parent: the way out is PID 1 under systemd, a script's
 * child under another init, and kill(-1) would end it there). */
static bool spared(int pid)
{
	return pid <= 1 || pid == getpid() || pid == getppid();
}

/* User processes not spared; kernel threads have an empty cmdline. With
 * sig, each is sent it. */
static int user_processes(int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], c;
		int pid = atoi(e->d_name), fd;

		if (spared(pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && read(fd, &c, 1) == 1) {
			n++;
			if (sig)
				kill(pid, sig);
		}
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
	return n;
}

/* With systemd none are left (it killed them before handing over); with
 * another init this is where they end: SIGTERM, up to KILL_GRACE_MS for
 * them to go, then SIGKILL. */
static int step_kill(void)
{
	struct timespec pause = { 0, 100 * 1000000L };

	if (user_processes(SIGTERM) == 0)
		return 0;
	for (int waited = 0; waited < KILL_GRACE_MS && user_processes(0) > 0; waited += 100)
		nanosleep(&pause, NULL);
	user_processes(SIGKILL);
	return 0;
}

static int step_unmount(void)
{
	return clamp_left(unmount_below(OLDROOT));
}

static int step_stack(void)
{
	return clamp_left(stackdown_run());
}

/* After the last write (the LUN's filesystem unmounted, the layers on it
 * down) and while the network is still up: the way out never takes it
 * down. */
static int step_iscsi(void)
{
	return clamp_left(iscsilogout_run());
}

/* The same place for NVMe over TCP: deleting a controller flushes and
 * tells the target, over the network that is still up. */
static int step_nvmf(void)
{
	return clamp_left(nvmfdown_run());
}

static const struct shutdown_step steps[] = {
	{ "ending the processes left", step_kill, 5000, "" },
	{ "syncing the filesystems", finish_sync, 30000,
	  "a disk or server does not take the writes" },
	{ "unmounting the old root (" OLDROOT ")", step_unmount, 30000,
	  "see the mounts named above" },
	{ "taking down LVM volumes, LUKS containers and md arrays", step_stack, 30000,
	  "see the devices named above" },
	{ "disconnecting the NVMe/TCP controllers", step_nvmf, 30000,
	  "see the NVMe/TCP controllers named above" },
	{ "logging out of the iSCSI sessions", step_iscsi, 30000,
	  "see the iSCSI sessions named above" },
};

const struct shutdown_step *shutdown_sequence_steps(size_t *count)
{
	*count = sizeof(steps) / sizeof(steps[0]);
	return steps;
}

int shutdown_sequence_step_run_bounded(const struct shutdown_step *step)
{
	return bounded_run(step->run, step->timeout_ms);
}

int shutdown_sequence_run(const struct shutdown_step *steps_in, size_t n, step_runner runner)
{
	int unclean = 0;

	for (size_t i = 0; i < n; i++) {
		const struct shutdown_step *s = &steps_in[i];
		int r;

		log_debug("%s", s->name);
		r = runner(s);
		if (r == 0)
			continue;
		unclean++;
		if (r == -ETIMEDOUT)
			log_error("%s did not finish within %u s; going on without it (%s)", s->name,
				  s->timeout_ms / 1000, s->left_hint);
		else if (r < 0)
			log_error("%s failed: %s; going on", s->name, strerror(-r));
		else
			log_warn("%s: %d left; going on (%s)", s->name, r, s->left_hint);
	}
	return unclean;
}
