/* ra: IPv6 router advertisements (RFC 4861 4.2, RDNSS of RFC 8106) parsed, solicitations built. */
#ifndef LIFEBOAT_NET_RA_H
#define LIFEBOAT_NET_RA_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/dhcp4/dhcppkt.h"

#define RA_PREFIX_MAX 4

struct ra_prefix {
	struct in6_addr prefix;
	uint8_t len;
	bool on_link, autonomous;     /* the L and A flags */
	uint32_t valid_sec;
};

/* What one advertisement says; the kernel configures the addresses and
 * routes itself, this is what the boot reports and writes down. */
struct ra_info {
	bool managed, other;          /* M: addresses by DHCPv6; O: other settings by it */
	uint16_t router_lifetime;     /* 0: not a default router */
	uint32_t mtu;                 /* 0: not given */
	struct ra_prefix prefix[RA_PREFIX_MAX];
	unsigned int n_prefix;
	struct in6_addr dns[DHCP_DNS_MAX];
	unsigned int n_dns;
};

/* Parse the ICMPv6 message (from its type byte on): type 134, code 0, and
 * options each a whole number of 8 bytes, none of length 0. Returns 0, or
 * -EINVAL, never reading outside msg[0..len). */
int ra_parse(const uint8_t *msg, size_t len, struct ra_info *out);
/* A router solicitation (type 133) with the source link-layer option of
 * mac when mac is not NULL. Returns its length or -ENOSPC. */
int ra_solicit_build(const uint8_t *mac, uint8_t *buf, size_t size);

#endif
