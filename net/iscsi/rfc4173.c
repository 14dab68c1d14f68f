/* rfc4173: parse the iSCSI root path (RFC 4173 section 5, dracut's credentials). */
#include "net/iscsi/rfc4173.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "iscsi:"
#define PROTO_TCP "6"

bool rfc4173_is_iscsi(const char *text)
{
	return strncmp(text, PREFIX, strlen(PREFIX)) == 0;
}

/* Copy the n bytes at s into dst (size bytes) as a string. */
static int field_copy(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* The next ':'-terminated field from *p: its start and length; *p moves past
 * the ':'. -EINVAL when there is no ':' (a field is missing). */
static int field_next(const char **p, const char **start, size_t *len)
{
	const char *colon = strchr(*p, ':');

	if (!colon)
		return -EINVAL;
	*start = *p;
	*len = (size_t)(colon - *p);
	*p = colon + 1;
	return 0;
}

/* USER:PASS or USER:PASS:INUSER:INPASS; a password cannot hold ':'. */
static int creds_parse(const char *s, size_t n, struct iscsi_chap *c)
{
	char *fields[4] = { c->username, c->password, c->in_username, c->in_password };
	size_t count = 1;
	const char *end = s + n;

	for (size_t i = 0; i < n; i++)
		count += s[i] == ':';
	if (count != 2 && count != 4)
		return -EINVAL;
	for (size_t i = 0; i < count; i++) {
		const char *colon = memchr(s, ':', (size_t)(end - s));
		const char *fend = colon ? colon : end;
		int r = field_copy(fields[i], ISCSI_SECRET_MAX, s, (size_t)(fend - s));

		if (r < 0)
			return r;
		if (fend == s)
			return -EINVAL;
		s = fend + (colon != NULL);
	}
	return 0;
}

/* [SERVER] or [IPV6] before the field's ':'. */
static int server_parse(const char **p, struct iscsi_target *t)
{
	const char *start;
	size_t len;

	if (**p == '[') {
		const char *close = strchr(*p, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		start = *p + 1;
		len = (size_t)(close - start);
		*p = close + 2;
		return len ? field_copy(t->server, sizeof(t->server), start, len) : -EINVAL;
	}
	if (field_next(p, &start, &len) < 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)start[i]) && start[i] != '.' && start[i] != '-')
			return -EINVAL;
	return field_copy(t->server, sizeof(t->server), start, len);
}

/* Decimal digits only, within max; empty is "not given" (0). */
static int number_parse(const char *s, size_t n, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	*out = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > max)
			return -EINVAL;
	}
	*out = v;
	return 0;
}

/* RFC 4173: the LUN in hexadecimal, up to 16 digits, dashes between groups. */
static int lun_parse(const char *s, size_t n, struct iscsi_target *t)
{
	unsigned long long v = 0;
	unsigned int digits = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '-' && i > 0 && i + 1 < n && s[i + 1] != '-')
			continue;
		if (!isxdigit((unsigned char)s[i]) || ++digits > 16)
			return -EINVAL;
		v = v << 4 | (unsigned long long)(isdigit((unsigned char)s[i]) ? s[i] - '0' :
						  tolower((unsigned char)s[i]) - 'a' + 10);
	}
	t->lun = v;
	t->lun_given = n > 0;
	return 0;
}

/* The target name: what iSCSI names may hold (RFC 3720 3.2.6.2: letters,
 * digits, '.', '-', ':'), so that it can be passed on without quoting. */
static bool target_name_valid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(".-:", *s))
			return false;
	return true;
}

static int fields_parse(const char *p, struct iscsi_target *t)
{
	const char *f = NULL;
	size_t n = 0;
	unsigned long v = 0;
	int r = server_parse(&p, t);

	if (r == 0)
		r = field_next(&p, &f, &n);
	if (r == 0 && n && (n != strlen(PROTO_TCP) || strncmp(f, PROTO_TCP, n) != 0))
		return -EPROTONOSUPPORT;
	if (r == 0)
		r = field_next(&p, &f, &n);
	if (r == 0)
		r = number_parse(f, n, 65535, &v);
	if (r == 0 && n && v == 0)
		r = -EINVAL;
	t->port = (unsigned int)v;
	if (r == 0)
		r = field_next(&p, &f, &n);
	if (r == 0)
		r = lun_parse(f, n, t);
	if (r == 0)
		r = field_copy(t->name, sizeof(t->name), p, strlen(p));
	if (r == 0 && !target_name_valid(t->name))
		r = -EINVAL;
	return r;
}

int rfc4173_parse(const char *text, struct iscsi_target *t)
{
	const char *p = text + strlen(PREFIX);
	const char *at;
	int r;

	memset(t, 0, sizeof(*t));
	if (!rfc4173_is_iscsi(text))
		return -EINVAL;
	/* Neither a server nor a target name holds '@': the last one ends the
	 * credentials. */
	at = strrchr(p, '@');
	if (at) {
		r = creds_parse(p, (size_t)(at - p), &t->chap);
		if (r < 0) {
			memset(&t->chap, 0, sizeof(t->chap));
			return r;
		}
		p = at + 1;
	}
	r = fields_parse(p, t);
	if (r < 0)
		memset(t, 0, sizeof(*t));
	return r;
}
