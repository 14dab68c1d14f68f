/* tang: a Tang server's /adv and /rec/KID over the image's HTTP client. */
#include "clevis/tang.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int tang_url(const char *base, const char *path, char *out, size_t size)
{
	const char *scheme = strstr(base, "://");
	size_t len = strlen(base);
	int n;

	if (scheme && strncmp(base, "http://", 7) != 0)
		return -EINVAL;
	for (const char *p = base; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return -EINVAL;
	while (len && base[len - 1] == '/')
		len--;
	if (len <= (scheme ? 7u : 0u))
		return -EINVAL;
	n = snprintf(out, size, "%s%.*s%s", scheme ? "" : "http://", (int)len, base, path);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* One request to the server, its failure said in s->why. */
static int tang_fetch(struct tang_server *s, const char *path, const char *type,
		      const char *body, char *reply, size_t size)
{
	char url[TANG_URL_MAX];
	struct http_req req = { .url = url, .type = type, .body = body, .reply = reply,
				.reply_size = size };
	int r = tang_url(s->url, path, url, sizeof(url));

	s->why[0] = '\0';
	s->status = 0;
	if (r < 0) {
		snprintf(s->why, sizeof(s->why), "the URL is not http://HOST[:PORT][/PATH]");
		return r;
	}
	r = http_fetch_many(&req, 1, 1, s->timeout_ms);
	s->status = req.status;
	if (r == 1)
		return 0;
	/* tangd answers 404 to a key it does not hold. */
	snprintf(s->why, sizeof(s->why), "%s%s", req.why,
		 req.status == 404 ? " (a key it no longer has?)" : "");
	return req.result < 0 ? req.result : -EIO;
}

int tang_exchange(const char *kid, const char *request, char *reply, size_t size, void *ctx)
{
	static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	struct tang_server *s = ctx;
	char path[300];

	/* A key's thumbprint is base64url: anything else would change the
	 * URL's meaning ('/', '?', '#'). */
	if (!kid[0] || kid[strspn(kid, b64url)] || strlen(kid) > 200) {
		snprintf(s->why, sizeof(s->why), "the binding's key id is not a thumbprint");
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/rec/%s", kid);
	return tang_fetch(s, path, "application/jwk+json", request, reply, size);
}

int tang_adv(struct tang_server *s, char *adv, size_t size)
{
	return tang_fetch(s, "/adv", NULL, NULL, adv, size);
}
