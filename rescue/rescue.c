/* rescue: where the boot goes when it stops, by failure or by rd.break. */
#include "rescue/rescue.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/log.h"
#include "bootlib/shell.h"
#include "bootlib/splash.h"
#include "bootlib/sysroot.h"
#include "common/fileread.h"
#include "net/config/ifstate.h"
#include "rescue/netreport.h"
#include "rescue/prompt.h"
#include "rescue/report.h"

static void reboot_after_delay(const char *why)
{
	log_console("lifeboat: %s: no shell; the report is in %s; rebooting in %d seconds\n",
		    why, RESCUE_REPORT_PATH, RESCUE_REBOOT_DELAY_SEC);
	log_error("%s: no shell; rebooting", why);
	sync();
	sleep(RESCUE_REBOOT_DELAY_SEC);
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static void write_report(const char *why)
{
	int r = rescue_report_write(why);

	if (r < 0)
		log_warn("writing %s failed (%s); the summary below is all there is",
			 RESCUE_REPORT_PATH, strerror(-r));
}

/* Without a shell in the image, the built-in prompt. */
static const struct shell_request break_shell = {
	.cause = SHELL_FOR_BREAK,
	.fallback = prompt_run,
};
static const struct shell_request failure_shell = {
	.cause = SHELL_FOR_FAILURE,
	.announce = "lifeboat: starting a rescue shell; fix what is wrong (a root you mount "
		    "on /sysroot yourself is used as it is), then type exit to try again\n",
	.fallback = prompt_run,
};

/* The gate's answer, for the boot: -EPERM (rd.shell=0) and -EACCES (the
 * password) end it in a reboot; otherwise the person left, or no shell
 * could be opened at all, and the boot goes on. */
static void after_shell(int r)
{
	if (r == -EPERM)
		reboot_after_delay("rd.shell=0");
	if (r == -EACCES)
		reboot_after_delay("the root password was refused");
}

void rescue_break(const struct rescue_args *args, enum boot_stage stage)
{
	char why[64];

	/* Once a stage: a retry after a failure passes the same points again. */
	static unsigned int stopped;

	if (!(args->break_stages & STAGE_BIT(stage) & ~stopped))
		return;
	stopped |= STAGE_BIT(stage);
	snprintf(why, sizeof(why), "rd.break=%s", stage_name(stage));
	/* The shell and its messages need the console plymouth holds. */
	splash_quit();
	write_report(why);
	log_info("%s: stopping for a shell", why);
	log_console("\nlifeboat: %s: the boot stops here (docs/rescue.md); type exit to go "
		    "on. The report is %s\n", why, RESCUE_REPORT_PATH);
	after_shell(shell_enter(args, &break_shell));
}

static unsigned int summary_lists = RESCUE_SUMMARY_DISKS;

void rescue_summary_lists(unsigned int what)
{
	summary_lists = what;
}

/* The lists that matter for the root asked for (a CD drive is no help to
 * an NFS root), into out. */
static void write_lists(FILE *out)
{
	if (summary_lists & RESCUE_SUMMARY_NETWORK) {
		fprintf(out, "lifeboat: network interfaces:\n");
		netreport_summary(out, IFSTATE_DIR);
	}
	if (summary_lists & RESCUE_SUMMARY_DISKS) {
		fprintf(out, "lifeboat: block devices present:\n");
		if (blkprobe_list(out) == 0)
			fprintf(out, "  (none: the disk's driver may be missing from the image; "
				"build it with --generic or --add-modules)\n");
	}
}

/* Kept for the SSH login, which shows the same, and copied to the console
 * from there: the devices are probed once. */
static void print_summary(const char *what)
{
	FILE *kept = fopen(LAYOUT_RESCUE_SUMMARY, "we");
	int err = errno;

	log_console("\nlifeboat: boot failed: %s\n", what);
	if (kept) {
		write_lists(kept);
		err = fclose(kept) == 0 ? 0 : errno;
	}
	if (!kept || err || file_read_to_stream(LAYOUT_RESCUE_SUMMARY, stdout) < 0) {
		log_warn("writing %s failed (%s): an SSH login will not show the lists below",
			 LAYOUT_RESCUE_SUMMARY, strerror(err ? err : EIO));
		write_lists(stdout);
	}
	log_console("lifeboat: the full report is %s\n", RESCUE_REPORT_PATH);
	fflush(stdout);
}

/* Where the boot goes now, said where the person typed exit: with the root
 * they mounted, or to the step that failed. */
static void say_what_follows(void)
{
	if (sysroot_is_mounted())
		log_console("lifeboat: %s is mounted: the boot goes on with it\n", SYSROOT);
	else
		log_console("lifeboat: nothing is mounted on %s: trying the root again\n", SYSROOT);
	fflush(stdout);
}

void rescue_failure(const struct rescue_args *args, const char *what)
{
	splash_quit();
	log_error("boot failed: %s", what);
	write_report(what);
	print_summary(what);
	after_shell(shell_enter(args, &failure_shell));
	say_what_follows();
}
