/* nethost: the running machine's network as dracut's words (vlan=, bond=,
 * bridge=, ifname=, ip=), so that a kdump capture kernel reaches its dump
 * target the way the crashed kernel did (gen/cmd/kdump_load.c). */
#ifndef LIFEBOAT_NETHOST_H
#define LIFEBOAT_NETHOST_H

#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>

/* The interface of the default route and its gateway (0.0.0.0 or :: when
 * the route has none), from /proc/net/route or /proc/net/ipv6_route text.
 * The first default route that is up wins. Returns 0, -ENOENT when there is
 * none, -EINVAL for a line that is not the kernel's. */
int nethost_route4_parse(const char *text, char iface[IF_NAMESIZE], struct in_addr *gw);
int nethost_route6_parse(const char *text, char iface[IF_NAMESIZE], struct in6_addr *gw);
/* /proc/net/vlan/IFACE: the VLAN id and the parent interface. Returns 0 or
 * -EINVAL when either is missing. */
int nethost_vlan_parse(const char *text, unsigned int *vid, char parent[IF_NAMESIZE]);

/* The default route's interface address, which the caller reads
 * (getifaddrs): family AF_INET or AF_INET6, 0 when it has none. */
struct nethost_addr {
	int family;
	struct in_addr addr4, mask4;
	struct in6_addr addr6;
	unsigned int prefix6;
};

/* The address of iface in family (an IPv6 one global, not link-local),
 * from getifaddrs(3). Returns 0, or -ENOENT when it has none. */
int nethost_addr_read(const char *iface, int family, struct nethost_addr *a);

/* What the words are made from: ROOT/proc and ROOT/sys ("" is the host). */
struct nethost_facts {
	const char *root;
	char iface[IF_NAMESIZE];         /* the default route's */
	int family;                      /* of that route */
	struct in_addr gw4;
	struct in6_addr gw6;
};

/* The default route's interface (IPv4 first, then IPv6) into f. Returns 0,
 * or -ENOENT when the host has no default route. */
int nethost_default_route(const char *root, struct nethost_facts *f);

/* The words, space-separated, into out: each bond, bridge and VLAN under
 * the default route's interface (what it stands on first, as the init makes
 * them in order), ifname=NAME:MAC for each NIC under them whose name the
 * kernel would not give (not ethN), then a static ip= with the interface's
 * address and the route's gateway (the address stays the machine's between
 * the crash and the capture, and needs no DHCP wait). why gets what could
 * not be said in dracut's words. Returns 0, -ENAMETOOLONG, -ELOOP for
 * interfaces nested too deep, -EINVAL with why. */
int nethost_words(const struct nethost_facts *f, const struct nethost_addr *a,
		  char *out, size_t size, char *why, size_t why_size);

#endif
