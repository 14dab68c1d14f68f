/* timeline_read: parse the init's boot timeline into marks. */
#include "gen/cmd/timeline_read.h"

#include "common/array.h"
#include "common/fileread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TIMELINE_FILE_MAX (1024 * 1024)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_phase_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == '-' || c == '.';
}

/* "12.345678" -> microseconds; fraction digits past the sixth are dropped.
 * Advances *p past the number. */
static int seconds_parse(const char **p, const char *end, unsigned long long *usec)
{
	const char *s = *p;
	unsigned long long sec = 0, frac = 0;
	unsigned int digits = 0;

	if (s == end || !is_digit(*s))
		return -EINVAL;
	for (; s < end && is_digit(*s); s++) {
		if (sec > 1000000000ULL)    /* 30 years of uptime: not a timestamp */
			return -EINVAL;
		sec = sec * 10 + (unsigned long long)(*s - '0');
	}
	if (s < end && *s == '.') {
		for (s++; s < end && is_digit(*s); s++, digits++) {
			if (digits >= 9)
				return -EINVAL;
			if (digits < 6)
				frac = frac * 10 + (unsigned long long)(*s - '0');
		}
		if (digits == 0)
			return -EINVAL;
	}
	for (unsigned int d = digits < 6 ? digits : 6; d < 6; d++)
		frac *= 10;
	*usec = sec * 1000000ULL + frac;
	*p = s;
	return 0;
}

static int marks_reserve(struct timeline *tl)
{
	struct timeline_mark *m;

	if (tl->len < tl->cap)
		return 0;
	if (tl->len >= TIMELINE_LINES_MAX)
		return -E2BIG;
	m = array_grow(tl->marks, &tl->cap, tl->len, sizeof(*m), 16);
	if (!m)
		return -ENOMEM;
	tl->marks = m;
	return 0;
}

/* One line without its newline. */
static int line_parse(const char *s, const char *end, struct timeline_mark *m)
{
	size_t n = 0;
	int r;

	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	r = seconds_parse(&s, end, &m->usec);
	if (r < 0 || s == end || (*s != ' ' && *s != '\t'))
		return -EINVAL;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (; s < end && is_phase_char(*s); s++) {
		if (n + 1 >= sizeof(m->phase))
			return -EINVAL;
		m->phase[n++] = *s;
	}
	m->phase[n] = '\0';
	if (n == 0 || (s < end && *s != ' ' && *s != '\t'))
		return -EINVAL;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	n = (size_t)(end - s) < sizeof(m->detail) ? (size_t)(end - s) : sizeof(m->detail) - 1;
	memcpy(m->detail, s, n);
	m->detail[n] = '\0';
	return 0;
}

static bool line_blank(const char *s, const char *end)
{
	for (; s < end; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

int timeline_read_parse(const char *text, size_t len, struct timeline *tl, unsigned int *bad_line)
{
	const char *end = text + len;
	unsigned int line = 0;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *stop = nl ? nl : end;

		line++;
		if (!line_blank(text, stop)) {
			int r = marks_reserve(tl);

			if (r == 0)
				r = line_parse(text, stop, &tl->marks[tl->len]);
			if (r < 0) {
				*bad_line = line;
				return r;
			}
			tl->len++;
		}
		text = nl ? nl + 1 : end;
	}
	return 0;
}

int timeline_read_load(const char *path, struct timeline *tl, unsigned int *bad_line)
{
	char *text = NULL;
	size_t len = 0;
	int r = file_read_all(path, TIMELINE_FILE_MAX, &text, &len);

	if (r < 0)
		return r;
	r = timeline_read_parse(text, len, tl, bad_line);
	free(text);
	return r;
}

void timeline_read_free(struct timeline *tl)
{
	free(tl->marks);
	tl->marks = NULL;
	tl->len = tl->cap = 0;
}
