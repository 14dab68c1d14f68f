/* authkeys: check authorized_keys lines against what dropbear accepts. */
#include "gen/host/authkeys.h"

#include "common/base64.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The key types dropbear 2022 accepts (RSA, ECDSA, Ed25519, the FIDO ones). */
static const char *const key_types[] = {
	"ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
	"sk-ecdsa-sha2-nistp256@openssh.com",
};

/* The options dropbear honours (dropbear(8), "Authorized Keys"); with
 * any other it refuses the key. */
static const char *const known_options[] = {
	"no-port-forwarding", "no-agent-forwarding", "no-X11-forwarding", "no-pty",
	"restrict", "permitopen", "command", "no-touch-required",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define BLOB_MAX 16384

static bool is_key_type(const char *word, size_t len)
{
	for (size_t i = 0; i < N(key_types); i++)
		if (strlen(key_types[i]) == len && memcmp(key_types[i], word, len) == 0)
			return true;
	return false;
}

static bool is_known_option(const char *name, size_t len)
{
	for (size_t i = 0; i < N(known_options); i++)
		if (strlen(known_options[i]) == len &&
		    strncasecmp(known_options[i], name, len) == 0)
			return true;
	return false;
}

/* Bytes of p (at most max) before the first of stop (or a NUL): the line
 * is not NUL-terminated, so no str* function may run past max. */
static size_t span_until(const char *p, size_t max, const char *stop)
{
	size_t i = 0;

	while (i < max && p[i] && !strchr(stop, p[i]))
		i++;
	return i;
}

/* The blob starts with its own type as an SSH string (RFC 4253 6.6): a
 * 32-bit big-endian length, then the name. */
static bool blob_names(const unsigned char *blob, int len, const char *type, size_t type_len)
{
	uint32_t n;

	if (len < 4)
		return false;
	n = (uint32_t)blob[0] << 24 | (uint32_t)blob[1] << 16 | (uint32_t)blob[2] << 8 | blob[3];
	return n == type_len && (size_t)len >= 4 + n && memcmp(blob + 4, type, n) == 0;
}

/* The end of a word starting at p: at a blank outside double quotes (a
 * backslash escapes a quote inside them). *unbalanced when a quote
 * stays open. */
static size_t word_end(const char *p, size_t len, bool *unbalanced)
{
	bool quoted = false;
	size_t i = 0;

	for (; i < len && (quoted || (p[i] != ' ' && p[i] != '\t')); i++) {
		if (quoted && p[i] == '\\' && i + 1 < len && p[i + 1] == '"')
			i++;
		else if (p[i] == '"')
			quoted = !quoted;
	}
	*unbalanced = quoted;
	return i;
}

/* Each comma-separated option of opts: NAME or NAME="VALUE". */
static enum authkey_verdict check_options(const char *opts, size_t len, struct authkey_check *out)
{
	size_t i = 0;

	while (i < len) {
		size_t start = i, name_len;
		bool quoted = false;

		while (i < len && (quoted || opts[i] != ',')) {
			if (quoted && opts[i] == '\\' && i + 1 < len && opts[i + 1] == '"')
				i++;
			else if (opts[i] == '"')
				quoted = !quoted;
			i++;
		}
		name_len = span_until(opts + start, i - start, "=,");
		if (name_len == 0)
			return AUTHKEY_BAD_OPTIONS;
		if (!is_known_option(opts + start, name_len)) {
			snprintf(out->option, sizeof(out->option), "%.*s",
				 (int)(name_len < sizeof(out->option) ? name_len : sizeof(out->option) - 1),
				 opts + start);
			return AUTHKEY_UNKNOWN_OPTION;
		}
		if (i < len)
			i++;   /* the comma */
		if (i == len && opts[len - 1] == ',')
			return AUTHKEY_BAD_OPTIONS;
	}
	return AUTHKEY_USABLE;
}

static size_t skip_blanks(const char *p, size_t len, size_t i)
{
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i;
}

/* The key type at line[i] and its base64 blob after it. */
static enum authkey_verdict check_key(const char *line, size_t len, size_t i,
				      struct authkey_check *out)
{
	unsigned char blob[BLOB_MAX];
	size_t type_len = span_until(line + i, len - i, " \t"), b64_start, b64_len;
	long n;

	if (!is_key_type(line + i, type_len))
		return AUTHKEY_BAD_TYPE;
	snprintf(out->type, sizeof(out->type), "%.*s", (int)type_len, line + i);
	b64_start = skip_blanks(line, len, i + type_len);
	b64_len = span_until(line + b64_start, len - b64_start, " \t");
	n = base64_decode(BASE64_STANDARD, line + b64_start, b64_len, blob, sizeof(blob));
	if (n <= 0 || !blob_names(blob, (int)n, line + i, type_len))
		return AUTHKEY_BAD_KEY;
	return AUTHKEY_USABLE;
}

void authkeys_check_line(const char *line, size_t len, struct authkey_check *out)
{
	size_t i, first_len, nul = strnlen(line, len);
	bool unbalanced;

	memset(out, 0, sizeof(*out));
	if (nul < len) {
		out->verdict = AUTHKEY_BAD_KEY;   /* a NUL byte: not a text line */
		return;
	}
	i = skip_blanks(line, len, 0);
	if (i == len || line[i] == '#' || line[i] == '\r') {
		out->verdict = AUTHKEY_EMPTY;
		return;
	}
	first_len = word_end(line + i, len - i, &unbalanced);
	if (unbalanced) {
		out->verdict = AUTHKEY_BAD_OPTIONS;
		return;
	}
	/* A first word that is no key type is the options (sshd's rule). */
	if (!is_key_type(line + i, first_len)) {
		out->verdict = check_options(line + i, first_len, out);
		if (out->verdict != AUTHKEY_USABLE)
			return;
		i = skip_blanks(line, len, i + first_len);
		if (i == len) {
			out->verdict = AUTHKEY_BAD_TYPE;
			return;
		}
	}
	out->verdict = check_key(line, len, i, out);
}

const char *authkeys_verdict_text(enum authkey_verdict v)
{
	static const char *const texts[] = {
		[AUTHKEY_USABLE] = "usable",
		[AUTHKEY_EMPTY] = "blank or a comment",
		[AUTHKEY_BAD_OPTIONS] = "its options are malformed (an open quote or an empty option)",
		[AUTHKEY_UNKNOWN_OPTION] = "dropbear does not know one of its options and would "
					   "refuse the key",
		[AUTHKEY_BAD_TYPE] = "no key type dropbear knows (ssh-ed25519, ssh-rsa, ecdsa-sha2-*, "
				     "sk-*)",
		[AUTHKEY_BAD_KEY] = "the key is not valid base64 of a key of that type",
	};

	return (size_t)v < N(texts) ? texts[v] : "unknown";
}
