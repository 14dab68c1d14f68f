/* ifstate: write /run/initramfs/net.IFACE.conf and /etc/resolv.conf.
 *
 * Every value written comes from the command line or passed dhcppkt_str_safe
 * (no spaces, quotes or newlines), so the file is plain key=value and can be
 * read by a shell as well. An iSCSI root-path is written without its CHAP
 * credentials (USER:PASSWORD@ left out), and the file is the owner's only:
 * it stays in /run after switch_root. */
#include "net/config/ifstate.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/redact.h"
#include "net/config/ipparam.h"

struct out {
	char *buf;
	size_t len, size;
	bool full;
};

static void out_add(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len)
		o->full = true;
	else
		o->len += (size_t)n;
}

static void out_addr(struct out *o, const char *key, struct in_addr a)
{
	char text[INET_ADDRSTRLEN];

	if (a.s_addr && inet_ntop(AF_INET, &a, text, sizeof(text)))
		out_add(o, "%s=%s\n", key, text);
}

static void out_addr6(struct out *o, const char *key, const struct in6_addr *a)
{
	static const struct in6_addr none;
	char text[INET6_ADDRSTRLEN];

	if (memcmp(a, &none, sizeof(none)) != 0 && inet_ntop(AF_INET6, a, text, sizeof(text)))
		out_add(o, "%s=%s\n", key, text);
}

static void out_str(struct out *o, const char *key, const char *value)
{
	if (value[0] && dhcppkt_str_safe(value, strlen(value)))
		out_add(o, "%s=%s\n", key, value);
}

static void out_root_path(struct out *o, const char *root_path)
{
	char shown[DHCP_STR_MAX];

	redact_path_strip(root_path, shown, sizeof(shown));
	out_str(o, "ROOT_PATH", shown);
}

static void out_head(struct out *o, const struct link_info *link, const char *method)
{
	const uint8_t *m = link->mac;

	if (o->size)
		o->buf[0] = '\0';
	out_add(o, "IFACE=%s\nMAC=%02x:%02x:%02x:%02x:%02x:%02x\nMETHOD=%s\n", link->name,
		m[0], m[1], m[2], m[3], m[4], m[5], method);
}

int ifstate_format6(const struct link_info *link, const struct net6_conf *c, char *buf,
		    size_t size)
{
	struct out o = { buf, 0, size, size == 0 };
	static const char *const dns_keys[DHCP_DNS_MAX] = { "DNS6_0", "DNS6_1", "DNS6_2" };

	out_head(&o, link, c->method);
	out_addr6(&o, "ADDRESS6", &c->addr);
	out_add(&o, "PREFIX6=%d\n", c->prefix);
	out_addr6(&o, "GATEWAY6", &c->gateway);
	out_addr6(&o, "SERVER6", &c->server);
	for (unsigned int i = 0; i < c->n_dns && i < DHCP_DNS_MAX; i++)
		out_addr6(&o, dns_keys[i], &c->dns[i]);
	out_str(&o, "DOMAIN", c->domain);
	/* The URL may name an iSCSI target with its credentials. */
	if (c->boot_url[0]) {
		char shown[DHCP_STR_MAX];

		redact_path_strip(c->boot_url, shown, sizeof(shown));
		out_str(&o, "BOOT_URL", shown);
	}
	return o.full ? -ENOSPC : (int)o.len;
}

int ifstate_format(const struct link_info *link, const char *method,
		   const struct dhcp_lease *l, char *buf, size_t size)
{
	struct out o = { buf, 0, size, size == 0 };
	static const char *const dns_keys[DHCP_DNS_MAX] = { "DNS0", "DNS1", "DNS2" };

	out_head(&o, link, method);
	out_addr(&o, "ADDRESS", l->addr);
	out_addr(&o, "NETMASK", l->netmask);
	if (l->netmask.s_addr)
		out_add(&o, "PREFIX=%d\n", ip_param_mask_prefix(l->netmask));
	out_addr(&o, "BROADCAST", l->broadcast);
	out_addr(&o, "GATEWAY", l->router);
	for (unsigned int i = 0; i < l->n_dns && i < DHCP_DNS_MAX; i++)
		out_addr(&o, dns_keys[i], l->dns[i]);
	if (l->mtu)
		out_add(&o, "MTU=%u\n", l->mtu);
	out_str(&o, "HOSTNAME", l->hostname);
	out_str(&o, "DOMAIN", l->domain);
	out_root_path(&o, l->root_path);
	out_addr(&o, "SERVER_ID", l->server_id);
	out_addr(&o, "NEXT_SERVER", l->siaddr);
	if (l->lease_sec)
		out_add(&o, "LEASE_SECONDS=%u\n", l->lease_sec);
	return o.full ? -ENOSPC : (int)o.len;
}

static int file_replace(const char *path, const char *text, size_t len, mode_t mode)
{
	char tmp[256];
	int fd, r = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

static int resolv_write(const char *path, const struct dhcp_lease *l)
{
	char buf[512];
	struct out o = { buf, 0, sizeof(buf), false };

	buf[0] = '\0';
	out_add(&o, "# written by lifeboat's network setup\n");
	if (l->domain[0] && dhcppkt_str_safe(l->domain, strlen(l->domain)))
		out_add(&o, "search %s\n", l->domain);
	for (unsigned int i = 0; i < l->n_dns && i < DHCP_DNS_MAX; i++)
		out_addr(&o, "nameserver", l->dns[i]);
	if (o.full)
		return -ENOSPC;
	/* out_addr writes KEY=VALUE; resolv.conf wants "nameserver VALUE". */
	for (char *p = strstr(buf, "nameserver="); p; p = strstr(p, "nameserver="))
		p[strlen("nameserver")] = ' ';
	return file_replace(path, buf, o.len, 0644);
}

static int resolv_write6(const char *path, const struct net6_conf *c)
{
	char buf[512];
	struct out o = { buf, 0, sizeof(buf), false };

	buf[0] = '\0';
	out_add(&o, "# written by lifeboat's network setup\n");
	if (c->domain[0] && dhcppkt_str_safe(c->domain, strlen(c->domain)))
		out_add(&o, "search %s\n", c->domain);
	for (unsigned int i = 0; i < c->n_dns && i < DHCP_DNS_MAX; i++) {
		char text[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, &c->dns[i], text, sizeof(text));
		out_add(&o, "nameserver %s\n", text);
	}
	return o.full ? -ENOSPC : file_replace(path, buf, o.len, 0644);
}

/* dir/net.IFACE.conf, the owner's only. */
static int conf_write(const char *dir, const struct link_info *link, const char *text, int len)
{
	char path[256];

	if (len < 0)
		return len;
	if (snprintf(path, sizeof(path), "%s/net.%s.conf", dir, link->name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	mkdir(dir, 0755);
	return file_replace(path, text, (size_t)len, 0600);
}

int ifstate_write6(const char *dir, const char *resolv, const struct link_info *link,
		   const struct net6_conf *c)
{
	char text[2048];
	int r = conf_write(dir, link, text, ifstate_format6(link, c, text, sizeof(text)));

	if (r == 0 && c->n_dns)
		r = resolv_write6(resolv, c);
	return r;
}

int ifstate_write(const char *dir, const char *resolv, const struct link_info *link,
		  const char *method, const struct dhcp_lease *l)
{
	char text[2048];
	int r = conf_write(dir, link, text, ifstate_format(link, method, l, text, sizeof(text)));

	if (r == 0 && l->n_dns)
		r = resolv_write(resolv, l);
	return r;
}
