/* nfsspec: parse NFS root locations and make the kernel's mount options. */
#include "net/nfsspec.h"

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
	out->v4_minor = strstr(out->options, "vers=") ? -1 : 2;
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

int nfs_spec_mount_data(const struct nfs_spec *spec, const char *me,
			char *data, size_t data_size, char *path, size_t path_size)
{
	const char *proto = spec->family == AF_INET6 ? "tcp6" : "tcp";
	char server[INET6_ADDRSTRLEN + 2];
	int len;

	nfs_spec_server_text(spec, false, server, sizeof(server));
	if (spec->v4 && spec->v4_minor >= 0)
		len = snprintf(data, data_size, "vers=4.%d,addr=%s,clientaddr=%s,proto=%s%s%s",
			       spec->v4_minor, server, me, proto, spec->options[0] ? "," : "",
			       spec->options);
	else if (spec->v4)
		len = snprintf(data, data_size, "vers=4,addr=%s,clientaddr=%s,proto=%s%s%s",
			       server, me, proto, spec->options[0] ? "," : "", spec->options);
	else
		len = snprintf(data, data_size, "vers=3,addr=%s,proto=%s,nolock%s%s",
			       server, proto, spec->options[0] ? "," : "", spec->options);
	if (len < 0 || (size_t)len >= data_size)
		return -ENAMETOOLONG;
	return expand_path(spec->path, me, path, path_size);
}
