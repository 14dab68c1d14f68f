/* ifstate: what an interface was configured with (net.IFACE.conf, resolv.conf), written for the real root. */
#ifndef LIFEBOAT_NET_IFSTATE_H
#define LIFEBOAT_NET_IFSTATE_H

#include <stddef.h>

#include "net/dhcp4/dhcppkt.h"
#include "net/ip6/net6_conf.h"
#include "net/link/link.h"

#define IFSTATE_DIR "/run/initramfs"
#define RESOLV_CONF "/etc/resolv.conf"

/* Format net.IFACE.conf (key=value lines, docs/network.md) into buf; an
 * iSCSI ROOT_PATH without its credentials (common/redact.h).
 * method is "dhcp" or "static". Returns the length or -ENOSPC. */
int ifstate_format(const struct link_info *link, const char *method,
		   const struct dhcp_lease *l, char *buf, size_t size);
/* Write dir/net.IFACE.conf (mode 0600) and, when DNS servers are known,
 * resolv (/etc/resolv.conf, 0644), each to a temporary name then renamed. */
int ifstate_write(const char *dir, const char *resolv, const struct link_info *link,
		  const char *method, const struct dhcp_lease *l);

/* The same for an IPv6 configuration: METHOD=dhcp6|auto6|static and the
 * keys ADDRESS6, PREFIX6, GATEWAY6, SERVER6, DNS6_0.. (docs/network.md). */
int ifstate_format6(const struct link_info *link, const struct net6_conf *c, char *buf,
		    size_t size);
int ifstate_write6(const char *dir, const char *resolv, const struct link_info *link,
		   const struct net6_conf *c);

#endif
