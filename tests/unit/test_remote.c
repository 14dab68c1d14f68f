/* Unit tests: remote/ and the bootlib pieces a login over SSH uses: what a
 * login gets from its command, the sessions found under the server in
 * /proc (each read by bootlib/procstat.c: test_procsweep.c), the gate's
 * published facts, rd.ssh.port=, and a passphrase prompt answered by a
 * guest through remote/unlock.c's relay (a real unix socket, a real
 * pseudo-terminal as the console). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init/bootargs.h"
#include "bootlib/console.h"
#include "bootlib/guest.h"
#include "bootlib/shellstate.h"
#include "remote/login.h"
#include "remote/proctree.h"
#include "remote/unlock.h"

static void unlock_commands(void **state)
{
	(void)state;
	assert_true(login_is_unlock("unlock"));
	assert_true(login_is_unlock("cryptroot-unlock"));
	assert_true(login_is_unlock("  lifeboat-unlock \n"));
	assert_false(login_is_unlock("unlock now"));
	assert_false(login_is_unlock("unlocked"));
	assert_false(login_is_unlock(""));
	assert_false(login_is_unlock(NULL));
	assert_int_equal(login_what(NULL, true, false), LOGIN_UNLOCK);
	assert_int_equal(login_what(NULL, false, false), LOGIN_SHELL);
	assert_int_equal(login_what("unlock", false, false), LOGIN_UNLOCK);
	assert_int_equal(login_what("cat /run/initramfs/rdsosreport.txt", true, false), LOGIN_SHELL);
}

/* An unlock-only key at a boot stopped in the rescue: told so at once,
 * not after waiting 30 s for a prompt that cannot come. */
static void unlock_in_the_rescue(void **state)
{
	struct shell_state st = { .shell = true, .cause = SHELL_FOR_FAILURE, .console_pid = 321 };

	(void)state;
	assert_true(shell_state_console_open(&st));
	assert_int_equal(login_what("unlock", false, true), LOGIN_NO_PROMPT);
	assert_int_equal(login_what("cryptroot-unlock", false, true), LOGIN_NO_PROMPT);
	/* A prompt that does wait (the rescue's own cryptsetup, say) is served. */
	assert_int_equal(login_what("unlock", true, true), LOGIN_UNLOCK);
	assert_int_equal(login_what(NULL, false, true), LOGIN_SHELL);
	assert_int_equal(login_what("ls /dev", false, true), LOGIN_SHELL);
	st.cause = SHELL_FOR_BREAK;
	assert_true(shell_state_console_open(&st));
	st.cause = SHELL_FOR_REMOTE;
	assert_false(shell_state_console_open(&st));
	st = (struct shell_state){ .shell = true, .cause = SHELL_FOR_FAILURE, .console_pid = 0 };
	assert_false(shell_state_console_open(&st));
}

static void login_arguments(void **state)
{
	char *interactive[] = { "-lifeboat-login", NULL };
	char *with[] = { "lifeboat-login", "-c", "echo hi", NULL };
	char *other[] = { "lifeboat-login", "-x", NULL };
	char *two[] = { "lifeboat-login", "-c", NULL };
	const char *cmd = "x";

	(void)state;
	assert_int_equal(login_args(1, interactive, &cmd), 0);
	assert_null(cmd);
	assert_int_equal(login_args(3, with, &cmd), 0);
	assert_string_equal(cmd, "echo hi");
	assert_int_equal(login_args(2, other, &cmd), -EINVAL);
	assert_int_equal(login_args(2, two, &cmd), -EINVAL);
}

/* A child in a session of its own with a grandchild: both found. */
static void descendants_found(void **state)
{
	int ready[2];
	pid_t child, found[16];
	char c;
	int n;
	bool grandchild = false;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	child = fork();
	if (child == 0) {
		setsid();
		if (fork() == 0) {
			if (write(ready[1], "g", 1) < 0)
				_exit(1);
			pause();
			_exit(0);
		}
		pause();
		_exit(0);
	}
	assert_int_equal(read(ready[0], &c, 1), 1);
	n = proctree_descendants(child, found, 16);
	assert_int_equal(n, 1);
	grandchild = found[0] != child;
	assert_true(grandchild);
	n = proctree_descendants(getpid(), found, 16);
	assert_true(n >= 2);
	assert_int_equal(found[0], child);
	kill(found[1], SIGKILL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(ready[0]);
	close(ready[1]);
}

static void state_round_trip(void **state)
{
	struct shell_state st = { .shell = true, .cause = SHELL_FOR_BREAK, .console_pid = 321 }, back;
	char line[96], dir[] = "/tmp/lifeboat-state-XXXXXX", path[128];

	(void)state;
	shell_state_format(&st, line, sizeof(line));
	assert_string_equal(line, "shell=1 cause=break pid=321\n");
	assert_int_equal(shell_state_parse(line, &back), 0);
	assert_true(back.shell);
	assert_int_equal(back.cause, SHELL_FOR_BREAK);
	assert_int_equal(back.console_pid, 321);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/shell.state", dir);
	assert_int_equal(shell_state_read(path, &back), -ENOENT);
	st = (struct shell_state){ .shell = false, .cause = SHELL_FOR_REMOTE };
	assert_int_equal(shell_state_write(path, &st), 0);
	assert_int_equal(shell_state_read(path, &back), 0);
	assert_false(back.shell);
	assert_int_equal(back.cause, SHELL_FOR_REMOTE);
	assert_int_equal(back.console_pid, 0);
	unlink(path);
	rmdir(dir);
}

/* Anything but the three words once each opens nothing. */
static void state_malformed(void **state)
{
	static const char *const bad[] = {
		"", "shell=1 cause=failure", "shell=2 cause=failure pid=1",
		"shell=1 cause=nothing pid=1", "shell=1 cause=failure pid=-1",
		"shell=1 shell=1 cause=failure pid=1", "shell=1 cause=failure pid=1 more=1",
		"shell=1 cause=failure pid=1\nshell=0", "shell cause=failure pid=1",
		"shell=1 cause=failure pid=1234567890",
	};
	struct shell_state st;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(shell_state_parse(bad[i], &st), -EINVAL);
		assert_false(st.shell);
	}
	assert_int_equal(shell_state_parse("pid=0 cause=failure shell=0\n", &st), 0);
}

static void ssh_port_parameter(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_true(a.remote.ssh);
	assert_int_equal(a.remote.port, 22);
	assert_int_equal(bootargs_parse("rd.ssh.port=2222", NULL, &a), 0);
	assert_int_equal(a.remote.port, 2222);
	assert_int_equal(bootargs_parse("rd.ssh.port=0", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("rd.ssh.port=65536", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("rd.ssh.port=x", NULL, &a), -EINVAL);
	assert_int_equal(a.remote.port, 2222);
	assert_int_equal(bootargs_parse("rd.ssh=0", NULL, &a), 0);
	assert_false(a.remote.ssh);
	bootargs_free(&a);
}

/* The relay in a child, fed input; its output comes back on a pipe. */
static pid_t relay_child(const char *path, const char *input, int *out_read)
{
	int in[2], out[2];
	pid_t pid;

	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(write(in[1], input, strlen(input)), (ssize_t)strlen(input));
	close(in[1]);
	pid = fork();
	if (pid == 0) {
		close(out[0]);
		_exit(unlock_relay(path, in[0], out[1], 5000) == 0 ? 0 : 1);
	}
	close(in[0]);
	close(out[1]);
	*out_read = out[0];
	return pid;
}

/* A guest answers before the console: the first answer wins; a second
 * line waits for the prompt's next question; the guest hears everything
 * the prompt says, from the question asked before it came. */
static void guest_answers_the_prompt(void **state)
{
	char dir[] = "/tmp/lifeboat-guest-XXXXXX", path[128], buf[64], heard[512];
	struct console_set set;
	int master, slave, out, status;
	size_t which = 9, n = 0;
	ssize_t got;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run/prompt.sock", dir);
	assert_int_equal(openpty(&master, &slave, NULL, NULL, NULL), 0);
	memset(&set, 0, sizeof(set));
	set.fd[0] = slave;
	set.n = 1;
	guest_allow(true);
	console_take_guests(&set, path);
	assert_true(set.guests);
	console_printf_all(&set, "Passphrase (try 1): ");
	pid = relay_child(path, "wrong\nright", &out);
	assert_int_equal(console_read_answer(&set, buf, sizeof(buf), true, &which), 5);
	assert_string_equal(buf, "wrong");
	assert_int_equal(which, 1);
	console_printf_all(&set, "refused.\nPassphrase (try 2): ");
	assert_int_equal(console_read_answer(&set, buf, sizeof(buf), true, &which), 5);
	assert_string_equal(buf, "right");
	console_printf_all(&set, "is open\n");
	console_close_all(&set);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	while ((got = read(out, heard + n, sizeof(heard) - 1 - n)) > 0)
		n += (size_t)got;
	heard[n] = '\0';
	assert_non_null(strstr(heard, "Passphrase (try 1): "));
	assert_non_null(strstr(heard, "refused.\nPassphrase (try 2): "));
	assert_non_null(strstr(heard, "is open\n"));
	assert_null(strstr(heard, "right"));
	guest_allow(false);
	close(out);
	close(master);
	snprintf(path, sizeof(path), "%s/run", dir);
	rmdir(path);
	rmdir(dir);
}

/* Without the SSH server, no prompt listens; a login finds no prompt. */
static void no_guests_without_server(void **state)
{
	char dir[] = "/tmp/lifeboat-guest-XXXXXX", path[128];
	int null = open("/dev/null", O_RDWR);

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/prompt.sock", dir);
	guest_allow(false);
	assert_int_equal(guest_listen(path), -EPERM);
	assert_int_equal(unlock_relay(path, null, null, 0), -ENOENT);
	close(null);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unlock_commands),
		cmocka_unit_test(unlock_in_the_rescue),
		cmocka_unit_test(login_arguments),
		cmocka_unit_test(descendants_found),
		cmocka_unit_test(state_round_trip),
		cmocka_unit_test(state_malformed),
		cmocka_unit_test(ssh_port_parameter),
		cmocka_unit_test(guest_answers_the_prompt),
		cmocka_unit_test(no_guests_without_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
