/* fuzz_nethost: the readers of /proc/net/route, /proc/net/ipv6_route and
 * /proc/net/vlan/IFACE that kdump load makes the capture's network words
 * from (gen/host/nethost.c), on arbitrary text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/host/nethost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char iface[IF_NAMESIZE];
	struct in_addr gw4;
	struct in6_addr gw6;
	unsigned int vid;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (nethost_route4_parse(text, iface, &gw4) == 0 && strlen(iface) >= IF_NAMESIZE)
		abort();
	if (nethost_route6_parse(text, iface, &gw6) == 0 && strlen(iface) >= IF_NAMESIZE)
		abort();
	if (nethost_vlan_parse(text, &vid, iface) == 0 && (vid < 1 || vid > 4094))
		abort();
	free(text);
	return 0;
}
