/* redact: secrets (iSCSI CHAP) out of command lines and root paths, decided
 * on the words as the parser reads them. */
#include "common/redact.h"

#include <stdlib.h>
#include <string.h>

#include "common/cmdwords.h"

#define ISCSI_PREFIX "iscsi:"

/* Parameters whose whole value is a secret. */
static const char *const secret_params[] = { "rd.iscsi.password", "rd.iscsi.in.password" };
/* Parameters whose value is a root path that may hold credentials. */
static const char *const path_params[] = { "root", "netroot" };

static bool name_in(const char *name, size_t n, const char *const *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(list[i]) == n && strncmp(list[i], name, n) == 0)
			return true;
	return false;
}

bool redact_path_creds(const char *value, size_t *start, size_t *len)
{
	const char *at;

	if (strncmp(value, ISCSI_PREFIX, strlen(ISCSI_PREFIX)) != 0)
		return false;
	at = strrchr(value, '@');
	if (!at || at == value + strlen(ISCSI_PREFIX))
		return false;
	*start = strlen(ISCSI_PREFIX);
	*len = (size_t)(at - value) - *start;
	return true;
}

/* The parser (bootlib/cmdline.c) splits NAME=VALUE at the first '='. */
bool redact_word_secret(const char *text, size_t *start, size_t *len)
{
	const char *eq = strchr(text, '=');
	size_t n = eq ? (size_t)(eq - text) : 0;

	if (!eq)
		return false;
	if (name_in(text, n, secret_params, sizeof(secret_params) / sizeof(secret_params[0]))) {
		*start = n + 1;
		*len = strlen(eq + 1);
		return *len > 0;
	}
	if (name_in(text, n, path_params, sizeof(path_params) / sizeof(path_params[0])) &&
	    redact_path_creds(eq + 1, start, len)) {
		*start += n + 1;
		return true;
	}
	return false;
}

struct sink {
	char *out;
	size_t pos, size;
};

static void sink_put(struct sink *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n && s->pos + 1 < s->size; i++)
		s->out[s->pos++] = p[i];
}

/* The raw word with each run of its secret bytes (mask, over its text)
 * replaced by "*". A quote among them is kept when they hold an odd number,
 * so the rest of the line splits as before. A cut word loses all after a
 * secret's start: the parser never saw that part, and it may be more of the
 * secret. */
static void word_put_redacted(struct sink *s, const struct cmdword *w, const bool *mask)
{
	size_t done = 0;

	for (size_t a = 0; a < w->len && done < w->raw_len; a++) {
		size_t b = a, r0, r1, quotes = 0;

		if (!mask[a])
			continue;
		while (b < w->len && mask[b])
			b++;
		r0 = cmdwords_raw_offset(w, a);
		r1 = w->cut || b >= w->len ? w->raw_len : cmdwords_raw_offset(w, b - 1) + 1;
		for (size_t i = r0; i < r1; i++)
			quotes += w->raw[i] == '"';
		sink_put(s, w->raw + done, r0 - done);
		sink_put(s, "*\"", quotes % 2 ? 2 : 1);
		done = r1;
		a = b;
	}
	sink_put(s, w->raw + done, w->raw_len - done);
}

/* Where the value of the sub-word ending at end runs to: over the following
 * sub-words that hold no '='. The kernel lists the words it hands to init
 * without '=' before those with one, so after a NAME=VALUE such a word is
 * the rest of a value that held a blank. */
static size_t value_end(const char *text, size_t len, size_t end)
{
	for (size_t i = end; i < len; ) {
		size_t next;

		while (i < len && cmdwords_blank(text[i]))
			i++;
		next = i;
		while (next < len && !cmdwords_blank(text[next]))
			next++;
		if (i == len || memchr(text + i, '=', next - i))
			break;
		end = i = next;
	}
	return end;
}

/* Log text only: a word's text split again at its blanks. The kernel logs
 * the parameters it passes to init as one quoted list ("Unknown kernel
 * command line parameters \"A B C\""), which is one word named by its
 * first parameter; each parameter of it is a secret as by itself. */
static bool subwords_mask(const struct cmdword *w, bool *mask)
{
	char value[CMDWORD_MAX];
	bool found = false;

	memcpy(value, w->text, w->len + 1);
	for (size_t i = 0, end; i < w->len; i = end) {
		size_t start, len, stop;

		while (i < w->len && cmdwords_blank(w->text[i]))
			i++;
		for (end = i; end < w->len && !cmdwords_blank(w->text[end]); end++)
			;
		if (!memchr(w->text + i, '=', end - i))
			continue;
		stop = value_end(w->text, w->len, end);
		value[stop] = '\0';
		if (redact_word_secret(value + i, &start, &len)) {
			memset(mask + i + start, true, len);
			found = true;
		}
		value[stop] = w->text[stop];
		end = stop;
	}
	explicit_bzero(value, w->len + 1);
	return found;
}

/* The secret bytes of w's text into mask; whether there are any. */
static bool word_mask(const struct cmdword *w, bool *mask, bool resplit)
{
	size_t start, len;
	bool found = redact_word_secret(w->text, &start, &len);

	memset(mask, false, w->len);
	if (found)
		memset(mask + start, true, len);
	if (resplit)
		found |= subwords_mask(w, mask);
	return found;
}

static bool line_redacted(const char *line, char *out, size_t size, bool resplit)
{
	struct sink s = { out, 0, size };
	struct cmdword w;
	bool mask[CMDWORD_MAX];
	const char *p = line, *done = line;
	bool found = false;

	while (cmdwords_next(&p, &w)) {
		sink_put(&s, done, (size_t)(w.raw - done));
		if (word_mask(&w, mask, resplit)) {
			word_put_redacted(&s, &w, mask);
			found = true;
		} else {
			sink_put(&s, w.raw, w.raw_len);
		}
		done = p;
	}
	sink_put(&s, done, strlen(done));
	if (size)
		out[s.pos] = '\0';
	return found;
}

bool redact_cmdline(const char *cmdline, char *out, size_t size)
{
	return line_redacted(cmdline, out, size, false);
}

bool redact_has_secrets(const char *cmdline)
{
	struct cmdword w;
	size_t start, len;
	bool found = false;

	while (!found && cmdwords_next(&cmdline, &w))
		found = redact_word_secret(w.text, &start, &len);
	return found;
}

/* value with its credentials replaced by mark (NULL: with their '@'). */
static bool path_replaced(const char *value, const char *mark, char *out, size_t size)
{
	struct sink s = { out, 0, size };
	size_t start, len;
	bool found = redact_path_creds(value, &start, &len);

	if (found) {
		sink_put(&s, value, start);
		if (mark)
			sink_put(&s, mark, strlen(mark));
		value += start + len + (mark ? 0 : 1);
	}
	sink_put(&s, value, strlen(value));
	if (size)
		out[s.pos] = '\0';
	return found;
}

bool redact_path(const char *value, char *out, size_t size)
{
	return path_replaced(value, "*", out, size);
}

bool redact_path_strip(const char *value, char *out, size_t size)
{
	return path_replaced(value, NULL, out, size);
}

/* Redaction never lengthens a line: a secret of one byte or more becomes
 * "*", or `*"` when it held a quote as well. */
char *redact_lines(const char *text, size_t len, size_t *out_len, bool *found)
{
	char *out = malloc(len + 1), *line = malloc(len + 1);
	size_t pos = 0;

	*found = false;
	if (!out || !line) {
		free(out);
		free(line);
		return NULL;
	}
	for (size_t i = 0; i < len; ) {
		size_t n = 0;

		while (i + n < len && text[i + n] != '\n' && text[i + n] != '\0')
			n++;
		memcpy(line, text + i, n);
		line[n] = '\0';
		*found |= line_redacted(line, out + pos, n + 1, true);
		pos += strlen(out + pos);
		if (i + n < len)
			out[pos++] = text[i + n];
		i += n + 1;
	}
	explicit_bzero(line, len + 1);
	free(line);
	out[pos] = '\0';
	*out_len = pos;
	return out;
}
