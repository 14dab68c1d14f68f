/* hookrun: finding, checking and running a stage's boot scripts. */
#include "bootlib/hookrun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/evloop.h"
#include "bootlib/log.h"
#include "bootlib/run.h"
#include "bootlib/shell.h"
#include "bootlib/timeline.h"
#include "common/hookspec.h"
#include "common/layout.h"
#include "common/strv.h"

#define PATH_LEN 512

int hookrun_stage_of(const char *dracut_stage)
{
	char top[32];

	/* initqueue/settled runs where initqueue does. */
	snprintf(top, sizeof(top), "%.*s", (int)strcspn(dracut_stage, "/"), dracut_stage);
	return hookspec_stage_find(dracut_stage) ? stage_parse(top) : -EINVAL;
}

static const char *scripts_dir(const struct hookrun_boot *boot)
{
	return boot->dir ? boot->dir : LAYOUT_HOOK_SCRIPTS;
}

/* Whether dir/name is a directory (initqueue's settled: a stage of its own). */
static bool is_dir(const char *dir, const char *name)
{
	char path[PATH_LEN * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The scripts of one dracut stage, "STAGE/NAME" in name order, onto out. */
static int list_one(const char *base, const char *dracut_stage, struct strv *out)
{
	char dir[PATH_LEN], rel[PATH_LEN];
	struct dirent **names;
	int n, r = 0;

	snprintf(dir, sizeof(dir), "%s/%s", base, dracut_stage);
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%.64s/%s", dracut_stage, names[i]->d_name);
		if (r == 0 && names[i]->d_name[0] != '.' && !is_dir(dir, names[i]->d_name))
			r = strv_push(out, rel);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return r;
}

/* The scripts of stage: its dracut stages in dracut's order. */
static int list_stage(const char *base, enum boot_stage stage, struct strv *out)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < hookspec_n_stages; i++)
		if (hookrun_stage_of(hookspec_stages[i]) == (int)stage)
			r = list_one(base, hookspec_stages[i], out);
	return r;
}

/* The same rule as the generator's (common/hookspec.h): the image may have
 * been unpacked and changed since. *why names the rule broken. */
static int trusted(const char *path, const char **why)
{
	char dir[PATH_LEN];
	struct stat st;

	if (lstat(path, &st) < 0) {
		*why = strerror(errno);
		return -errno;
	}
	if (hookspec_file_trusted(&st, why) < 0)
		return -EPERM;
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
	if (stat(dir, &st) < 0 || hookspec_dir_trusted(&st, why) < 0) {
		*why = "is in a directory that is not root's alone";
		return -EPERM;
	}
	return 0;
}

/* Start path; returns its pid, or -errno when fork or exec failed. */
static pid_t script_start(const char *path, char *const envp[])
{
	int pipefd[2], e = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		pid = -errno;
	else if (pid == 0)
		run_child_exec((char *const[]){ (char *)path, NULL }, envp, pipefd[1]);
	close(pipefd[1]);
	if (pid > 0 && read(pipefd[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		pid = -e;
	}
	close(pipefd[0]);
	return pid;
}

/* Wait for pid, serving the uevent socket meanwhile (devices keep being
 * assembled), at most timeout_sec (0: no bound); then its process group is
 * killed and -ETIMEDOUT returned. *status is waitpid's. */
static int script_wait(pid_t pid, unsigned int timeout_sec, int *status)
{
	/* A pidfd becomes readable when the child ends (Linux 5.3); without
	 * one the script has no bound. */
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int r = 0;

	if (pidfd >= 0) {
		r = evloop_wait_input(&pidfd, 1, clock_deadline(clock_now_ms(), timeout_sec));
		close(pidfd);
	}
	if (r == -ETIMEDOUT) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return r == -ETIMEDOUT ? r : 0;
}

#define ENV_MADE 5

/* What the scripts are told: dracut's NEWROOT and root, the stage, the
 * root's kind and, once found, its device. */
static void env_make(const struct hookrun_boot *boot, const char *rel, char bufs[][PATH_LEN],
		     char *envp[])
{
	snprintf(bufs[0], PATH_LEN, "root=%s", boot->root ? boot->root : "");
	snprintf(bufs[1], PATH_LEN, "LIFEBOAT_STAGE=%.*s", (int)(strrchr(rel, '/') - rel), rel);
	snprintf(bufs[2], PATH_LEN, "hookdir=%s", scripts_dir(boot));
	snprintf(bufs[3], PATH_LEN, "LIFEBOAT_ROOT_KIND=%s", boot->root_kind ? boot->root_kind : "");
	snprintf(bufs[4], PATH_LEN, "LIFEBOAT_ROOT_DEVICE=%s",
		 boot->root_device ? boot->root_device : "");
	for (int i = 0; i < ENV_MADE; i++)
		envp[i] = bufs[i];
	envp[ENV_MADE] = "NEWROOT=/sysroot";
	envp[ENV_MADE + 1] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	envp[ENV_MADE + 2] = "HOME=/";
	envp[ENV_MADE + 3] = NULL;
}

/* How the script ended, for the timeline and, when it failed, why. */
static int script_end(const char *rel, int r, int status, unsigned int timeout_sec,
		      uint64_t started, char *why, size_t size)
{
	unsigned long long ms = clock_now_ms() - started;

	if (r == -ETIMEDOUT) {
		timeline_mark("hook", "%s killed after %llu ms", rel, ms);
		snprintf(why, size, "boot script %s did not end within %u s (rd.hook.timeout=) and "
			 "was stopped", rel, timeout_sec);
		return r;
	}
	if (r < 0) {
		snprintf(why, size, "waiting for boot script %s failed: %s", rel, strerror(-r));
		return r;
	}
	if (WIFSIGNALED(status)) {
		timeline_mark("hook", "%s signal %d after %llu ms", rel, WTERMSIG(status), ms);
		snprintf(why, size, "boot script %s was ended by signal %d", rel, WTERMSIG(status));
		return -EINTR;
	}
	timeline_mark("hook", "%s exit %d after %llu ms", rel, WEXITSTATUS(status), ms);
	if (WEXITSTATUS(status) == 0)
		return 0;
	snprintf(why, size, "boot script %s exited with status %d (its messages are above)", rel,
		 WEXITSTATUS(status));
	return -EIO;
}

/* Check, start and wait for one script (rel: "STAGE/NAME"). */
static int run_one(const struct hookrun_boot *boot, const char *rel, char *why, size_t size)
{
	char path[PATH_LEN], bufs[ENV_MADE][PATH_LEN], *envp[ENV_MADE + 4];
	const char *rule;
	uint64_t started = clock_now_ms();
	int r, status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", scripts_dir(boot), rel);
	if (trusted(path, &rule) < 0) {
		snprintf(why, size, "boot script %s was not run: it %s (the image's scripts must be "
			 "root's and writable by root alone)", rel, rule);
		return -EPERM;
	}
	env_make(boot, rel, bufs, envp);
	timeline_mark("hook", "%s start", rel);
	pid = script_start(path, envp);
	if (pid < 0) {
		snprintf(why, size, "boot script %s could not start: %s%s", rel, strerror(-pid),
			 pid == -ENOENT ? " (is the interpreter its #! line names in the image?)" : "");
		return pid;
	}
	r = script_wait(pid, boot->args->timeout_sec, &status);
	return script_end(rel, r, status, boot->args->timeout_sec, started, why, size);
}

int hookrun_stage(enum boot_stage stage, const struct hookrun_boot *boot, size_t *next,
		  char *why, size_t size)
{
	struct strv scripts = STRV_INIT;
	int r = list_stage(scripts_dir(boot), stage, &scripts);

	if (r < 0) {
		snprintf(why, size, "listing the %s scripts failed: %s", stage_name(stage),
			 strerror(-r));
		strv_free(&scripts);
		return r;
	}
	if (*next < scripts.len)
		shell_for_scripts();
	while (r == 0 && *next < scripts.len)
		r = run_one(boot, scripts.items[(*next)++], why, size);
	strv_free(&scripts);
	return r;
}
