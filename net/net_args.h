/* net_args: the network's words (net/, docs/network.md). */
#ifndef LIFEBOAT_NET_ARGS_H
#define LIFEBOAT_NET_ARGS_H

#include <stdbool.h>

#include "bootlib/cmdline.h"
#include "common/strv.h"

/* rd.net.dhcp.retry='s largest: rounds beyond it only delay the rescue. */
#define DHCP_RETRY_MAX 100

struct net_args {
	char ip[CMDLINE_VALUE_MAX];           /* ip=: the last one given */
	char bootdev[CMDLINE_VALUE_MAX];      /* bootdev=: the interface to use */
	char nfsroot[CMDLINE_VALUE_MAX];      /* nfsroot=, with root=/dev/nfs */
	char netroot[CMDLINE_VALUE_MAX];      /* netroot=nfs:..., netroot=iscsi:...: the last one */
	/* Every netroot=iscsi:... in order, as dracut takes them: one login
	 * each (a LUN through several portals, for multipath). Wiped when freed
	 * (a word may carry CHAP secrets). */
	struct strv iscsi_roots;
	bool neednet;                         /* rd.neednet */
	unsigned int timeout_dhcp;            /* rd.net.timeout.dhcp=, seconds */
	unsigned int timeout_carrier;         /* rd.net.timeout.carrier=, seconds */
	unsigned int timeout_iflink;          /* rd.net.timeout.iflink=, seconds */
	unsigned int dhcp_retry;              /* rd.net.dhcp.retry=: rounds of DHCP (0: one) */
	struct strv netdevs;                  /* vlan=, bond=, bridge=, ifname= words, whole */
	char bootif[CMDLINE_VALUE_MAX];       /* BOOTIF=: the NIC the firmware booted from */
	bool bootif_ignored;                  /* rd.bootif=0 */
};

void net_args_init(struct net_args *a);
void net_args_free(struct net_args *a);
struct cmdline_owner net_args_cmdline(struct net_args *a);

#endif
