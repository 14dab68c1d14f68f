/* nethost: the running machine's network as dracut's words, for kdump's
 * capture kernel. Everything is read from ROOT/proc and ROOT/sys, so a
 * test gives a tree of its own. */
#include "gen/host/nethost.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"

#define RTF_UP_FLAG 0x0001
#define RTF_REJECT_FLAG 0x0200
/* A bridge over a VLAN over a bond over NICs is 4 deep; more is a loop. */
#define DEPTH_MAX 8
#define PROC_FILE_MAX (1 << 20)

/* One /proc/net/route line: Iface Destination Gateway Flags RefCnt Use
 * Metric Mask ...; addresses are the raw 32-bit values in hex. */
static int route4_line(const char *line, char iface[IF_NAMESIZE], struct in_addr *gw)
{
	char name[IF_NAMESIZE + 1];
	unsigned int dst, via, flags, mask;
	int refcnt, use, metric;

	if (sscanf(line, "%16s %x %x %x %d %d %d %x", name, &dst, &via, &flags, &refcnt, &use,
		   &metric, &mask) != 8 || strlen(name) >= IF_NAMESIZE)
		return -EINVAL;
	if (dst || mask || !(flags & RTF_UP_FLAG) || (flags & RTF_REJECT_FLAG))
		return -ENOENT;
	snprintf(iface, IF_NAMESIZE, "%s", name);
	gw->s_addr = via;
	return 0;
}

int nethost_route4_parse(const char *text, char iface[IF_NAMESIZE], struct in_addr *gw)
{
	const char *line = strchr(text, '\n');   /* past the heading */

	while (line && *++line) {
		int r = route4_line(line, iface, gw);

		if (r != -ENOENT)
			return r;
		line = strchr(line, '\n');
	}
	return -ENOENT;
}

static bool hex_bytes(const char *hex, unsigned char *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return false;
		out[i] = (unsigned char)b;
	}
	return true;
}

/* One /proc/net/ipv6_route line: dest plen src plen nexthop metric refcnt
 * use flags iface, the addresses as 32 hex digits. */
static int route6_line(const char *line, char iface[IF_NAMESIZE], struct in6_addr *gw)
{
	char dst[33], src[33], via[33], name[IF_NAMESIZE + 1];
	unsigned int plen, splen, metric, refcnt, use, flags;
	unsigned char d[16];

	if (sscanf(line, "%32s %x %32s %x %32s %x %x %x %x %16s", dst, &plen, src, &splen, via,
		   &metric, &refcnt, &use, &flags, name) != 10 || strlen(dst) != 32 ||
	    strlen(via) != 32 || strlen(name) >= IF_NAMESIZE || !hex_bytes(dst, d, 16) ||
	    !hex_bytes(via, gw->s6_addr, 16))
		return -EINVAL;
	if (plen || memcmp(d, &in6addr_any, 16) != 0 || !(flags & RTF_UP_FLAG) ||
	    (flags & RTF_REJECT_FLAG) || strcmp(name, "lo") == 0)
		return -ENOENT;
	snprintf(iface, IF_NAMESIZE, "%s", name);
	return 0;
}

int nethost_route6_parse(const char *text, char iface[IF_NAMESIZE], struct in6_addr *gw)
{
	const char *line = text;

	while (line && *line) {
		int r = route6_line(line, iface, gw);

		if (r != -ENOENT)
			return r;
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return -ENOENT;
}

int nethost_vlan_parse(const char *text, unsigned int *vid, char parent[IF_NAMESIZE])
{
	const char *v = strstr(text, "VID: "), *d = strstr(text, "\nDevice: ");
	char name[IF_NAMESIZE + 1];

	if (!v || !d || sscanf(v + 5, "%u", vid) != 1 || *vid < 1 || *vid > 4094 ||
	    sscanf(d + 9, "%16s", name) != 1 || strlen(name) >= IF_NAMESIZE)
		return -EINVAL;
	snprintf(parent, IF_NAMESIZE, "%s", name);
	return 0;
}

static int proc_parse(const char *root, const char *name, struct nethost_facts *f)
{
	char path[512], *text = NULL;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "%s/proc/net/%s", root, name);
	r = file_read_all(path, PROC_FILE_MAX, &text, &len);
	if (r == 0)
		r = strcmp(name, "route") == 0 ? nethost_route4_parse(text, f->iface, &f->gw4) :
						nethost_route6_parse(text, f->iface, &f->gw6);
	free(text);
	return r;
}

int nethost_default_route(const char *root, struct nethost_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->root = root;
	if (proc_parse(root, "route", f) == 0) {
		f->family = AF_INET;
		return 0;
	}
	if (proc_parse(root, "ipv6_route", f) == 0) {
		f->family = AF_INET6;
		return 0;
	}
	return -ENOENT;
}

static unsigned int mask6_prefix(const struct in6_addr *m)
{
	unsigned int n = 0;

	for (int i = 0; i < 16; i++)
		n += (unsigned int)__builtin_popcount(m->s6_addr[i]);
	return n;
}

int nethost_addr_read(const char *iface, int family, struct nethost_addr *a)
{
	struct ifaddrs *list, *i;
	int r = -ENOENT;

	memset(a, 0, sizeof(*a));
	if (getifaddrs(&list) < 0)
		return -errno;
	for (i = list; i && r < 0; i = i->ifa_next) {
		if (!i->ifa_addr || !i->ifa_netmask || i->ifa_addr->sa_family != family ||
		    strcmp(i->ifa_name, iface) != 0)
			continue;
		if (family == AF_INET) {
			a->addr4 = ((const struct sockaddr_in *)(const void *)i->ifa_addr)->sin_addr;
			a->mask4 = ((const struct sockaddr_in *)(const void *)i->ifa_netmask)->sin_addr;
		} else {
			a->addr6 = ((const struct sockaddr_in6 *)(const void *)i->ifa_addr)->sin6_addr;
			if (IN6_IS_ADDR_LINKLOCAL(&a->addr6))
				continue;
			a->prefix6 = mask6_prefix(&((const struct sockaddr_in6 *)
						    (const void *)i->ifa_netmask)->sin6_addr);
		}
		a->family = family;
		r = 0;
	}
	freeifaddrs(list);
	return r;
}

/* The words as they are made, and what went wrong. */
struct words {
	const struct nethost_facts *f;
	char *out;
	size_t size, len;
	char *why;
	size_t why_size;
};

static int words_add(struct words *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int words_add(struct words *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->len && w->len + 1 < w->size)
		w->out[w->len++] = ' ';
	va_start(ap, fmt);
	n = w->len < w->size ? vsnprintf(w->out + w->len, w->size - w->len, fmt, ap) : -1;
	va_end(ap);
	if (n < 0 || (size_t)n >= w->size - w->len)
		return -ENAMETOOLONG;
	w->len += (size_t)n;
	return 0;
}

/* ROOT/sys/class/net/IFACE/ATTR's first line ("" when it cannot be read). */
static void sys_attr(const struct words *w, const char *iface, const char *attr, char *buf,
		     size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/%s", w->f->root, iface, attr);
	if (file_read_line(path, buf, size) < 0)
		buf[0] = '\0';
}

static bool sys_has(const struct words *w, const char *iface, const char *attr)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/%s", w->f->root, iface, attr);
	return access(path, F_OK) == 0;
}

static int iface_add(struct words *w, const char *name, int depth);

/* A space-separated list of ports (bonding/slaves) made first, then
 * written comma-separated into list. */
static int ports_add(struct words *w, char *names, int depth, char *list, size_t size)
{
	size_t pos = 0;
	char *save = NULL;

	list[0] = '\0';
	for (char *p = strtok_r(names, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		int r = iface_add(w, p, depth + 1);

		if (r < 0)
			return r;
		if (strlen(p) + 2 > size - pos)
			return -ENAMETOOLONG;
		pos += (size_t)snprintf(list + pos, size - pos, "%s%s", pos ? "," : "", p);
	}
	return 0;
}

static int bond_add(struct words *w, const char *name, int depth)
{
	char slaves[256], list[256], mode[64], miimon[16];
	int r;

	sys_attr(w, name, "bonding/slaves", slaves, sizeof(slaves));
	sys_attr(w, name, "bonding/mode", mode, sizeof(mode));
	sys_attr(w, name, "bonding/miimon", miimon, sizeof(miimon));
	mode[strcspn(mode, " ")] = '\0';    /* "active-backup 1" */
	r = ports_add(w, slaves, depth, list, sizeof(list));
	if (r == 0 && !list[0]) {
		snprintf(w->why, w->why_size, "the bond %s has no slaves", name);
		return -EINVAL;
	}
	if (r < 0)
		return r;
	/* miimon=0 is the driver's default: no link monitoring. */
	if (!miimon[0] || strcmp(miimon, "0") == 0)
		return words_add(w, "bond=%s:%s:mode=%s", name, list, mode[0] ? mode : "balance-rr");
	return words_add(w, "bond=%s:%s:mode=%s,miimon=%s", name, list,
			 mode[0] ? mode : "balance-rr", miimon);
}

static int bridge_add(struct words *w, const char *name, int depth)
{
	char path[512], ports[256] = "", list[256];
	struct dirent **ents = NULL;
	size_t pos = 0;
	int n, r;

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/brif", w->f->root, name);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && strlen(ents[i]->d_name) + 2 < sizeof(ports) - pos)
			pos += (size_t)snprintf(ports + pos, sizeof(ports) - pos, "%s%s",
						pos ? " " : "", ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	r = ports_add(w, ports, depth, list, sizeof(list));
	return r < 0 ? r : words_add(w, "bridge=%s%s%s", name, list[0] ? ":" : "", list);
}

/* lifeboat (and dracut) read the VLAN id from the end of its name. */
static bool vlan_name_says(const char *name, const char *parent, unsigned int vid)
{
	size_t pl = strlen(parent);
	const char *digits = strncmp(name, "vlan", 4) == 0 ? name + 4 :
			     strncmp(name, parent, pl) == 0 && name[pl] == '.' ? name + pl + 1 : NULL;
	if (!digits || !*digits || strspn(digits, "0123456789") != strlen(digits))
		return false;
	return strtoul(digits, NULL, 10) == vid;
}

static int vlan_add(struct words *w, const char *name, const char *text, int depth)
{
	char parent[IF_NAMESIZE];
	unsigned int vid;
	int r = nethost_vlan_parse(text, &vid, parent);

	if (r < 0) {
		snprintf(w->why, w->why_size, "/proc/net/vlan/%s names no VLAN id or parent", name);
		return r;
	}
	if (!vlan_name_says(name, parent, vid)) {
		snprintf(w->why, w->why_size, "the VLAN %s (id %u on %s) has a name that does not "
			 "end in its id, which vlan= needs: name it vlan%u or %s.%u", name, vid,
			 parent, vid, parent, vid);
		return -EINVAL;
	}
	r = iface_add(w, parent, depth + 1);
	return r < 0 ? r : words_add(w, "vlan=%s:%s", name, parent);
}

/* A NIC: renamed by ifname= when the kernel would not give its name. A
 * bond's slave shows the bond's address; its own is perm_hwaddr. */
static int nic_add(struct words *w, const char *name)
{
	char mac[32];

	if (strncmp(name, "eth", 3) == 0 && name[3] && strspn(name + 3, "0123456789") == strlen(name + 3))
		return 0;
	sys_attr(w, name, "bonding_slave/perm_hwaddr", mac, sizeof(mac));
	if (!mac[0])
		sys_attr(w, name, "address", mac, sizeof(mac));
	if (strlen(mac) != 17) {
		snprintf(w->why, w->why_size, "the interface %s has no hardware address to name it by "
			 "(ifname=)", name);
		return -EINVAL;
	}
	return words_add(w, "ifname=%s:%s", name, mac);
}

/* What the interface stands on first, then its own word. */
static int iface_add(struct words *w, const char *name, int depth)
{
	char path[512], *vlan = NULL;
	size_t len;

	if (depth > DEPTH_MAX) {
		snprintf(w->why, w->why_size, "the interfaces under %s nest too deep", w->f->iface);
		return -ELOOP;
	}
	if (sys_has(w, name, "bonding"))
		return bond_add(w, name, depth);
	if (sys_has(w, name, "bridge"))
		return bridge_add(w, name, depth);
	snprintf(path, sizeof(path), "%s/proc/net/vlan/%s", w->f->root, name);
	if (file_read_all(path, PROC_FILE_MAX, &vlan, &len) == 0) {
		int r = vlan_add(w, name, vlan, depth);

		free(vlan);
		return r;
	}
	return nic_add(w, name);
}

static int ip_add(struct words *w, const struct nethost_addr *a)
{
	char addr[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN] = "";

	if (a->family == AF_INET) {
		char mask[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &a->addr4, addr, sizeof(addr));
		inet_ntop(AF_INET, &a->mask4, mask, sizeof(mask));
		if (w->f->family == AF_INET && w->f->gw4.s_addr)
			inet_ntop(AF_INET, &w->f->gw4, gw, sizeof(gw));
		return words_add(w, "ip=%s::%s:%s::%s:none", addr, gw, mask, w->f->iface);
	}
	if (a->family != AF_INET6) {
		snprintf(w->why, w->why_size, "%s has no address", w->f->iface);
		return -EINVAL;
	}
	inet_ntop(AF_INET6, &a->addr6, addr, sizeof(addr));
	if (w->f->family == AF_INET6 && !IN6_IS_ADDR_UNSPECIFIED(&w->f->gw6))
		inet_ntop(AF_INET6, &w->f->gw6, gw, sizeof(gw));
	return words_add(w, "ip=[%s]::%s%s%s:%u::%s:none", addr, gw[0] ? "[" : "", gw,
			 gw[0] ? "]" : "", a->prefix6, w->f->iface);
}

int nethost_words(const struct nethost_facts *f, const struct nethost_addr *a,
		  char *out, size_t size, char *why, size_t why_size)
{
	struct words w = { .f = f, .out = out, .size = size, .why = why, .why_size = why_size };
	int r;

	if (size == 0)
		return -ENAMETOOLONG;
	out[0] = '\0';
	why[0] = '\0';
	r = iface_add(&w, f->iface, 0);
	if (r == 0)
		r = ip_add(&w, a);
	if (r == -ENAMETOOLONG)
		snprintf(why, why_size, "the words for %s are longer than %zu bytes", f->iface, size - 1);
	return r;
}
