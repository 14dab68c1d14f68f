/* fuzz_dhcp6: the DHCPv6 message parser on hostile messages. The xid and the
 * client DUID-LL's MAC are taken from the message itself (the xid from its
 * header, the MAC from bytes 12..17, where a client id option put first
 * holds it), so the option walker is reached too; what is parsed is then
 * formatted as net.IFACE.conf, which reads every string. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/config/ifstate.h"
#include "net/ip6/dhcp6pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct link_info link = { .name = "eth0", .index = 1 };
	struct dhcp6_lease l;
	struct net6_conf c = { .method = "dhcp6", .prefix = 128 };
	uint8_t mac[6] = { 0 };
	uint32_t xid = 0;
	char buf[2048];

	if (size >= 18) {
		xid = (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
		memcpy(mac, data + 12, 6);
	}
	if (dhcp6pkt_parse(data, size, xid, mac, &l) < 0)
		return 0;
	c.addr = l.addr;
	c.n_dns = l.n_dns;
	memcpy(c.dns, l.dns, sizeof(c.dns));
	memcpy(c.domain, l.domain, sizeof(c.domain));
	memcpy(c.boot_url, l.boot_url, sizeof(c.boot_url));
	ifstate_format6(&link, &c, buf, sizeof(buf));
	return 0;
}
