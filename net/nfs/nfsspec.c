/* nfsspec: parse NFS root locations and make the kernel's mount options. */
#include "net/nfs/nfsspec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *skip_prefix(const char *text, struct nfs_spec *out)
{
	if (strncmp(text, "nfs4:", 5) == 0) {
		out->v4 = true;
		return text + 5;
	}
	if (strncmp(text, "nfs:", 4) == 0)
		return text + 4;
	return text;
}

static int copy_n(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		return -EINVAL;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/* SERVER before the path: an IPv4 address or [IPv6]; a name needs DNS. */
static int parse_server(const char *s, size_t n, struct nfs_spec *out)
{
	char buf[INET6_ADDRSTRLEN];

	if (n == 0)
		return 0;
	if (s[0] == '[') {
		if (n < 3 || s[n - 1] != ']' || n - 2 >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, s + 1, n - 2);
		buf[n - 2] = '\0';
		out->family = AF_INET6;
		return inet_pton(AF_INET6, buf, &out->server6) == 1 ? 0 : -EINVAL;
	}
	if (n >= sizeof(buf))
		return -EOPNOTSUPP;
	memcpy(buf, s, n);
	buf[n] = '\0';
	out->family = AF_INET;
	return inet_pton(AF_INET, buf, &out->server) == 1 ? 0 : -EOPNOTSUPP;
}

/* nfs://SERVER/PATH (RFC 2224; RFC 5970 names URLs for DHCPv6's boot file):
 * the path is what follows the server's slash, kept with its slash. */
static int parse_url(const char *text, struct nfs_spec *out)
{
	const char *host = strstr(text, "://") + 3;
	const char *slash = strchr(host, '/');
	int r;

	if (strncmp(text, "nfs4", 4) == 0)
		out->v4 = true;
	if (!slash || slash == host)
		return -EINVAL;
	r = parse_server(host, (size_t)(slash - host), out);
	if (r == 0)
		r = copy_n(out->path, sizeof(out->path), slash, strlen(slash));
	out->v4_minor = 2;
	return r;
}

/* Whether the user's options hold word, alone or as word=... or word.N
 * (v4.1): such an option replaces the default it stands for. */
static bool options_have(const char *opts, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, word, n) == 0 && (p[n] == '\0' || p[n] == ',' || p[n] == '=' ||
						 p[n] == '.'))
			return true;
	return false;
}

/* A default option, and the user's words that replace it (NULL-ended). */
struct nfs_default {
	const char *words[6];
};

enum { OPT_VERS, OPT_ADDR, OPT_CLIENTADDR, OPT_PROTO, OPT_NOLOCK, OPTS_N };

static const struct nfs_default nfs_defaults[OPTS_N] = {
	[OPT_VERS] = { { "vers", "nfsvers", "v2", "v3", "v4", NULL } },
	[OPT_ADDR] = { { "addr", NULL } },
	[OPT_CLIENTADDR] = { { "clientaddr", NULL } },
	[OPT_PROTO] = { { "proto", "tcp", "udp", "rdma", NULL } },
	[OPT_NOLOCK] = { { "lock", "nolock", NULL } },
};

static bool default_replaced(const char *opts, int which)
{
	for (const char *const *w = nfs_defaults[which].words; *w; w++)
		if (options_have(opts, *w))
			return true;
	return false;
}

/* vers=4, vers=4.1, nfsvers=4.2 among the options make it an NFSv4 mount. */
static bool options_ask_v4(const char *opts)
{
	static const char *const keys[] = { "vers=4", "nfsvers=4" };

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strncmp(p, keys[i], strlen(keys[i])) == 0)
				return true;
	return false;
}

static int parse_location(const char *text, const char *opt_seps, struct nfs_spec *out)
{
	const char *slash, *end;

	memset(out, 0, sizeof(*out));
	if (!text)
		return -EINVAL;
	if (strncmp(text, "nfs://", 6) == 0 || strncmp(text, "nfs4://", 7) == 0)
		return parse_url(text, out);
	text = skip_prefix(text, out);
	slash = strchr(text, '/');
	if (!slash)
		return -EINVAL;
	if (slash != text) {
		if (slash[-1] != ':')
			return -EINVAL;
		int r = parse_server(text, (size_t)(slash - 1 - text), out);
		if (r < 0)
			return r;
	}
	end = slash + strcspn(slash, opt_seps);
	if (copy_n(out->path, sizeof(out->path), slash, (size_t)(end - slash)) < 0)
		return -EINVAL;
	if (*end && copy_n(out->options, sizeof(out->options), end + 1, strlen(end + 1)) < 0)
		return -EINVAL;
	if (options_ask_v4(out->options))
		out->v4 = true;
	out->v4_minor = default_replaced(out->options, OPT_VERS) ? -1 : 2;
	return 0;
}

int nfs_spec_parse(const char *text, struct nfs_spec *out)
{
	return parse_location(text, ":,", out);
}

int nfs_spec_parse_nfsroot(const char *text, struct nfs_spec *out)
{
	return parse_location(text, ",", out);
}

bool nfs_spec_is_nfs_root(const char *root)
{
	const char *colon_slash = strstr(root, ":/");

	if (strncmp(root, "nfs:", 4) == 0 || strncmp(root, "nfs4:", 5) == 0)
		return true;   /* nfs://, nfs4:// too */
	/* dracut's SERVER:/PATH; MAJ:MIN and /dev paths have no ":/", and a
	 * LABEL=a:/b is a label. */
	return root[0] != '/' && colon_slash && colon_slash != root &&
	       !memchr(root, '=', (size_t)(colon_slash - root));
}

/* Copy path, replacing each %s by the client address (the kernel's nfsroot). */
static int expand_path(const char *path, const char *client, char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = path; *p; p++) {
		const char *add = p;
		size_t len = 1;

		if (p[0] == '%' && p[1] == 's') {
			add = client;
			len = strlen(client);
			p++;
		}
		if (n + len >= size)
			return -ENAMETOOLONG;
		memcpy(out + n, add, len);
		n += len;
	}
	out[n] = '\0';
	return 0;
}

void nfs_spec_server_text(const struct nfs_spec *spec, bool brackets, char *out, size_t size)
{
	char text[INET6_ADDRSTRLEN] = "";

	if (spec->family == AF_INET6)
		inet_ntop(AF_INET6, &spec->server6, text, sizeof(text));
	else if (spec->family == AF_INET)
		inet_ntop(AF_INET, &spec->server, text, sizeof(text));
	snprintf(out, size, brackets && spec->family == AF_INET6 ? "[%s]" : "%s", text);
}

/* Append ",text" (no comma first) to data at *len; false when it is full. */
static bool data_add(char *data, size_t size, size_t *len, const char *text)
{
	int n = snprintf(data + *len, size - *len, "%s%s", *len ? "," : "", text);

	if (n < 0 || (size_t)n >= size - *len)
		return false;
	*len += (size_t)n;
	return true;
}

int nfs_spec_mount_data(const struct nfs_spec *spec, const char *me,
			char *data, size_t data_size, char *path, size_t path_size)
{
	char server[INET6_ADDRSTRLEN + 2], text[OPTS_N][INET6_ADDRSTRLEN + 16];
	size_t len = 0;
	bool ok = data_size > 0;

	nfs_spec_server_text(spec, false, server, sizeof(server));
	if (spec->v4 && spec->v4_minor >= 0)
		snprintf(text[OPT_VERS], sizeof(text[0]), "vers=4.%d", spec->v4_minor);
	else
		snprintf(text[OPT_VERS], sizeof(text[0]), "vers=%d", spec->v4 ? 4 : 3);
	snprintf(text[OPT_ADDR], sizeof(text[0]), "addr=%s", server);
	/* NFSv4 callbacks come to clientaddr; v3 has no statd here, so no locks. */
	snprintf(text[OPT_CLIENTADDR], sizeof(text[0]), "%s%s", spec->v4 ? "clientaddr=" : "",
		 spec->v4 ? me : "");
	snprintf(text[OPT_PROTO], sizeof(text[0]), "proto=%s",
		 spec->family == AF_INET6 ? "tcp6" : "tcp");
	snprintf(text[OPT_NOLOCK], sizeof(text[0]), "%s", spec->v4 ? "" : "nolock");
	if (ok)
		data[0] = '\0';
	for (int i = 0; i < OPTS_N && ok; i++)
		if (text[i][0] && !default_replaced(spec->options, i))
			ok = data_add(data, data_size, &len, text[i]);
	if (ok && spec->options[0])
		ok = data_add(data, data_size, &len, spec->options);
	if (!ok)
		return -ENAMETOOLONG;
	return expand_path(spec->path, me, path, path_size);
}
