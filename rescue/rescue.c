/* rescue: where the boot goes when it stops, by failure or by rd.break. */
#include "rescue/rescue.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/auth.h"
#include "bootlib/blkprobe.h"
#include "bootlib/console.h"
#include "rescue/prompt.h"
#include "rescue/report.h"
#include "bootlib/shell.h"

static void reboot_after_delay(const char *why)
{
	console_print("lifeboat: %s: no shell; the report is in %s; rebooting in %d seconds\n",
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

/* The password, when the image asks for one (the shell then runs on the
 * console it was typed on: tty). Returns 0 when access is granted,
 * -EACCES otherwise (the reason printed). */
static int check_access(char *tty, size_t size)
{
	char hash[512];
	int r = auth_load(RESCUE_AUTH_PATH, hash, sizeof(hash));

	if (r == -ENOENT)
		return 0;
	if (r == 0)
		r = auth_ask(hash, tty, size);
	explicit_bzero(hash, sizeof(hash));
	if (r == -ENOSYS)
		console_print("lifeboat: %s cannot be loaded, so no password can be checked; "
			      "rebuild the image with --rescue-auth\n", RESCUE_LIBCRYPT);
	else if (r == -EINVAL)
		console_print("lifeboat: %s is malformed; rebuild the image with --rescue-auth\n",
			      RESCUE_AUTH_PATH);
	return r == 0 ? 0 : -EACCES;
}

/* The shell when the image has one; the built-in prompt when it has none or
 * it would not start. A console that gives out counts as leaving. */
static void run_shell_or_prompt(int fd, const char *tty)
{
	char shell[64];
	int r = shell_find(shell, sizeof(shell));

	if (r == 0) {
		r = shell_run(shell, tty);
		if (r < 0)
			log_warn("starting the shell %s failed (%s); using the built-in prompt",
				 shell, strerror(-r));
	}
	if (r < 0)
		prompt_run(fd);
}

/* Password, then the shell or the prompt. Returns 0 when the person left
 * it, -EACCES when access was refused. */
static int interact(void)
{
	char tty[64];
	int fd, r;

	console_tty_path(tty, sizeof(tty));
	r = check_access(tty, sizeof(tty));
	if (r < 0)
		return r;
	fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;   /* nobody can type: go on as if they left */
	console_make_sane(fd);
	run_shell_or_prompt(fd, tty);
	close(fd);
	return 0;
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
	write_report(why);
	log_info("%s: stopping for a shell", why);
	console_print("\nlifeboat: %s: the boot stops here (docs/rescue.md); type exit to go "
		      "on. The report is %s\n", why, RESCUE_REPORT_PATH);
	if (interact() < 0)
		reboot_after_delay("the root password was refused");
}

static void print_summary(const char *what)
{
	console_print("\nlifeboat: boot failed: %s\nlifeboat: block devices present:\n", what);
	if (blk_list(stdout) == 0)
		console_print("  (none: the disk's driver may be missing from the image; "
			      "build it with --generic or --add-modules)\n");
	console_print("lifeboat: the full report is %s\n", RESCUE_REPORT_PATH);
	fflush(stdout);
}

void rescue_failure(const struct rescue_args *args, const char *what)
{
	log_error("boot failed: %s", what);
	write_report(what);
	print_summary(what);
	if (!args->shell)
		reboot_after_delay("rd.shell=0");
	console_print("lifeboat: starting a rescue shell; fix what is wrong (a root you mount "
		      "on /sysroot yourself is used as it is), then type exit to try again\n");
	if (interact() < 0)
		reboot_after_delay("the root password was refused");
}
