/* dhcppkt: DHCPv4 messages (RFC 2131/2132) as IPv4+UDP packets, built and parsed. */
#ifndef LIFEBOAT_NET_DHCPPKT_H
#define LIFEBOAT_NET_DHCPPKT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dhcp_msg {
	DHCP_DISCOVER = 1, DHCP_OFFER = 2, DHCP_REQUEST = 3, DHCP_DECLINE = 4,
	DHCP_ACK = 5, DHCP_NAK = 6, DHCP_RELEASE = 7, DHCP_INFORM = 8,
};

#define DHCP_DNS_MAX 3
#define DHCP_STR_MAX 256
#define DHCP_VENDOR_CLASS "lifeboat"
/* The largest packet built or accepted: an Ethernet MTU. */
#define DHCP_PACKET_MAX 1500

/* What a server's OFFER or ACK says. Strings hold only characters safe in
 * a key=value file and a shell (see dhcppkt_str_safe); an option with others is
 * dropped. */
struct dhcp_lease {
	enum dhcp_msg type;
	struct in_addr addr;          /* yiaddr */
	struct in_addr siaddr;        /* next server */
	struct in_addr server_id;     /* option 54 */
	struct in_addr netmask, router, broadcast;
	struct in_addr dns[DHCP_DNS_MAX];
	unsigned int n_dns;
	unsigned int lease_sec;       /* 0: not given */
	unsigned int mtu;             /* 0: not given */
	char hostname[DHCP_STR_MAX];
	char domain[DHCP_STR_MAX];
	char root_path[DHCP_STR_MAX];
};

/* What the client puts into a DISCOVER or REQUEST. */
struct dhcp_request {
	enum dhcp_msg type;
	uint32_t xid;
	uint8_t mac[6];
	uint16_t secs;
	struct in_addr requested;     /* REQUEST: option 50 */
	struct in_addr server_id;     /* REQUEST: option 54 */
	const char *hostname;         /* option 12, NULL or "" for none */
};

/* Build the IPv4 packet (0.0.0.0:68 -> 255.255.255.255:67) into buf.
 * Returns its length, or -ENOSPC. */
int dhcppkt_build(const struct dhcp_request *req, uint8_t *buf, size_t size);
/* Parse an IPv4 packet received on the interface: must be UDP to port 68,
 * a BOOTREPLY with our xid and hardware address, with a message type.
 * check_udp_sum false skips the UDP checksum (the kernel said it was not
 * computed yet: offloaded). Returns 0, or -EINVAL for anything else, never
 * reading outside pkt[0..len). */
int dhcppkt_parse(const uint8_t *pkt, size_t len, bool check_udp_sum, uint32_t xid,
		  const uint8_t mac[6], struct dhcp_lease *out);
/* The BOOTP part alone (from the op byte on). */
int dhcppkt_bootp_parse(const uint8_t *msg, size_t len, uint32_t xid, const uint8_t mac[6],
			struct dhcp_lease *out);
/* Whether s is safe to write unquoted as a value: letters, digits and
 * . _ - : / , @ % + = [ ] ~ */
bool dhcppkt_str_safe(const char *s, size_t len);

#endif
