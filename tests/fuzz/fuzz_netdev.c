/* fuzz_netdev: vlan=, bond=, bridge=, ifname= and BOOTIF= parsers on
 * arbitrary text, the message they write included. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/link/netdev_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct netdev_spec spec;
	char why[512];
	uint8_t mac[6];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (netdev_spec_parse(text, &spec, why, sizeof(why)) == 0) {
		/* What a parse gives is what the kernel will be asked for. */
		if (!netdev_spec_name_valid(spec.name) || spec.n_ports > NETDEV_PORTS_MAX ||
		    spec.n_opts > NETDEV_BOND_OPTS_MAX ||
		    (spec.kind == NETDEV_VLAN && (spec.vlan_id < 1 || spec.vlan_id > 4094)))
			abort();
		for (int i = 0; i < spec.n_ports; i++)
			if (!netdev_spec_name_valid(spec.ports[i]))
				abort();
	} else if (!memchr(why, '\0', sizeof(why))) {
		abort();
	}
	netdev_spec_bootif_parse(text, mac);
	free(text);
	return 0;
}
