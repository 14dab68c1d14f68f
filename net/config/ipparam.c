/* ipparam: parse ip= (Documentation/admin-guide/nfs/nfsroot.rst, dracut.cmdline(7)). */
#include "net/config/ipparam.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS_MAX 16
#define VALUE_MAX 512

struct method_name {
	const char *name;
	enum ip_method method;
};

/* DHCPv4 answers what the kernel's BOOTP and RARP would, so those select it
 * too. */
static const struct method_name methods[] = {
	{ "dhcp",  IP_METHOD_DHCP },
	{ "on",    IP_METHOD_DHCP },
	{ "any",   IP_METHOD_DHCP },
	{ "both",  IP_METHOD_DHCP },
	{ "bootp", IP_METHOD_DHCP },
	{ "rarp",  IP_METHOD_DHCP },
	{ "dhcp6", IP_METHOD_DHCP6 },
	{ "auto6", IP_METHOD_AUTO6 },
	{ "either6", IP_METHOD_EITHER6 },
	{ "off",   IP_METHOD_OFF },
	{ "none",  IP_METHOD_OFF },
};

/* -ENOENT: not a method word at all. */
static int method_find(const char *word, enum ip_method *out)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(word, methods[i].name) == 0) {
			*out = methods[i].method;
			return 0;
		}
	if (strcmp(word, "link6") == 0 || strcmp(word, "ibft") == 0 ||
	    strcmp(word, "single-dhcp") == 0)
		return -EOPNOTSUPP;
	return -ENOENT;
}

/* Split at ':' in place; empty fields are kept, and a field in brackets
 * (an IPv6 address) keeps its colons. -EINVAL for a bracket not closed
 * or followed by something else than ':'. */
static int split_fields(char *s, char **fields)
{
	int n = 0;

	fields[n++] = s;
	for (; *s && n < FIELDS_MAX; s++) {
		if (*s == '[' && s == fields[n - 1]) {
			s = strchr(s, ']');
			if (!s || (s[1] && s[1] != ':'))
				return -EINVAL;
		} else if (*s == ':') {
			*s = '\0';
			fields[n++] = s + 1;
		}
	}
	return n;
}

/* [ADDR] or empty; the brackets are required (as dracut writes it). */
static int parse_addr6(char *s, struct in6_addr *out)
{
	size_t len = strlen(s);

	if (!len)
		return 0;
	if (len < 3 || s[0] != '[' || s[len - 1] != ']')
		return -EINVAL;
	s[len - 1] = '\0';
	return inet_pton(AF_INET6, s + 1, out) == 1 ? 0 : -EINVAL;
}

static int parse_addr(const char *s, struct in_addr *out)
{
	if (!*s)
		return 0;
	if (inet_pton(AF_INET, s, out) != 1)
		return -EINVAL;
	return 0;
}

static int parse_mtu(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!*s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < 68 || v > 65535)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int copy_str(char *dst, size_t size, const char *src)
{
	if (strlen(src) >= size)
		return -EINVAL;
	strcpy(dst, src);
	return 0;
}

/* The classful mask the kernel falls back to when none is given. */
static struct in_addr class_mask(struct in_addr addr)
{
	uint32_t a = ntohl(addr.s_addr);
	struct in_addr m;

	if ((a >> 31) == 0)
		m.s_addr = htonl(0xff000000u);
	else if ((a >> 30) == 2)
		m.s_addr = htonl(0xffff0000u);
	else
		m.s_addr = htonl(0xffffff00u);
	return m;
}

int ip_param_mask_prefix(struct in_addr mask)
{
	uint32_t m = ntohl(mask.s_addr);
	int n = 0;

	while (n < 32 && (m & (0x80000000u >> n)))
		n++;
	if (n < 32 && (m << n) != 0)
		return -EINVAL;
	return n;
}

/* Fields 8 and after: DNS servers and NTP (kernel), or MTU and MAC (dracut). */
static int parse_tail(char **f, size_t n, struct ip_param *out)
{
	if (n <= 7)
		return 0;
	if (all_digits(f[7]))
		return parse_mtu(f[7], &out->mtu);   /* the MAC that may follow is not checked */
	for (size_t i = 0; i < IPPARAM_DNS_MAX && 7 + i < n; i++)
		if (parse_addr(f[7 + i], &out->dns[i]) < 0)
			return -EINVAL;
	return 0;
}

/* [ADDR6]:[SERVER6]:[GW6]:PREFIX:HOST:IFACE:AUTOCONF[:[DNS0][:[DNS1]]] */
static int parse_v6_form(char **f, size_t n, struct ip_param *out)
{
	char *end;
	long prefix = 64;

	if (parse_addr6(f[0], &out->addr6) < 0 || (n > 1 && parse_addr6(f[1], &out->server6) < 0) ||
	    (n > 2 && parse_addr6(f[2], &out->gateway6) < 0))
		return -EINVAL;
	if (n > 3 && f[3][0]) {
		errno = 0;
		prefix = strtol(f[3], &end, 10);
		if (errno || *end || prefix < 1 || prefix > 128)
			return -EINVAL;
	}
	out->prefix6 = (int)prefix;
	if ((n > 4 && copy_str(out->hostname, sizeof(out->hostname), f[4]) < 0) ||
	    (n > 5 && copy_str(out->dev, sizeof(out->dev), f[5]) < 0))
		return -EINVAL;
	out->method = IP_METHOD_STATIC6;
	if (n > 6 && f[6][0] && strcmp(f[6], "none") != 0 && strcmp(f[6], "off") != 0) {
		int r = method_find(f[6], &out->method);

		if (r < 0)
			return r == -ENOENT ? -EINVAL : r;
		if (!IP_METHOD_IS_V6(out->method))
			return -EINVAL;
	}
	if (n > 7 && all_digits(f[7]))
		return parse_mtu(f[7], &out->mtu);   /* the MAC that may follow is not checked */
	for (size_t i = 0; i < IPPARAM_DNS_MAX && 7 + i < n; i++)
		if (parse_addr6(f[7 + i], &out->dns6[i]) < 0)
			return -EINVAL;
	return 0;
}

static int parse_long_form(char **f, size_t n, struct ip_param *out)
{
	if (parse_addr(f[0], &out->addr) < 0 || parse_addr(f[1], &out->server) < 0 ||
	    (n > 2 && parse_addr(f[2], &out->gateway) < 0) ||
	    (n > 3 && parse_addr(f[3], &out->netmask) < 0))
		return -EINVAL;
	if ((n > 4 && copy_str(out->hostname, sizeof(out->hostname), f[4]) < 0) ||
	    (n > 5 && copy_str(out->dev, sizeof(out->dev), f[5]) < 0))
		return -EINVAL;
	/* An address with no autoconf word is static, as in the kernel, which
	 * autoconfigures only what the command line leaves out. */
	out->method = out->addr.s_addr ? IP_METHOD_STATIC : IP_METHOD_DHCP;
	if (n > 6 && f[6][0]) {
		int r = method_find(f[6], &out->method);
		if (r < 0)
			return r == -ENOENT ? -EINVAL : r;
		if (out->method == IP_METHOD_OFF && out->addr.s_addr)
			out->method = IP_METHOD_STATIC;
	}
	if (out->method == IP_METHOD_STATIC && !out->netmask.s_addr)
		out->netmask = class_mask(out->addr);
	if (out->netmask.s_addr && ip_param_mask_prefix(out->netmask) < 0)
		return -EINVAL;
	return parse_tail(f, n, out);
}

/* IFACE:METHOD[:MTU[:MAC]]: the second field is a method word. */
static int parse_iface_form(char **f, size_t n, struct ip_param *out)
{
	if (copy_str(out->dev, sizeof(out->dev), f[0]) < 0 || !f[0][0])
		return -EINVAL;
	return n > 2 ? parse_mtu(f[2], &out->mtu) : 0;
}

int ip_param_parse(const char *value, struct ip_param *out)
{
	char buf[VALUE_MAX];
	char *f[FIELDS_MAX];
	int n;
	int r;

	memset(out, 0, sizeof(*out));
	if (!value || strlen(value) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, value);
	n = split_fields(buf, f);
	if (n < 0)
		return n;
	if (f[0][0] == '[')
		return parse_v6_form(f, (size_t)n, out);
	if (n == 1) {
		r = method_find(f[0], &out->method);
		return r == -ENOENT ? -EINVAL : r;
	}
	r = method_find(f[1], &out->method);
	if (r == -EOPNOTSUPP)
		return r;
	if (r == 0 && inet_pton(AF_INET, f[0], &out->addr) != 1)
		return parse_iface_form(f, (size_t)n, out);
	out->method = IP_METHOD_UNSET;
	out->addr.s_addr = 0;
	return parse_long_form(f, (size_t)n, out);
}
