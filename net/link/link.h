/* link: network interfaces over rtnetlink: list, bring up, carrier, address, route. */
#ifndef LIFEBOAT_NET_LINK_H
#define LIFEBOAT_NET_LINK_H

#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

/* Not LINK_MAX: <linux/limits.h> defines that (127, links to a file), and
 * which value a file saw would depend on its includes' order. */
#define LINKS_MAX 16

struct link_info {
	char name[IF_NAMESIZE];
	int index;
	uint8_t mac[6];
	char device[256];       /* its device's sysfs path, for the order */
};

/* The Ethernet interfaces present (not loopback, not virtual ones without a
 * device), in the order of their devices on the bus (PCI slot order), which
 * unlike the names does not change with the order the drivers probed in.
 * Returns how many, or -errno. */
int link_list(struct link_info *out, int max);
/* "bond", "bridge" or "vlan" for those kinds of interface, else NULL. */
const char *link_kind(const char *ifname);
/* Set the interface up, and its MTU when mtu is not 0. */
int link_up(int index, unsigned int mtu);
/* Set the loopback interface up (the kernel gives it 127.0.0.1 and ::1).
 * Needed beyond 127.0.0.1: an error the kernel reports to a local socket
 * travels through it, such as the ICMP "host unreachable" that tells a
 * connect() the neighbour never answered ARP; with lo down it is dropped
 * and the connect waits for its deadline instead. */
int link_loopback_up(void);
/* Whether the interface has a carrier (IFF_LOWER_UP). */
bool link_has_carrier(int index);
/* Add addr/prefix (with its broadcast address) to the interface. */
int link_add_address(int index, struct in_addr addr, int prefix);
/* Send one rtnetlink request (NLM_F_ACK set) and return the kernel's
 * answer: 0 or -errno. */
int link_nl_send(const struct nlmsghdr *req);
/* Add a default route through gateway on the interface. */
int link_add_default_route(int index, struct in_addr gateway);

/* Add addr/prefix of IPv6; the kernel runs duplicate address detection on
 * it (net/ip6/addrwatch.h says when it is done). */
int link_add_address6(int index, const struct in6_addr *addr, int prefix);
/* Add an IPv6 default route through gateway (link-local or global). */
int link_add_default_route6(int index, const struct in6_addr *gateway);
/* Write one /proc/sys/net/ipv6/conf/IFNAME/KEY (accept_ra, autoconf). */
int link_ipv6_setting(const char *ifname, const char *key, const char *value);

#endif
