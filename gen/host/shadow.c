/* shadow: the root password hash from a shadow(5) file, for --rescue-auth. */
#include "gen/host/shadow.h"

#include <errno.h>
#include <string.h>

/* The second field of a line that starts "root:", as [*start, *end). */
static int hash_field(const char *line, const char *eol, const char **start, const char **end)
{
	const char *colon;

	if ((size_t)(eol - line) < 5 || memcmp(line, "root:", 5) != 0)
		return -ENOENT;
	*start = line + 5;
	colon = memchr(*start, ':', (size_t)(eol - *start));
	*end = colon ? colon : eol;
	return 0;
}

int shadow_root_hash(const char *text, size_t len, char *hash, size_t size)
{
	const char *end = text + len;

	for (const char *line = text; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		const char *h, *h_end;

		if (!eol)
			eol = end;
		if (hash_field(line, eol, &h, &h_end) == 0) {
			size_t n = (size_t)(h_end - h);

			/* Empty, "!...", "*": sulogin would not let anybody in either. */
			if (n == 0 || h[0] == '!' || h[0] == '*')
				return -EPERM;
			if (memchr(h, '\0', n))
				return -EINVAL;
			if (n >= size)
				return -ENAMETOOLONG;
			memcpy(hash, h, n);
			hash[n] = '\0';
			return 0;
		}
		line = eol + 1;
	}
	return -ENOENT;
}
