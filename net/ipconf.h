/* ipconf: the ip= parameter, in the kernel's and in dracut's forms. */
#ifndef LIFEBOAT_NET_IPCONF_H
#define LIFEBOAT_NET_IPCONF_H

#include <net/if.h>
#include <netinet/in.h>

enum ip_method {
	IP_METHOD_UNSET,   /* no ip= given */
	IP_METHOD_OFF,     /* off|none with no address: no network */
	IP_METHOD_STATIC,  /* an address given, no autoconfiguration */
	IP_METHOD_DHCP,    /* dhcp|on|any|both|bootp (DHCPv4 serves them all) */
};

#define IPCONF_NAME_MAX 64
#define IPCONF_DNS_MAX 2

struct ip_conf {
	enum ip_method method;
	char dev[IF_NAMESIZE];          /* "": any interface */
	struct in_addr addr, server, gateway, netmask;
	struct in_addr dns[IPCONF_DNS_MAX];
	char hostname[IPCONF_NAME_MAX];
	unsigned int mtu;               /* 0: leave the driver's */
};

/* Parse one ip= value:
 *   dhcp | on | any | off | none                      (whole value)
 *   IFACE:dhcp[:MTU[:MAC]]                            (dracut)
 *   CLIENT:SERVER:GW:MASK:HOST:IFACE:AUTOCONF[:DNS0[:DNS1[:NTP]]]   (kernel)
 *   CLIENT:SERVER:GW:MASK:HOST:IFACE:AUTOCONF:MTU[:MAC]             (dracut)
 * An empty MASK is the address's class mask, as the kernel does. Returns 0,
 * -EINVAL for a malformed value, -EOPNOTSUPP for IPv6 or other methods. */
int ip_conf_parse(const char *value, struct ip_conf *out);
/* Prefix length of a contiguous netmask; -EINVAL if not contiguous. */
int ip_mask_prefix(struct in_addr mask);

#endif
