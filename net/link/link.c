/* link: interface setup through rtnetlink (rtnetlink(7), netlink(7)). */
#include "net/link/link.h"

#include <errno.h>
#include <limits.h>
#include <linux/if_arp.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/fileread.h"

#define NL_BUF 8192

struct nl_msg {
	struct nlmsghdr hdr;
	union {
		struct ifinfomsg ifi;
		struct ifaddrmsg ifa;
		struct rtmsg rt;
	} body;
	char attrs[96];   /* room for the rtattrs attr_put appends */ // cppcheck-suppress unusedStructMember
};

static void attr_put(struct nl_msg *m, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)m + NLMSG_ALIGN(m->hdr.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	m->hdr.nlmsg_len = NLMSG_ALIGN(m->hdr.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

static void msg_init(struct nl_msg *m, unsigned short type, unsigned short flags, size_t body)
{
	memset(m, 0, sizeof(*m));
	m->hdr.nlmsg_len = (unsigned int)NLMSG_LENGTH(body);
	m->hdr.nlmsg_type = type;
	m->hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->hdr.nlmsg_seq = 1;
}

int link_nl_send(const struct nlmsghdr *req)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char buf[NL_BUF];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	ssize_t n;
	int r = -EIO;

	if (fd < 0)
		return -errno;
	if (sendto(fd, req, req->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		r = -errno;
		goto out;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		r = -errno;
		goto out;
	}
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
	     h = NLMSG_NEXT(h, n))
		if (h->nlmsg_type == NLMSG_ERROR) {
			r = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			break;
		}
out:
	close(fd);
	return r;
}

static int nl_call(const struct nl_msg *m)
{
	return link_nl_send(&m->hdr);
}

int link_up(int index, unsigned int mtu)
{
	struct nl_msg m;

	msg_init(&m, RTM_NEWLINK, 0, sizeof(struct ifinfomsg));
	m.body.ifi.ifi_family = AF_UNSPEC;
	m.body.ifi.ifi_index = index;
	m.body.ifi.ifi_flags = IFF_UP;
	m.body.ifi.ifi_change = IFF_UP;
	if (mtu)
		attr_put(&m, IFLA_MTU, &mtu, sizeof(mtu));
	return nl_call(&m);
}

int link_loopback_up(void)
{
	unsigned int index = if_nametoindex("lo");

	return index ? link_up((int)index, 0) : -errno;
}

int link_add_address(int index, struct in_addr addr, int prefix)
{
	struct in_addr bcast = addr;
	struct nl_msg m;

	if (prefix < 31)
		bcast.s_addr |= htonl(0xffffffffu >> prefix);
	msg_init(&m, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE, sizeof(struct ifaddrmsg));
	m.body.ifa.ifa_family = AF_INET;
	m.body.ifa.ifa_prefixlen = (unsigned char)prefix;
	m.body.ifa.ifa_index = (unsigned int)index;
	attr_put(&m, IFA_LOCAL, &addr, 4);
	attr_put(&m, IFA_ADDRESS, &addr, 4);
	if (prefix < 31)
		attr_put(&m, IFA_BROADCAST, &bcast, 4);
	return nl_call(&m);
}

/* A default route through gateway (4 or 16 bytes) on the interface. */
static int default_route_add(int index, unsigned char family, const void *gateway, size_t len)
{
	struct nl_msg m;
	unsigned int oif = (unsigned int)index;

	msg_init(&m, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, sizeof(struct rtmsg));
	m.body.rt.rtm_family = family;
	m.body.rt.rtm_table = RT_TABLE_MAIN;
	m.body.rt.rtm_protocol = RTPROT_BOOT;
	m.body.rt.rtm_scope = RT_SCOPE_UNIVERSE;
	m.body.rt.rtm_type = RTN_UNICAST;
	attr_put(&m, RTA_GATEWAY, gateway, len);
	attr_put(&m, RTA_OIF, &oif, sizeof(oif));
	return nl_call(&m);
}

int link_add_default_route(int index, struct in_addr gateway)
{
	return default_route_add(index, AF_INET, &gateway, 4);
}

int link_add_address6(int index, const struct in6_addr *addr, int prefix)
{
	struct nl_msg m;

	msg_init(&m, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE, sizeof(struct ifaddrmsg));
	m.body.ifa.ifa_family = AF_INET6;
	m.body.ifa.ifa_prefixlen = (unsigned char)prefix;
	m.body.ifa.ifa_index = (unsigned int)index;
	attr_put(&m, IFA_LOCAL, addr, 16);
	attr_put(&m, IFA_ADDRESS, addr, 16);
	return nl_call(&m);
}

int link_add_default_route6(int index, const struct in6_addr *gateway)
{
	return default_route_add(index, AF_INET6, gateway, 16);
}

/* rtnetlink cannot set these per-interface switches; /proc/sys can. */
int link_ipv6_setting(const char *ifname, const char *key, const char *value)
{
	char path[128];
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", ifname, key);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (fputs(value, f) < 0)
		r = -EIO;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

/* sysfs holds what rtnetlink would say about a link, as text; reading it
 * keeps the listing short. */
static int sysfs_read(const char *ifname, const char *attr, char *buf, size_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, attr);
	return file_read_line(path, buf, size);
}

static int sysfs_number(const char *ifname, const char *attr, long *out)
{
	char buf[32];
	int r = sysfs_read(ifname, attr, buf, sizeof(buf));

	if (r == 0)
		*out = strtol(buf, NULL, 0);
	return r;
}

const char *link_kind(const char *ifname)
{
	char path[96], *uevent = NULL;
	size_t len;
	bool vlan;

	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding", ifname);
	if (access(path, F_OK) == 0)
		return "bond";
	snprintf(path, sizeof(path), "/sys/class/net/%s/bridge", ifname);
	if (access(path, F_OK) == 0)
		return "bridge";
	snprintf(path, sizeof(path), "/sys/class/net/%s/uevent", ifname);
	if (file_read_all(path, 4096, &uevent, &len) < 0)
		return NULL;
	vlan = strstr(uevent, "DEVTYPE=vlan\n") != NULL;
	free(uevent);
	return vlan ? "vlan" : NULL;
}

/* A bond's slave or a bridge's port carries no address of its own. */
static bool link_enslaved(const char *ifname)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/net/%s/master", ifname);
	return access(path, F_OK) == 0;
}

static bool link_ethernet(const char *ifname, struct link_info *out)
{
	char mac[32], path[96], device[PATH_MAX];
	long type = 0;
	size_t n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	if (sysfs_number(ifname, "type", &type) < 0 || type != ARPHRD_ETHER ||
	    link_enslaved(ifname) || sysfs_read(ifname, "address", mac, sizeof(mac)) < 0)
		return false;
	/* A bond, bridge or VLAN (vlan=, bond=, bridge=) has no device but ip=
	 * may configure it; these sort first: they were asked for by name. */
	if (!realpath(path, device) && !link_kind(ifname))
		return false;
	if (access(path, F_OK) != 0)
		device[0] = '\0';
	/* A cut-off path still orders: the bus part comes first. */
	n = strnlen(device, sizeof(out->device) - 1);
	memcpy(out->device, device, n);
	out->device[n] = '\0';
	return sscanf(mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &out->mac[0], &out->mac[1],
		      &out->mac[2], &out->mac[3], &out->mac[4], &out->mac[5]) == 6;
}

static int link_compare(const void *a, const void *b)
{
	return strcmp(((const struct link_info *)a)->device, ((const struct link_info *)b)->device);
}

int link_list(struct link_info *out, int max)
{
	struct if_nameindex *ifs = if_nameindex();
	int n = 0;

	if (!ifs)
		return -errno;
	for (struct if_nameindex *i = ifs; i->if_index && n < max; i++) {
		memset(&out[n], 0, sizeof(out[n]));
		if (strlen(i->if_name) >= IF_NAMESIZE || !link_ethernet(i->if_name, &out[n]))
			continue;
		strcpy(out[n].name, i->if_name);
		out[n].index = (int)i->if_index;
		n++;
	}
	if_freenameindex(ifs);
	qsort(out, (size_t)n, sizeof(out[0]), link_compare);
	return n;
}

bool link_has_carrier(int index)
{
	char name[IF_NAMESIZE];
	long carrier = 0;

	if (!if_indextoname((unsigned int)index, name))
		return false;
	return sysfs_number(name, "carrier", &carrier) == 0 && carrier == 1;
}
