/* fuzz_dhcp: the DHCP packet parser on hostile packets. The xid and MAC
 * are taken from the packet itself, so the option parser is reached too. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/config/ifstate.h"
#include "net/dhcp4/dhcppkt.h"

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void lease_touch(const struct dhcp_lease *l)
{
	struct link_info link = { .name = "eth0", .index = 1 };
	char buf[2048];

	/* The strings must be terminated and safe: formatting reads them. */
	ifstate_format(&link, "dhcp", l, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dhcp_lease l;
	uint8_t mac[6] = { 0 };
	uint32_t xid = 0;

	/* As a whole IP packet: xid and chaddr where a 20-byte header puts them. */
	if (size >= 28 + 34) {
		xid = be32(data + 28 + 4);
		memcpy(mac, data + 28 + 28, 6);
	}
	if (dhcppkt_parse(data, size, size & 1, xid, mac, &l) == 0)
		lease_touch(&l);
	/* As the BOOTP message alone. */
	if (size >= 34) {
		xid = be32(data + 4);
		memcpy(mac, data + 28, 6);
	}
	if (dhcppkt_bootp_parse(data, size, xid, mac, &l) == 0)
		lease_touch(&l);
	return 0;
}
