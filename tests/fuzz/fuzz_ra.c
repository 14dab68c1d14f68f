/* fuzz_ra: the router advertisement parser and the rtnetlink IPv6 address
 * event parser (what the SLAAC and DAD waits read from the kernel) on
 * hostile bytes. */
#include <stddef.h>
#include <stdint.h>

#include "net/ip6/addrwatch.h"
#include "net/ip6/ra.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ra_info ra;
	struct addr_event ev[8];
	int n;

	ra_parse(data, size, &ra);
	n = addrwatch_parse(data, size, ev, 8);
	for (int i = 0; i < n; i++)
		addrwatch_event_usable(&ev[i], ev[i].index, ev[i].scope);
	return 0;
}
