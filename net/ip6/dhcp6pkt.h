/* dhcp6pkt: DHCPv6 messages (RFC 8415) and the boot file URL (RFC 5970), built and parsed. */
#ifndef LIFEBOAT_NET_DHCP6PKT_H
#define LIFEBOAT_NET_DHCP6PKT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/dhcp4/dhcppkt.h"

enum dhcp6_msg {
	DHCP6_SOLICIT = 1, DHCP6_ADVERTISE = 2, DHCP6_REQUEST = 3, DHCP6_REPLY = 7,
	DHCP6_DECLINE = 9,
};

#define DHCP6_PORT_CLIENT 546
#define DHCP6_PORT_SERVER 547
#define DHCP6_DUID_MAX 130        /* RFC 8415 11.1: at most 128 bytes and the type */
#define DHCP6_STATUS_SUCCESS 0

/* What an ADVERTISE or REPLY says. Strings passed dhcppkt_str_safe(); an option
 * that did not is dropped. */
struct dhcp6_lease {
	enum dhcp6_msg type;
	uint8_t server_duid[DHCP6_DUID_MAX];
	size_t server_duid_len;
	unsigned int preference;      /* option 7; 0 when absent */
	uint16_t status;              /* the message's, else the IA_NA's, else the address's */
	bool has_addr;
	struct in6_addr addr;         /* IA_NA's first IAADDR */
	uint32_t preferred_sec, valid_sec;
	struct in6_addr dns[DHCP_DNS_MAX];
	unsigned int n_dns;
	char domain[DHCP_STR_MAX];    /* the first name of the domain search list (24) */
	char boot_url[DHCP_STR_MAX];  /* option 59 */
};

/* What the client puts into a SOLICIT, REQUEST or DECLINE. */
struct dhcp6_request {
	enum dhcp6_msg type;
	uint32_t xid;                 /* 24 bits */
	uint8_t mac[6];               /* the client DUID is DUID-LL of it */
	uint32_t iaid;
	uint16_t elapsed_cs;          /* hundredths of a second, option 8 */
	const uint8_t *server_duid;   /* REQUEST, DECLINE: the ADVERTISE's server */
	size_t server_duid_len;
	const struct in6_addr *addr;  /* REQUEST: the address advertised, DECLINE: the
				       * one refused; or NULL */
};

/* Build the UDP payload into buf. Returns its length, or -ENOSPC. */
int dhcp6pkt_build(const struct dhcp6_request *req, uint8_t *buf, size_t size);
/* Parse a UDP payload from a server: an ADVERTISE or REPLY with our xid,
 * our client DUID (DUID-LL of mac) and a server DUID. Returns 0, or -EINVAL
 * for anything else, never reading outside msg[0..len). */
int dhcp6pkt_parse(const uint8_t *msg, size_t len, uint32_t xid, const uint8_t mac[6],
		   struct dhcp6_lease *out);

#endif
