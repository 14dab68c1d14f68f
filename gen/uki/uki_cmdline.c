/* uki_cmdline: the unified kernel image's command line, decided before
 * anything is built (see uki_cmdline.h for the stub's rule). */
#include "gen/uki/uki_cmdline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"
#include "gen/gen_report.h"

#define UKI_CMDLINE_MAX 65536

const char *const uki_cmdline_files[] = { "/etc/kernel/cmdline", "/usr/lib/kernel/cmdline", NULL };

/* One line: line ends become blanks (kernel-install's file may have
 * several), trailing blanks go. NULL when nothing is left. */
static char *one_line(char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++)
		if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			s[i] = ' ';
	while (len && s[len - 1] == ' ')
		s[--len] = '\0';
	if (len == 0) {
		free(s);
		return NULL;
	}
	return s;
}

static int cmdline_read(const char *given, const char *const *files, char **line)
{
	size_t len;
	int r;

	if (given) {
		*line = strdup(given);
		if (!*line)
			return -ENOMEM;
		*line = one_line(*line);
		return 0;
	}
	for (; *files; files++) {
		if (access(*files, F_OK) < 0)
			continue;
		r = file_read_all(*files, UKI_CMDLINE_MAX, line, &len);
		if (r < 0) {
			gen_error("cannot read the kernel command line %s for the unified kernel image: "
				  "%s; fix the file or give --cmdline", *files, strerror(-r));
			return r;
		}
		*line = one_line(*line);
		return 0;
	}
	return 0;
}

int uki_cmdline_decide(const char *given, const char *const *files, bool signing,
		       bool loader_cmdline, char **line)
{
	int r;

	*line = NULL;
	if (loader_cmdline) {
		if (!given)
			return 0;
		gen_error("--uki-loader-cmdline leaves the command line to the boot loader, and "
			  "--cmdline gives the image one: drop one of them");
		return -EINVAL;
	}
	r = cmdline_read(given, files, line);
	if (r < 0 || *line)
		return r;
	if (!signing) {
		gen_warn("the unified kernel image has no command line (no --cmdline, none in %s): "
			 "the kernel gets the boot loader's options, or none", files[0]);
		return 0;
	}
	gen_error("refusing to sign a unified kernel image without a command line (no "
		  "--cmdline, none in %s): systemd's stub would take the boot loader's options "
		  "even under Secure Boot, so whoever can write the ESP could boot it with "
		  "init=/bin/sh; give --cmdline 'root=... ro', or --uki-loader-cmdline to let the "
		  "loader decide (see lifeboat(8))", files[0]);
	return -EINVAL;
}
