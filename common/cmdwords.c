/* cmdwords: split the kernel command line into words as the kernel does. */
#include "common/cmdwords.h"

bool cmdwords_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

bool cmdwords_next(const char **pos, struct cmdword *w)
{
	const char *p = *pos;
	bool quoted = false;

	while (cmdwords_blank(*p))
		p++;
	w->raw = p;
	w->len = 0;
	w->cut = false;
	for (; *p && (quoted || !cmdwords_blank(*p)); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (w->len + 1 < sizeof(w->text))
			w->text[w->len++] = *p;
		else
			w->cut = true;
	}
	w->text[w->len] = '\0';
	w->raw_len = (size_t)(p - w->raw);
	*pos = p;
	return w->raw_len > 0;
}

size_t cmdwords_raw_offset(const struct cmdword *w, size_t i)
{
	size_t r = 0;

	for (; r < w->raw_len; r++) {
		if (w->raw[r] == '"')
			continue;
		if (i-- == 0)
			break;
	}
	return r;
}
