/* Unit tests: bootlib/procstat.c (a process's /proc/PID/stat, whose name
 * field any process chooses) and bootlib/procsweep.c, played in a PID
 * namespace of its own where the test is PID 1: what an SSH session left
 * with setsid and a double fork (audit N7), and a background job, end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/procstat.h"
#include "bootlib/procsweep.h"

/* A process may name itself anything: "(", ")", blanks and digits. */
static void stat_fields(void **state)
{
	struct procstat st;

	(void)state;
	assert_int_equal(procstat_parse("12 (dropbear) S 1 12 12 0 -1 4194560 0 0", &st), 0);
	assert_int_equal(st.pid, 12);
	assert_int_equal(st.ppid, 1);
	assert_int_equal(st.state, 'S');
	assert_false(procstat_is_kernel_thread(&st));
	assert_int_equal(procstat_parse("40 (a) b) (c) Z 33 40 40 0 -1 0\n", &st), 0);
	assert_int_equal(st.ppid, 33);
	assert_int_equal(st.state, 'Z');
	/* A name that looks like the fields that follow it. */
	assert_int_equal(procstat_parse("41 (x) S 1 1 1 0 -1 2129984) R 7 7 7 0 -1 0", &st), 0);
	assert_int_equal(st.ppid, 7);
	assert_false(procstat_is_kernel_thread(&st));
	assert_int_equal(procstat_parse("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0", &st), 0);
	assert_true(procstat_is_kernel_thread(&st));
}

static void stat_malformed(void **state)
{
	static const char *const bad[] = {
		"", "40 (x) S", "40 x S 7 1 1 0 -1 0", "40 (x) S -7 1 1 0 -1 0",
		"40 (x) S 7z 1 1 0 -1 0", "40 (x) S 7 1 1 0 -1", "40 (x) S 7 1 1 0 -2 0",
		"(x) S 7 1 1 0 -1 0", "-4 (x) S 7 1 1 0 -1 0", "40 (x)  7 1 1 0 -1 0",
		"40 (x) S 99999999 1 1 0 -1 0", "40 (x) S 7 1 1 0 -1 99999999999",
		"99999999 (x) S 7 1 1 0 -1 0", "40 (x) S 7 1 1 0 -1 +5",
	};
	struct procstat st;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(procstat_parse(bad[i], &st), -EINVAL);
	assert_true(procstat_is_pid_name("123"));
	assert_false(procstat_is_pid_name("self"));
	assert_false(procstat_is_pid_name(""));
	assert_false(procstat_is_pid_name("12a"));
}

/* The audit's session: a server, a session of its own under it that
 * double-forks a daemon (reparented to PID 1 at once), and a job that
 * ignores the hangup and the polite signals. Returns the daemon. */
static pid_t leave_processes(void)
{
	int ready[2];
	pid_t daemon_pid = 0;

	if (pipe(ready) < 0)
		return -1;
	if (fork() == 0) {                      /* the SSH server */
		if (fork() == 0) {              /* a session */
			setsid();
			if (fork() == 0) {      /* what it left running */
				pid_t me = getpid();

				signal(SIGHUP, SIG_IGN);
				signal(SIGTERM, SIG_IGN);
				if (write(ready[1], &me, sizeof(me)) < 0)
					_exit(1);
				for (;;)
					pause();
			}
			_exit(0);
		}
		for (;;)
			pause();
	}
	if (fork() == 0) {                      /* a job of a rescue shell */
		signal(SIGHUP, SIG_IGN);
		for (;;)
			pause();
	}
	if (read(ready[0], &daemon_pid, sizeof(daemon_pid)) != sizeof(daemon_pid))
		return -1;
	close(ready[0]);
	close(ready[1]);
	return daemon_pid;
}

/* How many processes of this namespace there are but PID 1 (the test);
 * zombies counted or not. */
static int others_left(bool zombies)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	struct procstat st;
	int n = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (procstat_is_pid_name(de->d_name) && strcmp(de->d_name, "1") != 0 &&
		    procstat_read("/proc", de->d_name, &st) == 0 && (zombies || st.state != 'Z'))
			n++;
	closedir(dir);
	return n;
}

/* A storage daemon the real root takes over: argv[0] begins with '@'
 * (systemd's convention, mdmon --offroot's). */
static pid_t storage_daemon(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/sleep", "@sleep", "60", (char *)NULL);
		_exit(1);
	}
	return pid;
}

/* PID 1 of the namespace: leave processes, sweep, look. The exit status
 * names the first check that failed. */
static int play_init(void)
{
	char why[256];
	pid_t daemon_pid, storage;
	int r;

	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return 77;
	daemon_pid = leave_processes();
	if (daemon_pid <= 0)
		return 2;
	storage = storage_daemon();
	usleep(100 * 1000);
	if (others_left(false) != 4)   /* the server, the daemon, the job, the storage daemon */
		return 3;
	r = procsweep_all(why, sizeof(why));
	if (kill(daemon_pid, 0) == 0)
		return 4;         /* the daemon would live on under the real root */
	if (r != 3)
		return 5;
	if (others_left(true) != 1 || kill(storage, 0) != 0)
		return 6;         /* the session's zombie reaped too; the storage daemon lives */
	kill(storage, SIGKILL);
	waitpid(storage, NULL, 0);
	return 0;
}

/* In a PID and mount namespace (a user namespace too when not root). */
static void sweep_ends_everything(void **state)
{
	int flags = CLONE_NEWNS | CLONE_NEWPID | (geteuid() == 0 ? 0 : CLONE_NEWUSER);
	int status = 0;
	pid_t outer;

	(void)state;
	outer = fork();
	assert_true(outer >= 0);
	if (outer == 0) {
		pid_t init;

		if (unshare(flags) < 0)
			_exit(77);
		init = fork();
		if (init == 0)
			_exit(play_init());
		if (init < 0 || waitpid(init, &status, 0) < 0)
			_exit(1);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
	assert_int_equal(waitpid(outer, &status, 0), outer);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_fields),
		cmocka_unit_test(stat_malformed),
		cmocka_unit_test(sweep_ends_everything),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
