/* netreport: interfaces, addresses and routes for rdsosreport.txt. */
#include "rescue/netreport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"
#include "net/link/link.h"

bool netreport_wanted(void)
{
	struct if_nameindex *ifs = if_nameindex();
	bool wanted = false;

	for (struct if_nameindex *i = ifs; i && i->if_index; i++)
		wanted = wanted || strcmp(i->if_name, "lo") != 0;
	if (ifs)
		if_freenameindex(ifs);
	return wanted;
}

static void attr(const char *ifname, const char *name, char *buf, size_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, name);
	if (file_read_line(path, buf, size) < 0)
		snprintf(buf, size, "?");
}

/* The master's name: the last part of the master link's target. */
static void master_of(const char *ifname, char *buf, size_t size)
{
	char path[96], target[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/master", ifname);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s", n > 0 && strrchr(target, '/') ? strrchr(target, '/') + 1 : "-");
}

static int prefix_of(const struct sockaddr *mask)
{
	const uint8_t *b = mask->sa_family == AF_INET ?
		(const uint8_t *)&((const struct sockaddr_in *)(const void *)mask)->sin_addr :
		((const struct sockaddr_in6 *)(const void *)mask)->sin6_addr.s6_addr;
	int bytes = mask->sa_family == AF_INET ? 4 : 16, n = 0;

	for (int i = 0; i < bytes; i++)
		n += __builtin_popcount(b[i]);
	return n;
}

static void write_addresses(FILE *out, const struct ifaddrs *list, const char *ifname)
{
	for (const struct ifaddrs *a = list; a; a = a->ifa_next) {
		char host[NI_MAXHOST];
		int family = a->ifa_addr ? a->ifa_addr->sa_family : AF_UNSPEC;

		if (strcmp(a->ifa_name, ifname) != 0 || (family != AF_INET && family != AF_INET6))
			continue;
		if (getnameinfo(a->ifa_addr, family == AF_INET ? sizeof(struct sockaddr_in) :
				sizeof(struct sockaddr_in6), host, sizeof(host), NULL, 0,
				NI_NUMERICHOST) != 0)
			continue;
		fprintf(out, "    %s %s/%d\n", family == AF_INET ? "inet" : "inet6", host,
			a->ifa_netmask ? prefix_of(a->ifa_netmask) : 0);
	}
}

static void write_interface(FILE *out, const struct ifaddrs *list, const char *ifname)
{
	char mac[32], mtu[16], state[16], carrier[8], master[IF_NAMESIZE + 1];
	const char *kind = link_kind(ifname);

	attr(ifname, "address", mac, sizeof(mac));
	attr(ifname, "mtu", mtu, sizeof(mtu));
	attr(ifname, "operstate", state, sizeof(state));
	attr(ifname, "carrier", carrier, sizeof(carrier));
	master_of(ifname, master, sizeof(master));
	fprintf(out, "%s: %s mtu %s state %s carrier %s master %s kind %s\n", ifname, mac, mtu,
		state, carrier, master, kind ? kind : "-");
	write_addresses(out, list, ifname);
}

int netreport_lease(const char *conf, char *out, size_t size)
{
	static const char *const keys[] = { "METHOD=", "ADDRESS=", "ADDRESS6=", "SERVER_ID=",
					    "SERVER6=", "GATEWAY=" };
	size_t len = 0;
	int found = 0;

	if (size)
		out[0] = '\0';
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (const char *p = conf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			size_t n = strcspn(p, "\n");
			int w;

			if (strncmp(p, keys[k], strlen(keys[k])) != 0)
				continue;
			w = snprintf(out + len, size - len, "%s%.*s", len ? " " : "", (int)n, p);
			if (w < 0 || (size_t)w >= size - len) {
				out[len] = '\0';   /* no key cut in half */
				return found;
			}
			len += (size_t)w;
			found++;
			break;
		}
	return found;
}

/* The lease net/ wrote for ifname, if it got one. */
static void write_lease(FILE *out, const char *conf_dir, const char *ifname)
{
	char path[128], text[512];
	char *conf = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/net.%s.conf", conf_dir, ifname);
	if (file_read_all(path, 16384, &conf, &len) == 0 && netreport_lease(conf, text, sizeof(text)) > 0)
		fprintf(out, "    lease: %s\n", text);
	else
		fprintf(out, "    no lease\n");
	free(conf);
}

void netreport_summary(FILE *out, const char *conf_dir)
{
	struct if_nameindex *ifs = if_nameindex();
	struct ifaddrs *list = NULL;
	int shown = 0;

	if (getifaddrs(&list) < 0)
		list = NULL;
	for (struct if_nameindex *i = ifs; i && i->if_index; i++) {
		char mac[32], state[16], carrier[8];

		if (strcmp(i->if_name, "lo") == 0)
			continue;
		attr(i->if_name, "address", mac, sizeof(mac));
		attr(i->if_name, "operstate", state, sizeof(state));
		attr(i->if_name, "carrier", carrier, sizeof(carrier));
		fprintf(out, "  %s %s: carrier %s, state %s\n", i->if_name, mac,
			strcmp(carrier, "1") == 0 ? "yes" : "no", state);
		write_addresses(out, list, i->if_name);
		write_lease(out, conf_dir, i->if_name);
		shown++;
	}
	if (!shown)
		fprintf(out, "  (none: the NIC's driver may be missing from the image; build it "
			"with --net or --add-modules)\n");
	if (list)
		freeifaddrs(list);
	if (ifs)
		if_freenameindex(ifs);
}

/* The kernel writes IPv4 addresses in /proc/net/route as the hex of the
 * 32-bit value in its own byte order: read back, it is network order. */
int netreport_route4(const char *line, char *out, size_t size)
{
	char ifname[IF_NAMESIZE + 1], d[INET_ADDRSTRLEN], g[INET_ADDRSTRLEN];
	unsigned int dest, gw, flags, refcnt, use, metric, mask;
	struct in_addr a;

	if (sscanf(line, "%16s %x %x %x %u %u %u %x", ifname, &dest, &gw, &flags, &refcnt,
		   &use, &metric, &mask) != 8)
		return -EINVAL;
	a.s_addr = dest;
	inet_ntop(AF_INET, &a, d, sizeof(d));
	a.s_addr = gw;
	inet_ntop(AF_INET, &a, g, sizeof(g));
	snprintf(out, size, "%s/%d via %s dev %s metric %u", d, __builtin_popcount(mask),
		 gw ? g : "-", ifname, metric);
	return 0;
}

static int hex_addr6(const char *hex, struct in6_addr *a)
{
	if (strspn(hex, "0123456789abcdefABCDEF") != 32)
		return -EINVAL;
	for (int i = 0; i < 16; i++) {
		unsigned int byte;

		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return -EINVAL;
		a->s6_addr[i] = (uint8_t)byte;
	}
	return 0;
}

int netreport_route6(const char *line, char *out, size_t size)
{
	char dest[33], src[33], hop[33], ifname[IF_NAMESIZE + 1];
	char d[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN];
	unsigned int dlen, slen, metric, refcnt, use, flags;
	struct in6_addr a, nh;

	if (sscanf(line, "%32s %x %32s %x %32s %x %x %x %x %16s", dest, &dlen, src, &slen, hop,
		   &metric, &refcnt, &use, &flags, ifname) != 10 || strlen(dest) != 32 ||
	    strlen(hop) != 32 || hex_addr6(dest, &a) < 0 || hex_addr6(hop, &nh) < 0 || dlen > 128)
		return -EINVAL;
	inet_ntop(AF_INET6, &a, d, sizeof(d));
	inet_ntop(AF_INET6, &nh, g, sizeof(g));
	snprintf(out, size, "%s/%u via %s dev %s metric %u", d, dlen,
		 IN6_IS_ADDR_UNSPECIFIED(&nh) ? "-" : g, ifname, metric);
	return 0;
}

static void write_routes(FILE *out, const char *path, int (*fmt)(const char *, char *, size_t))
{
	FILE *f = fopen(path, "re");
	char line[512], text[256];

	if (!f) {
		fprintf(out, "(%s cannot be read)\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (fmt(line, text, sizeof(text)) == 0)
			fprintf(out, "  %s\n", text);
	fclose(f);
}

void netreport_write(FILE *out)
{
	struct if_nameindex *ifs = if_nameindex();
	struct ifaddrs *list = NULL;

	if (getifaddrs(&list) < 0)
		list = NULL;
	for (struct if_nameindex *i = ifs; i && i->if_index; i++)
		write_interface(out, list, i->if_name);
	if (list)
		freeifaddrs(list);
	if (ifs)
		if_freenameindex(ifs);
	fprintf(out, "routes (IPv4):\n");
	write_routes(out, "/proc/net/route", netreport_route4);
	fprintf(out, "routes (IPv6):\n");
	write_routes(out, "/proc/net/ipv6_route", netreport_route6);
}
