/* gen_report: the generator's messages to the user, on stderr. */
#include "gen/gen_report.h"

#include <stdarg.h>
#include <stdio.h>

bool gen_verbose;

static void report(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "lifeboat: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
