/* prompt: the built-in rescue prompt, for images without a shell. */
#include "rescue/prompt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "bootlib/console.h"
#include "common/fileread.h"
#include "rescue/report.h"

#define PROMPT_LINE_MAX 128

struct prompt_word {
	const char *name;
	enum prompt_cmd cmd;
	const char *help;
};

static const struct prompt_word prompt_words[] = {
	{ "help",     PROMPT_HELP,     "this list" },
	{ "report",   PROMPT_REPORT,   "show " RESCUE_REPORT_PATH },
	{ "devices",  PROMPT_DEVICES,  "list the block devices with their LABEL, UUID, PARTUUID" },
	{ "retry",    PROMPT_CONTINUE, "try the step that failed again (after adding a disk)" },
	{ "continue", PROMPT_CONTINUE, "leave this prompt and go on with the boot" },
	{ "exit",     PROMPT_CONTINUE, "the same as continue" },
	{ "reboot",   PROMPT_REBOOT,   "restart the machine" },
	{ "poweroff", PROMPT_POWEROFF, "turn the machine off" },
};

#define N_WORDS (sizeof(prompt_words) / sizeof(prompt_words[0]))

int prompt_parse(const char *line)
{
	size_t start = 0, end = strlen(line);

	while (start < end && isspace((unsigned char)line[start]))
		start++;
	while (end > start && isspace((unsigned char)line[end - 1]))
		end--;
	if (start == end)
		return PROMPT_EMPTY;
	for (size_t i = 0; i < N_WORDS; i++)
		if (strlen(prompt_words[i].name) == end - start &&
		    memcmp(prompt_words[i].name, line + start, end - start) == 0)
			return (int)prompt_words[i].cmd;
	return -EINVAL;
}

static void print_help(FILE *out)
{
	fprintf(out, "commands:\n");
	for (size_t i = 0; i < N_WORDS; i++)
		fprintf(out, "  %-9s %s\n", prompt_words[i].name, prompt_words[i].help);
}

static void print_file(FILE *out, const char *path)
{
	int r = file_read_to_stream(path, out);

	if (r < 0)
		fprintf(out, "%s cannot be read: %s\n", path, strerror(-r));
}

/* Carry out one command; returns true when the boot goes on. */
static bool prompt_do(FILE *out, int cmd)
{
	switch (cmd) {
	case PROMPT_EMPTY:
		return false;
	case PROMPT_HELP:
		print_help(out);
		return false;
	case PROMPT_REPORT:
		print_file(out, RESCUE_REPORT_PATH);
		return false;
	case PROMPT_DEVICES:
		if (blkprobe_list(out) == 0)
			fprintf(out, "  (none)\n");
		return false;
	case PROMPT_REBOOT:
	case PROMPT_POWEROFF:
		fflush(out);
		sync();
		reboot(cmd == PROMPT_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
		fprintf(out, "%s failed: %s\n", cmd == PROMPT_REBOOT ? "reboot" : "poweroff",
			strerror(errno));
		return false;
	case PROMPT_CONTINUE:
		return true;
	default:
		fprintf(out, "unknown command; type help for the list\n");
		return false;
	}
}

int prompt_run(int fd)
{
	FILE *out = fdopen(dup(fd), "w");

	if (!out)
		return -errno;
	fprintf(out, "lifeboat has no shell in this image (built with --rescue none); "
		"a small prompt instead.\n");
	print_help(out);
	for (;;) {
		char line[PROMPT_LINE_MAX];

		fprintf(out, "lifeboat> ");
		fflush(out);
		if (console_read_line(fd, line, sizeof(line), false) < 0) {
			fclose(out);
			return -EIO;
		}
		if (prompt_do(out, prompt_parse(line)))
			break;
	}
	fclose(out);
	return 0;
}
