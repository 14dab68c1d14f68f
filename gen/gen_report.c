/* gen_report: the generator's messages to the user, on stderr. */
#include "gen/gen_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool gen_verbose;

/* One write per message: the builds of --kver all run at once
 * (gen/cmd/build_all.c) and their lines must not interleave. */
static void report(const char *prefix, const char *fmt, va_list ap)
{
	char line[8192];
	int n = snprintf(line, sizeof(line), "lifeboat: %s", prefix);

	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	strcat(line, "\n");
	fputs(line, stderr);
}

void gen_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
}

void gen_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void gen_info(const char *fmt, ...)
{
	va_list ap;

	if (!gen_verbose)
		return;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
}
