/* live_args: rd.live.sha256=, rd.live.unverified, rd.live.overlay.size=. */
#include "net/live_args.h"

#include <stddef.h>
#include <string.h>

#define F(f) offsetof(struct live_args, f)
static const struct cmdline_word words[] = {
	{ "rd.live.sha256",       cmdline_set_string, F(sha256) },
	{ "rd.live.unverified",   cmdline_set_flag,   F(unverified) },
	{ "rd.live.overlay.size", cmdline_set_string, F(overlay_size) },
};
#undef F

void live_args_init(struct live_args *a)
{
	memset(a, 0, sizeof(*a));
}

struct cmdline_owner live_args_cmdline(struct live_args *a)
{
	return (struct cmdline_owner){ "live", words, CMDLINE_N(words), a, NULL };
}

bool live_args_size_ok(const char *size)
{
	size_t digits = strspn(size, "0123456789");

	if (digits == 0 || digits > 12)
		return false;
	return size[digits] == '\0' || (strchr("kKmMgG%", size[digits]) && size[digits + 1] == '\0');
}
