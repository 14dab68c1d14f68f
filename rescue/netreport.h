/* netreport: the network part of the rescue report: every interface with
 * its state, kind, master and addresses, and every IPv4 and IPv6 route. */
#ifndef LIFEBOAT_RESCUE_NETREPORT_H
#define LIFEBOAT_RESCUE_NETREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether an interface other than lo exists (else the network was not
 * used and the section is left out). */
bool netreport_wanted(void);
/* Write the interfaces, their addresses and the routes to out. */
void netreport_write(FILE *out);
/* The failure summary of a root on the network: each interface but lo
 * with its MAC, carrier and state, its addresses, and the lease written to
 * conf_dir/net.IFACE.conf when it got one (net/config/ifstate.h). */
void netreport_summary(FILE *out, const char *conf_dir);
/* What the summary says of a lease: METHOD, ADDRESS, ADDRESS6, SERVER_ID,
 * SERVER6 and GATEWAY of a net.IFACE.conf's text, as "KEY=VALUE ...".
 * Returns how many it found. */
int netreport_lease(const char *conf, char *out, size_t size);
/* One line of /proc/net/route (hexadecimal, the kernel's byte order) as
 * "DEST/PREFIX via GW dev IFACE metric N". Returns 0, or -EINVAL for the
 * header or a line that is not a route. */
int netreport_route4(const char *line, char *out, size_t size);
/* One line of /proc/net/ipv6_route likewise. */
int netreport_route6(const char *line, char *out, size_t size);

#endif
