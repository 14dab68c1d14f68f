/* live_url: root=live:http://HOST[:PORT]/PATH/NAME[?QUERY], HOST an IPv6
 * address in brackets as RFC 3986 writes it. */
#include "net/live/live_url.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool live_url_is_live(const char *root)
{
	return strncmp(root, LIVE_URL_PREFIX, strlen(LIVE_URL_PREFIX)) == 0;
}

/* The authority (host and port) that starts at s: its length, or -EINVAL. */
static int authority_len(const char *s)
{
	size_t n = strcspn(s, "/?");

	if (n == 0 || memchr(s, '@', n))
		return -EINVAL;   /* no host; credentials do not belong on the command line */
	if (s[0] == '[') {
		const char *end = memchr(s, ']', n);

		if (!end || end == s + 1 || (end + 1 != s + n && end[1] != ':'))
			return -EINVAL;
	}
	return (int)n;
}

static bool clean_text(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || *s == '#')
			return false;
	return true;
}

/* The file name: the path's last part, before any ?query. */
static int name_of(const char *path, size_t path_len, struct live_url *out)
{
	const char *slash = path;
	size_t n;

	for (const char *p = path; p < path + path_len; p++)
		if (*p == '/')
			slash = p;
	n = path_len - (size_t)(slash + 1 - path);
	if (n == 0 || n >= sizeof(out->name))
		return -EINVAL;
	memcpy(out->name, slash + 1, n);
	out->name[n] = '\0';
	return strcmp(out->name, ".") && strcmp(out->name, "..") ? 0 : -EINVAL;
}

int live_url_parse(const char *root, struct live_url *out)
{
	const char *url = root + strlen(LIVE_URL_PREFIX), *rest, *query;
	size_t scheme;
	int host, n;

	memset(out, 0, sizeof(*out));
	if (!live_url_is_live(root))
		return -EINVAL;
	out->https = strncasecmp(url, "https://", 8) == 0;
	scheme = out->https ? 8 : strncasecmp(url, "http://", 7) == 0 ? 7 : 0;
	if (!scheme)
		return strstr(url, "://") ? -EPROTONOSUPPORT : -EINVAL;
	if (!clean_text(url) || strlen(url) >= sizeof(out->url))
		return -EINVAL;
	host = authority_len(url + scheme);
	if (host < 0)
		return host;
	rest = url + scheme + host;
	query = rest + strcspn(rest, "?");
	if (*rest != '/' || name_of(rest, (size_t)(query - rest), out) < 0)
		return -EINVAL;
	snprintf(out->url, sizeof(out->url), "%s", url);
	snprintf(out->shown, sizeof(out->shown), "%.*s%s", (int)(query - url), url, *query ? "?..." : "");
	snprintf(out->sum_shown, sizeof(out->sum_shown), "%.*s.sha256%s", (int)(query - url), url,
		 *query ? "?..." : "");
	n = snprintf(out->sum_url, sizeof(out->sum_url), "%.*s.sha256%s", (int)(query - url), url, query);
	return n > 0 && (size_t)n < sizeof(out->sum_url) ? 0 : -EINVAL;
}
