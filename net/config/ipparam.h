/* ipparam: the ip= parameter, in the kernel's and in dracut's forms. */
#ifndef LIFEBOAT_NET_IPPARAM_H
#define LIFEBOAT_NET_IPPARAM_H

#include <net/if.h>
#include <netinet/in.h>

enum ip_method {
	IP_METHOD_UNSET,   /* no ip= given */
	IP_METHOD_OFF,     /* off|none with no address: no network */
	IP_METHOD_STATIC,  /* an address given, no autoconfiguration */
	IP_METHOD_DHCP,    /* dhcp|on|any|both|bootp (DHCPv4 serves them all) */
	IP_METHOD_DHCP6,   /* dhcp6: DHCPv6 (with the router advertisements' routes) */
	IP_METHOD_AUTO6,   /* auto6: router advertisements (SLAAC) */
	IP_METHOD_EITHER6, /* either6: auto6 or dhcp6, whichever answers first */
	IP_METHOD_STATIC6, /* [ADDR]:...: an IPv6 address given */
};

#define IPPARAM_NAME_MAX 64
#define IPPARAM_DNS_MAX 2

struct ip_param {
	enum ip_method method;
	char dev[IF_NAMESIZE];          /* "": any interface */
	struct in_addr addr, server, gateway, netmask;
	struct in_addr dns[IPPARAM_DNS_MAX];
	char hostname[IPPARAM_NAME_MAX];
	unsigned int mtu;               /* 0: leave the driver's */
	/* IP_METHOD_STATIC6: [ADDR]:[SERVER]:[GW]:PREFIX... */
	struct in6_addr addr6, server6, gateway6;
	int prefix6;
	struct in6_addr dns6[IPPARAM_DNS_MAX];
};

/* Whether the method configures IPv6 (and not IPv4). */
#define IP_METHOD_IS_V6(m) ((m) >= IP_METHOD_DHCP6)

/* Parse one ip= value:
 *   dhcp | on | any | off | none                      (whole value)
 *   IFACE:dhcp[:MTU[:MAC]]                            (dracut)
 *   CLIENT:SERVER:GW:MASK:HOST:IFACE:AUTOCONF[:DNS0[:DNS1[:NTP]]]   (kernel)
 *   CLIENT:SERVER:GW:MASK:HOST:IFACE:AUTOCONF:MTU[:MAC]             (dracut)
 *   dhcp6 | auto6 | either6, IFACE:dhcp6 (and auto6, either6)        (dracut)
 *   [ADDR6]:[SERVER6]:[GW6]:PREFIX:HOST:IFACE:none[:[DNS0][:[DNS1]]] (dracut)
 * An empty MASK is the address's class mask, as the kernel does; an empty
 * PREFIX is 64. Returns 0, -EINVAL for a malformed value, -EOPNOTSUPP for
 * other methods (link6, ibft, single-dhcp). */
int ip_param_parse(const char *value, struct ip_param *out);
/* Prefix length of a contiguous netmask; -EINVAL if not contiguous. */
int ip_param_mask_prefix(struct in_addr mask);

#endif
