/* verb: what the way out was asked to do at its end (systemd's contract:
 * argv[1] is reboot, poweroff, halt or kexec; options may follow). */
#ifndef LIFEBOAT_SHUTDOWN_VERB_H
#define LIFEBOAT_SHUTDOWN_VERB_H

#include <stdbool.h>

struct shutdown_args {
	const char *verb;  /* as given, for messages */
	int reboot_cmd;    /* RB_AUTOBOOT, RB_POWER_OFF, RB_HALT_SYSTEM or RB_KEXEC */
	bool debug;        /* --log-level=debug or =7 from systemd, or -d / --debug */
	bool handed_over;  /* SHUTDOWN_HANDED_OVER: a script's call pivoted here */
};

/* The option shutdown/handover.c passes to /shutdown after it pivoted into
 * the way out for a script: the steps may then run without PID 1. */
#define SHUTDOWN_HANDED_OVER "--handed-over"

/* Parse argv as systemd-shutdown passes it on (argv[0] /shutdown, argv[1]
 * the verb, then --log-level=, --timeout= and the like, which are accepted
 * and, but for the debug level, ignored). Returns 0, or -EINVAL when the
 * verb is missing or unknown. */
int shutdown_verb_args_parse(int argc, char *const *argv, struct shutdown_args *out);

/* The kernel command line word of the way out: rd.shutdown.debug
 * (dracut's name), from the text of /proc/cmdline, split as the init splits
 * it. rd.break=shutdown is not read here: the init decides it, with
 * /etc/cmdline.d, and leaves its mark (shutdown/leave.h). */
struct shutdown_cmdline {
	bool debug;
};
void shutdown_verb_cmdline_parse(const char *cmdline, struct shutdown_cmdline *out);

#endif
