/* verb: parse the way out's arguments and its kernel command line words. */
#include "shutdown/verb.h"

#include <errno.h>
#include <string.h>
#include <sys/reboot.h>

#include "common/cmdwords.h"

static const struct {
	const char *name;
	int cmd;
} verbs[] = {
	{ "reboot",   RB_AUTOBOOT },
	{ "poweroff", RB_POWER_OFF },
	{ "halt",     RB_HALT_SYSTEM },
	{ "kexec",    RB_KEXEC },
};

static int verb_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(verbs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* systemd's --log-level=LEVEL, a name or a syslog number: systemd itself
 * passes the number ("--log-level=7" under systemd.log_level=debug, as
 * src/core/main.c formats it with %d); 7 is LOG_DEBUG, the most verbose. */
static bool log_level_is_debug(const char *arg)
{
	static const char opt[] = "--log-level=";
	const char *level = arg + sizeof(opt) - 1;

	if (strncmp(arg, opt, sizeof(opt) - 1) != 0)
		return false;
	return strcmp(level, "debug") == 0 || strcmp(level, "7") == 0;
}

int shutdown_verb_args_parse(int argc, char *const *argv, struct shutdown_args *out)
{
	int v;

	memset(out, 0, sizeof(*out));
	if (argc < 2 || !argv[1])
		return -EINVAL;
	v = verb_lookup(argv[1]);
	if (v < 0)
		return -EINVAL;
	out->verb = verbs[v].name;
	out->reboot_cmd = verbs[v].cmd;
	/* systemd hands on its own options after the verb; only the debug
	 * level matters here, the rest (log target, colour, timeout) does
	 * not apply to a program that logs to the kernel's ring. */
	for (int i = 2; i < argc && argv[i]; i++) {
		if (log_level_is_debug(argv[i]) || strcmp(argv[i], "-d") == 0 ||
		    strcmp(argv[i], "--debug") == 0)
			out->debug = true;
		else if (strcmp(argv[i], SHUTDOWN_HANDED_OVER) == 0)
			out->handed_over = true;
	}
	return 0;
}

void shutdown_verb_cmdline_parse(const char *cmdline, struct shutdown_cmdline *out)
{
	struct cmdword w;
	const char *pos = cmdline;

	memset(out, 0, sizeof(*out));
	/* Split as the init splits (quotes grouping and removed). */
	while (pos && cmdwords_next(&pos, &w))
		if (strcmp(w.text, "rd.shutdown.debug") == 0 ||
		    strcmp(w.text, "rd.shutdown.debug=1") == 0)
			out->debug = true;
}
