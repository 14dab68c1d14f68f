/* guest-handback: how a test root's init hands the machine back to the
 * initramfs's way out, following systemd-shutdown's code path (the
 * contract is written down in shutdown/shutdown_main.c): sync, make the
 * mounts private, make /run/initramfs a mount of its own, move /dev, /proc
 * and /sys into it, pivot_root into it with the old root kept at /oldroot
 * (not detached), and exec /shutdown as PID 1 with the verb at argv[1] and
 * one of systemd's options after it. Before that, the test's "last write"
 * (/last-write on the root) is made, which the next boot prints. */
#ifndef LIFEBOAT_TESTS_GUEST_HANDBACK_H
#define LIFEBOAT_TESTS_GUEST_HANDBACK_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXITRD "/run/initramfs"

static void handback_last_write(void)
{
	FILE *f = fopen("/last-write", "w");

	if (!f) {
		printf("LIFEBOAT-TEST: handback cannot write /last-write: %s\n", strerror(errno));
		return;
	}
	fprintf(f, "written before the way out\n");
	fclose(f);
}

/* Returns only on failure (the caller then powers off as before). */
static void handback(const char *verb)
{
	static const char *const api[] = { "/dev", "/proc", "/sys" };
	char *argv[] = { (char *)"/shutdown", (char *)verb, (char *)"--timeout=90s", NULL };

	handback_last_write();
	sync();
	if (access(EXITRD "/shutdown", X_OK) < 0) {
		printf("LIFEBOAT-TEST: handback: no %s/shutdown (%s)\n", EXITRD, strerror(errno));
		return;
	}
	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	if (mount(EXITRD, EXITRD, NULL, MS_BIND | MS_REC, NULL) < 0) {
		printf("LIFEBOAT-TEST: handback: bind %s: %s\n", EXITRD, strerror(errno));
		return;
	}
	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		char target[64];

		snprintf(target, sizeof(target), EXITRD "%s", api[i]);
		if (access(target, F_OK) < 0 || mount(api[i], target, NULL, MS_MOVE, NULL) < 0)
			umount2(api[i], MNT_DETACH);
	}
	if (chdir(EXITRD) < 0 || syscall(SYS_pivot_root, ".", "oldroot") < 0 || chdir("/") < 0) {
		printf("LIFEBOAT-TEST: handback: pivot_root into %s: %s\n", EXITRD, strerror(errno));
		return;
	}
	printf("LIFEBOAT-TEST: handback %s\n", verb);
	fflush(stdout);
	execv("/shutdown", argv);
	printf("LIFEBOAT-TEST: handback: exec /shutdown: %s\n", strerror(errno));
}

/* lifeboat.test.handback=script:VERB: what a sysvinit, OpenRC or runit
 * shutdown does (docs/shutdown.md): PID 1 stays the init and a child, the
 * last shutdown script, runs `/run/initramfs/shutdown VERB`, which hands
 * over by itself. PID 1 waits; it powers off only if the child returns. */
static void handback_script(const char *verb)
{
	pid_t pid;

	handback_last_write();
	sync();
	printf("LIFEBOAT-TEST: handback by a script %s\n", verb);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl(EXITRD "/shutdown", EXITRD "/shutdown", verb, (char *)NULL);
		printf("LIFEBOAT-TEST: handback: exec %s/shutdown: %s\n", EXITRD, strerror(errno));
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	printf("LIFEBOAT-TEST: handback: the script returned\n");
}

#endif
