/* net_args: ip=, bootdev=, nfsroot=, netroot=, rd.neednet, rd.net.timeout.*,
 * vlan=, bond=, bridge=, ifname=, BOOTIF=, rd.bootif=. */
#include "net/net_args.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* rd.bootif=0: BOOTIF= is not used to choose the interface. */
static int set_bootif_ignored(void *args, const struct cmdline_word *w, const char *value)
{
	(void)w;
	((struct net_args *)args)->bootif_ignored = !cmdline_bool(value);
	return 0;
}

/* rd.net.dhcp.retry=N (dracut's): N rounds of DHCP over the interfaces. */
static int set_dhcp_retry(void *args, const struct cmdline_word *w, const char *value)
{
	char *end;
	unsigned long n;

	(void)w;
	if (!value || value[0] < '0' || value[0] > '9')
		return -EINVAL;
	n = strtoul(value, &end, 10);
	if (*end || n == 0 || n > DHCP_RETRY_MAX)
		return -EINVAL;
	((struct net_args *)args)->dhcp_retry = (unsigned int)n;
	return 0;
}

/* netroot=: the last one names the root; every iscsi: one is kept too
 * (dracut logs in to each). */
static int set_netroot(void *args, const struct cmdline_word *w, const char *value)
{
	struct net_args *a = args;
	int r = cmdline_set_string(args, w, value);

	if (r == 0 && strncmp(a->netroot, "iscsi:", 6) == 0)
		r = strv_push_unique(&a->iscsi_roots, a->netroot);
	return r;
}

#define F(f) offsetof(struct net_args, f)
/* vlan=, bond=, bridge=, ifname= are kept whole for net/link/netdev_spec.c. */
static const struct cmdline_word words[] = {
	{ "ip",                     cmdline_set_string,    F(ip) },
	{ "bootdev",                cmdline_set_string,    F(bootdev) },
	{ "nfsroot",                cmdline_set_string,    F(nfsroot) },
	{ "netroot",                set_netroot,           F(netroot) },
	{ "rd.neednet",             cmdline_set_flag,      F(neednet) },
	{ "rd.net.timeout.dhcp",    cmdline_set_seconds,   F(timeout_dhcp) },
	{ "rd.net.timeout.carrier", cmdline_set_seconds,   F(timeout_carrier) },
	{ "rd.net.timeout.iflink",  cmdline_set_seconds,   F(timeout_iflink) },
	{ "rd.net.dhcp.retry",      set_dhcp_retry,        0 },
	{ "vlan",                   cmdline_set_word_once, F(netdevs) },
	{ "bond",                   cmdline_set_word_once, F(netdevs) },
	{ "bridge",                 cmdline_set_word_once, F(netdevs) },
	{ "ifname",                 cmdline_set_word_once, F(netdevs) },
	{ "BOOTIF",                 cmdline_set_string,    F(bootif) },
	{ "rd.bootif",              set_bootif_ignored,    0 },
};
#undef F

void net_args_init(struct net_args *a)
{
	memset(a, 0, sizeof(*a));
	a->netdevs = (struct strv)STRV_INIT;
	a->iscsi_roots = (struct strv)STRV_INIT;
}

void net_args_free(struct net_args *a)
{
	strv_free(&a->netdevs);
	for (size_t i = 0; i < a->iscsi_roots.len; i++)
		explicit_bzero(a->iscsi_roots.items[i], strlen(a->iscsi_roots.items[i]));
	strv_free(&a->iscsi_roots);
}

struct cmdline_owner net_args_cmdline(struct net_args *a)
{
	return (struct cmdline_owner){ "net", words, CMDLINE_N(words), a, NULL };
}
