/* lifeboat-shutdown: the way out. PID 1 after the real root's init hands
 * the machine back to the environment the initramfs left in /run/initramfs.
 *
 * systemd's contract, as systemd-shutdown (src/shutdown/shutdown.c) keeps
 * it, in our words:
 *  - systemd-shutdown sends SIGTERM, then SIGKILL, to every process, then
 *    unmounts what it can, deactivates swaps, detaches loop, md and dm
 *    devices, looping while anything changes; the root it runs from and
 *    the stack under the root stay.
 *  - If /run/initramfs/shutdown exists and is executable (and systemd is
 *    neither in a container nor itself in an initrd), it makes
 *    /run/initramfs a mount of its own, puts /sys, /dev, /run and /proc
 *    into it (systemd 252, Debian 12's, binds them, not recursively: the
 *    originals, with what systemd mounted under them, such as its cgroup2
 *    at /sys/fs/cgroup, stay under the old root; a place that does not
 *    exist there gets the mount unmounted instead), pivot_root()s into it
 *    with the old root left mounted at /oldroot (not detached: this
 *    program needs it), without a sync of its own.
 *  - It then execs /shutdown as PID 1 with its own argv: argv[0]
 *    "/shutdown", argv[1] the verb (reboot, poweroff, halt or kexec; the
 *    verb stays at argv[1]), then options such as --log-level=N (systemd
 *    252 passes the level as a number, 7 for debug), --log-target=,
 *    --timeout=. stdin/stdout/stderr are the console.
 *  - If that exec fails, systemd-shutdown syncs and reboots itself.
 * lifeboat's init writes /run/initramfs/.need_shutdown beside the program,
 * the mark dracut's tools use for "this boot needs the way out".
 *
 * The steps (shutdown/sequence.c) then take the rest down; the last is
 * reboot(2) as the verb asks. */
#include <crypt.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "bootlib/log.h"
#include "bootlib/shell.h"
#include "bootlib/stage.h"
#include "common/fileread.h"
#include "shutdown/finish.h"
#include "shutdown/handover.h"
#include "shutdown/lastreport.h"
#include "shutdown/leave.h"
#include "shutdown/sequence.h"
#include "shutdown/verb.h"

static void console_open(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	close(fd);
}

/* systemd moved them here; a handover by hand may not have. */
static void api_mounts(void)
{
	if (access("/proc/self", F_OK) < 0) {
		mkdir("/proc", 0755);
		mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	}
	if (access("/sys/block", F_OK) < 0) {
		mkdir("/sys", 0755);
		mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	}
	if (access("/dev/console", F_OK) < 0) {
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	}
}

static void read_cmdline(struct shutdown_cmdline *words)
{
	char *text = NULL;
	size_t len;

	if (file_read_all("/proc/cmdline", 64 * 1024, &text, &len) < 0)
		text = NULL;
	shutdown_verb_cmdline_parse(text ? text : "", words);
	free(text);
}

/* rd.break=shutdown, as the init's parse decided it (the mark it left):
 * a shell before anything is taken down, through the gate every shell of
 * the image passes (bootlib/shell.c), --rescue-auth's password included.
 * rd.shell=0 does not close a shell rd.break asks for (bootlib/shell.h),
 * so the mark need not carry it. */
static void break_shell(void)
{
	const struct rescue_args rescue = { .shell = true,
					    .break_stages = STAGE_BIT(STAGE_SHUTDOWN) };
	const struct shell_request req = {
		.cause = SHELL_FOR_BREAK,
		.announce = LASTREPORT_PREFIX "rd.break=shutdown: a shell before the stack is "
			    "taken down; exit it to go on\n",
	};
	int r;

	if (access(SHUTDOWN_BREAK_MARK, F_OK) < 0)
		return;
	r = shell_enter(&rescue, &req);
	if (r == -ENOENT)
		log_warn("rd.break=shutdown: no shell in the way out; it is left there only when "
			 "the image has one (lifeboat build --rescue busybox)");
	else if (r == -EACCES)
		log_warn("rd.break=shutdown: no shell: the root password was refused or cannot be "
			 "checked here; going on");
	else if (r < 0)
		log_warn("rd.break=shutdown: no shell (%s); going on", strerror(-r));
}

static int reboot_call(int cmd)
{
	return reboot(cmd) < 0 ? -errno : 0;
}

/* Returns only when reboot(2) failed and this is not PID 1 (a script
 * called it: the script goes on, and its init may still end the system). */
static void finish(const struct shutdown_args *args, const char *summary)
{
	static const struct finish_ops ops = { finish_sync, reboot_call };
	int r = finish_run(args, summary, &ops, FINISH_SYNC_MS);

	log_error("reboot(2) failed: %s; power the machine off by hand", strerror(-r));
	while (getpid() == 1)
		pause();
}

/* A script's call (sysvinit, OpenRC, runit): not PID 1, not handed over
 * yet. The handover execs /shutdown in the way out, which comes back
 * through main() with SHUTDOWN_HANDED_OVER; this returns only when there
 * was nothing to hand over to or the handover failed. */
static int from_script(const struct shutdown_args *args, const char *argv0)
{
	char why[512] = "";

	if (geteuid() != 0) {
		fprintf(stderr, "%s: must be run as root (it unmounts the root and powers the "
			"machine off)\n", argv0);
		return 1;
	}
	if (handover_from_script(args, why, sizeof(why)) < 0) {
		log_error("%s", why);
		finish(args, "handing over failed");
	} else {
		finish(args, "with nothing to take down");
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct shutdown_args args;
	struct shutdown_cmdline words;
	const struct shutdown_step *steps;
	size_t n;
	int unclean;
	char summary[64];

	log_set_prefix(LASTREPORT_NAME);
	/* Linked in: the way out runs with no library under it (docs/shutdown.md). */
	auth_use_crypt(crypt);
	if (shutdown_verb_args_parse(argc, argv, &args) < 0) {
		fprintf(stderr, "usage: %s reboot|poweroff|halt|kexec (the verb \"%s\" is "
			"not one of these)\n", argv[0], argc > 1 ? argv[1] : "");
		if (getpid() != 1)
			return 2;
		args.verb = "poweroff";
		args.reboot_cmd = RB_POWER_OFF;
	}
	if (getpid() != 1 && !args.handed_over)
		return from_script(&args, argv[0]);
	api_mounts();
	console_open();
	read_cmdline(&words);
	log_set_debug(args.debug || words.debug);
	log_info("the way out (%s): taking the root's stack down", args.verb);
	break_shell();
	steps = shutdown_sequence_steps(&n);
	unclean = shutdown_sequence_run(steps, n, shutdown_sequence_step_run_bounded);
	if (unclean == 0)
		log_info("the root's stack is down: all unmounted, closed and stopped");
	snprintf(summary, sizeof(summary), unclean ? "%d of %zu steps not clean" : "all clean",
		 unclean, n);
	finish(&args, summary);
	return 1;
}
