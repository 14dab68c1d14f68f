/* netdev_spec: dracut's words that make or name interfaces before ip= uses
 * them: vlan=, bond=, bridge=, ifname=, and BOOTIF= (docs/network.md). */
#ifndef LIFEBOAT_NET_NETDEV_SPEC_H
#define LIFEBOAT_NET_NETDEV_SPEC_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#define NETDEV_PORTS_MAX 8
#define NETDEV_BOND_OPTS_MAX 8

enum netdev_kind { NETDEV_VLAN, NETDEV_BOND, NETDEV_BRIDGE, NETDEV_IFNAME };

/* One bond option as the kernel's IFLA_BOND_* attribute takes it. */
struct netdev_bond_opt {
	unsigned short attr;          /* IFLA_BOND_MODE, IFLA_BOND_MIIMON, ... */
	unsigned char size;           /* 1 or 4 bytes */
	uint32_t value;
};

struct netdev_spec {
	enum netdev_kind kind;
	char name[IF_NAMESIZE];       /* the interface made, or the new name */
	/* vlan: the parent; bond: the slaves; bridge: the ports */
	char ports[NETDEV_PORTS_MAX][IF_NAMESIZE];
	int n_ports;
	unsigned int vlan_id;         /* 1..4094, from the end of the name */
	struct netdev_bond_opt opts[NETDEV_BOND_OPTS_MAX];
	int n_opts;
	char primary[IF_NAMESIZE];    /* bond primary=, an interface name */
	unsigned int mtu;             /* bond's 4th field; 0: the driver's */
	uint8_t mac[6];               /* ifname=: the hardware address */
};

/* Parse one whole word ("vlan=vlan5:eth0", "bond=bond0:eth0,eth1:mode=
 * active-backup,miimon=100:9000", "bridge=br0:eth0", "ifname=lan0:MAC").
 * dracut's defaults apply: "bond" alone is bond0 over eth0,eth1 in
 * balance-rr, "bridge" alone is br0 over eth0. Returns 0, or -EINVAL with
 * the word and what was expected in why. */
int netdev_spec_parse(const char *word, struct netdev_spec *out, char *why, size_t why_size);
/* BOOTIF=: PXELINUX's "01-aa-bb-cc-dd-ee-ff" (01 is Ethernet), or the six
 * bytes alone with '-' or ':'. Returns 0 or -EINVAL. */
int netdev_spec_bootif_parse(const char *value, uint8_t mac[6]);
/* Whether s is an interface name the kernel would take (dev_valid_name). */
int netdev_spec_name_valid(const char *s);

#endif
