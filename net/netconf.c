/* netconf: write /run/initramfs/net.IFACE.conf and /etc/resolv.conf.
 *
 * Every value written comes from the command line or passed dhcp_str_safe
 * (no spaces, quotes or newlines), so the file is plain key=value and can be
 * read by a shell as well. An iSCSI root-path is written without its CHAP
 * credentials (USER:PASSWORD@ left out), and the file is the owner's only:
 * it stays in /run after switch_root. */
#include "net/netconf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/redact.h"
#include "net/ipconf.h"

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

static void out_str(struct out *o, const char *key, const char *value)
{
	if (value[0] && dhcp_str_safe(value, strlen(value)))
		out_add(o, "%s=%s\n", key, value);
}

static void out_root_path(struct out *o, const char *root_path)
{
	char shown[DHCP_STR_MAX];

	redact_path_strip(root_path, shown, sizeof(shown));
	out_str(o, "ROOT_PATH", shown);
}

int netconf_format(const struct link_info *link, const char *method,
		   const struct dhcp_lease *l, char *buf, size_t size)
{
	struct out o = { buf, 0, size, size == 0 };
	static const char *const dns_keys[DHCP_DNS_MAX] = { "DNS0", "DNS1", "DNS2" };
	const uint8_t *m = link->mac;

	if (size)
		buf[0] = '\0';
	out_add(&o, "IFACE=%s\nMAC=%02x:%02x:%02x:%02x:%02x:%02x\nMETHOD=%s\n", link->name,
		m[0], m[1], m[2], m[3], m[4], m[5], method);
	out_addr(&o, "ADDRESS", l->addr);
	out_addr(&o, "NETMASK", l->netmask);
	if (l->netmask.s_addr)
		out_add(&o, "PREFIX=%d\n", ip_mask_prefix(l->netmask));
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
	if (l->domain[0] && dhcp_str_safe(l->domain, strlen(l->domain)))
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

int netconf_write(const char *dir, const char *resolv, const struct link_info *link,
		  const char *method, const struct dhcp_lease *l)
{
	char text[2048], path[256];
	int len = netconf_format(link, method, l, text, sizeof(text));
	int r;

	if (len < 0)
		return len;
	if (snprintf(path, sizeof(path), "%s/net.%s.conf", dir, link->name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	mkdir(dir, 0755);
	r = file_replace(path, text, (size_t)len, 0600);
	if (r == 0 && l->n_dns)
		r = resolv_write(resolv, l);
	return r;
}
