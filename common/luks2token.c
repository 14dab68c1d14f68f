/* luks2token: find the tokens in a LUKS2 header's JSON area. */
#include "common/luks2token.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"

/* Deeper nesting than the format has (tokens hold objects of arrays) is
 * refused: a hostile header must not run the parser's stack out. */
#define DEPTH_MAX 16
#define LUKS2_VERSION 2
#define HDR_SIZE_MIN (16 * 1024)
#define HDR_SIZE_MAX (4 * 1024 * 1024)

static const unsigned char luks_magic[6] = { 'L', 'U', 'K', 'S', 0xba, 0xbe };

struct cursor {
	const char *p, *end;
};

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static bool take(struct cursor *c, char ch)
{
	skip_ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

/* A string into buf (truncated, terminated; NULL: skipped). Escapes are
 * checked; \uXXXX becomes '?': names and types here are ASCII. */
static int read_string(struct cursor *c, char *buf, size_t size)
{
	size_t n = 0;

	if (!take(c, '"'))
		return -EBADMSG;
	while (c->p < c->end && *c->p != '"') {
		char ch = *c->p++;

		if ((unsigned char)ch < 0x20)
			return -EBADMSG;
		if (ch == '\\') {
			if (c->p >= c->end)
				return -EBADMSG;
			ch = *c->p++;
			if (ch == 'u') {
				if (c->end - c->p < 4)
					return -EBADMSG;
				for (int i = 0; i < 4; i++)
					if (!strchr("0123456789abcdefABCDEF", c->p[i]) || !c->p[i])
						return -EBADMSG;
				c->p += 4;
				ch = '?';
			} else if (!strchr("\"\\/bfnrt", ch) || !ch) {
				return -EBADMSG;
			}
		}
		if (buf && n + 1 < size)
			buf[n++] = ch;
	}
	if (c->p >= c->end)
		return -EBADMSG;
	c->p++;
	if (buf && size)
		buf[n] = '\0';
	return 0;
}

/* A number's digits (JSON's grammar, loosely: the value is not used
 * except as a small integer). */
static int read_number(struct cursor *c, long *value)
{
	const char *start;
	long v = 0;
	bool digits = false;

	skip_ws(c);
	start = c->p;
	if (c->p < c->end && *c->p == '-')
		c->p++;
	for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
		digits = true;
		if (v < 1000000)
			v = v * 10 + (*c->p - '0');
	}
	while (c->p < c->end && strchr(".eE+-0123456789", *c->p) && *c->p)
		c->p++;
	if (!digits)
		return -EBADMSG;
	if (value)
		*value = *start == '-' ? -v : v;
	return 0;
}

static bool take_word(struct cursor *c, const char *word)
{
	size_t n = strlen(word);

	skip_ws(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
		return false;
	c->p += n;
	return true;
}

static int skip_value(struct cursor *c, int depth);

/* The members of an object or the items of an array, each skipped. */
static int skip_container(struct cursor *c, char close, bool object, int depth)
{
	if (take(c, close))
		return 0;
	do {
		if (object && (read_string(c, NULL, 0) < 0 || !take(c, ':')))
			return -EBADMSG;
		if (skip_value(c, depth + 1) < 0)
			return -EBADMSG;
	} while (take(c, ','));
	return take(c, close) ? 0 : -EBADMSG;
}

static int skip_value(struct cursor *c, int depth)
{
	if (depth > DEPTH_MAX)
		return -EBADMSG;
	skip_ws(c);
	if (c->p >= c->end)
		return -EBADMSG;
	switch (*c->p) {
	case '{':
		c->p++;
		return skip_container(c, '}', true, depth);
	case '[':
		c->p++;
		return skip_container(c, ']', false, depth);
	case '"':
		return read_string(c, NULL, 0);
	case 't':
		return take_word(c, "true") ? 0 : -EBADMSG;
	case 'f':
		return take_word(c, "false") ? 0 : -EBADMSG;
	case 'n':
		return take_word(c, "null") ? 0 : -EBADMSG;
	default:
		return read_number(c, NULL);
	}
}

/* "tpm2-pcrs": [7, 8] into a mask; out-of-range numbers are refused. */
static int read_pcrs(struct cursor *c, uint32_t *mask)
{
	long v;

	if (!take(c, '['))
		return -EBADMSG;
	if (take(c, ']'))
		return 0;
	do {
		if (read_number(c, &v) < 0 || v < 0 || v >= LUKS2TOKEN_PCR_COUNT)
			return -EBADMSG;
		*mask |= 1u << v;
	} while (take(c, ','));
	return take(c, ']') ? 0 : -EBADMSG;
}

/* "keyslots": ["1"]: the first one. */
static int read_keyslots(struct cursor *c, int *first)
{
	char slot[16];

	if (!take(c, '['))
		return -EBADMSG;
	if (take(c, ']'))
		return 0;
	do {
		if (read_string(c, slot, sizeof(slot)) < 0)
			return -EBADMSG;
		if (*first < 0 && slot[0] >= '0' && slot[0] <= '9')
			*first = atoi(slot);
	} while (take(c, ','));
	return take(c, ']') ? 0 : -EBADMSG;
}

static int read_bool(struct cursor *c, bool *value)
{
	if (take_word(c, "true"))
		*value = true;
	else if (take_word(c, "false"))
		*value = false;
	else
		return -EBADMSG;
	return 0;
}

/* One member of a token object: the ones read here, others skipped. */
static int token_member(struct cursor *c, const char *key, struct luks2_token *t)
{
	if (strcmp(key, "type") == 0)
		return read_string(c, t->type, sizeof(t->type));
	if (strcmp(key, "keyslots") == 0)
		return read_keyslots(c, &t->keyslot);
	if (strcmp(key, "tpm2-pin") == 0)
		return read_bool(c, &t->tpm2_pin);
	if (strcmp(key, "tpm2-pcrs") == 0)
		return read_pcrs(c, &t->tpm2_pcrs);
	if (strcmp(key, "fido2-clientPin-required") == 0)
		return read_bool(c, &t->fido2_pin);
	if (strcmp(key, "fido2-up-required") == 0)
		return read_bool(c, &t->fido2_up);
	if (strcmp(key, "fido2-uv-required") == 0)
		return read_bool(c, &t->fido2_uv);
	if (strcmp(key, "pkcs11-uri") == 0)
		return read_string(c, t->pkcs11_uri, sizeof(t->pkcs11_uri));
	return skip_value(c, 3);
}

static int token_object(struct cursor *c, const char *base, struct luks2_token *t)
{
	skip_ws(c);
	t->json_off = (size_t)(c->p - base);
	if (!take(c, '{'))
		return -EBADMSG;
	if (!take(c, '}')) {
		do {
			char key[64];

			if (read_string(c, key, sizeof(key)) < 0 || !take(c, ':') ||
			    token_member(c, key, t) < 0)
				return -EBADMSG;
		} while (take(c, ','));
		if (!take(c, '}'))
			return -EBADMSG;
	}
	t->json_len = (size_t)(c->p - base) - t->json_off;
	return 0;
}

/* "tokens": { "0": {...}, "1": {...} } */
static int tokens_object(struct cursor *c, const char *base, struct luks2_tokens *out)
{
	/* Tokens past LUKS2TOKEN_MAX are parsed (the text must be valid)
	 * into this one and dropped. */
	struct luks2_token scratch = { 0 };
	char id[16];
	int r = 0;

	if (!take(c, '{'))
		return -EBADMSG;
	if (take(c, '}'))
		return 0;
	do {
		struct luks2_token *t = out->n < LUKS2TOKEN_MAX ? &out->t[out->n] : &scratch;

		memset(t, 0, sizeof(*t));
		t->keyslot = -1;
		t->fido2_pin = true;
		t->fido2_up = true;
		if (read_string(c, id, sizeof(id)) < 0 || !take(c, ':') ||
		    token_object(c, base, t) < 0)
			return -EBADMSG;
		t->id = atoi(id);
		if (t == &scratch)
			r = -E2BIG;
		else
			out->n++;
	} while (take(c, ','));
	return take(c, '}') ? r : -EBADMSG;
}

int luks2token_parse_json(const char *json, size_t len, struct luks2_tokens *out)
{
	const char *nul = memchr(json, '\0', len);
	struct cursor c = { json, nul ? nul : json + len };
	char key[64];
	int r = 0;

	out->n = 0;
	if (!take(&c, '{'))
		return -EBADMSG;
	if (take(&c, '}'))
		return 0;
	do {
		if (read_string(&c, key, sizeof(key)) < 0 || !take(&c, ':'))
			return -EBADMSG;
		if (strcmp(key, "tokens") == 0)
			r = tokens_object(&c, json, out);
		else
			r = skip_value(&c, 1) < 0 ? -EBADMSG : r;
		if (r == -EBADMSG)
			return r;
	} while (take(&c, ','));
	return take(&c, '}') ? r : -EBADMSG;
}

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int luks2token_parse_header(const unsigned char *buf, size_t len, struct luks2_tokens *out,
			    size_t *json_off, size_t *json_len)
{
	uint64_t hdr_size;
	size_t n;

	out->n = 0;
	if (len < LUKS2TOKEN_BINARY_SIZE || memcmp(buf, luks_magic, sizeof(luks_magic)) != 0 ||
	    (buf[6] << 8 | buf[7]) != LUKS2_VERSION)
		return -ENOTTY;
	hdr_size = be64(buf + 8);
	if (hdr_size < HDR_SIZE_MIN || hdr_size > HDR_SIZE_MAX)
		return -EBADMSG;
	n = (size_t)hdr_size - LUKS2TOKEN_BINARY_SIZE;
	if (n > len - LUKS2TOKEN_BINARY_SIZE)
		n = len - LUKS2TOKEN_BINARY_SIZE;
	if (json_off)
		*json_off = LUKS2TOKEN_BINARY_SIZE;
	if (json_len)
		*json_len = n;
	return luks2token_parse_json((const char *)buf + LUKS2TOKEN_BINARY_SIZE, n, out);
}

int luks2token_read(const char *path, struct luks2_tokens *out, char **json)
{
	unsigned char *buf = malloc(LUKS2TOKEN_READ_MAX + 1);
	size_t off = 0, len = 0;
	ssize_t got;
	int fd, r;

	out->n = 0;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		free(buf);
		return r;
	}
	got = file_read_fd_at(fd, buf, LUKS2TOKEN_READ_MAX, 0);
	close(fd);
	r = got < 0 ? (int)got : luks2token_parse_header(buf, (size_t)got, out, &off, &len);
	if (r >= 0 && json) {
		/* The caller reads tokens' members at json_off in this text. */
		memmove(buf, buf + off, len);
		buf[len] = '\0';
		*json = (char *)buf;
		buf = NULL;
	}
	free(buf);
	return r;
}

const struct luks2_token *luks2token_find(const struct luks2_tokens *t, const char *type)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->t[i].type, type) == 0)
			return &t->t[i];
	return NULL;
}

void luks2token_pcrs_format(uint32_t mask, char *buf, size_t size)
{
	size_t used = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (int i = 0; i < LUKS2TOKEN_PCR_COUNT; i++)
		if (mask & (1u << i) && used + 1 < size) {
			int w = snprintf(buf + used, size - used, "%s%d", used ? "+" : "", i);

			if (w < 0)
				return;
			used += (size_t)w;
		}
}
