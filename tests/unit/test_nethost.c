/* Unit tests: the running machine's network as dracut's words for kdump's
 * capture kernel (gen/host/nethost.c), on trees of /proc and /sys made
 * here, and the capture command line they join. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/cmd/kdump_load.h"
#include "gen/host/nethost.h"

#define ROUTE_HEADING "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
/* 198.51.100.1 as the kernel prints it on a little-endian machine. */
#define GW_HEX "016433C6"
#define V6_ZERO "00000000000000000000000000000000"

static void route4_default(void **state)
{
	char iface[IF_NAMESIZE];
	struct in_addr gw;

	(void)state;
	assert_int_equal(nethost_route4_parse(ROUTE_HEADING
		"eth1\t006433C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
		"bond0\t00000000\t" GW_HEX "\t0003\t0\t0\t100\t00000000\t0\t0\t0\n",
		iface, &gw), 0);
	assert_string_equal(iface, "bond0");
	assert_string_equal(inet_ntoa(gw), "198.51.100.1");
	/* A default route that is down is not taken; none at all is -ENOENT. */
	assert_int_equal(nethost_route4_parse(ROUTE_HEADING
		"eth0\t00000000\t" GW_HEX "\t0002\t0\t0\t0\t00000000\t0\t0\t0\n", iface, &gw), -ENOENT);
	assert_int_equal(nethost_route4_parse(ROUTE_HEADING, iface, &gw), -ENOENT);
	assert_int_equal(nethost_route4_parse("", iface, &gw), -ENOENT);
	assert_int_equal(nethost_route4_parse(ROUTE_HEADING "eth0 zz\n", iface, &gw), -EINVAL);
	assert_int_equal(nethost_route4_parse(ROUTE_HEADING
		"aninterfacenamethatistoolong\t00000000\t0\t3\t0\t0\t0\t0\n", iface, &gw), -EINVAL);
}

static void route6_default(void **state)
{
	char iface[IF_NAMESIZE];
	struct in6_addr gw;
	char text[INET6_ADDRSTRLEN];

	(void)state;
	assert_int_equal(nethost_route6_parse(
		"20010db8000000000000000000000000 40 " V6_ZERO " 00 " V6_ZERO " 00000100 00000001 00000000 00000001 eth0\n"
		V6_ZERO " 00 " V6_ZERO " 00 " V6_ZERO " ffffffff 00000001 00000000 00200200 lo\n"
		V6_ZERO " 00 " V6_ZERO " 00 fe800000000000000000000000000001 00000400 00000001 00000000 00450003 vlan5\n",
		iface, &gw), 0);
	assert_string_equal(iface, "vlan5");
	assert_string_equal(inet_ntop(AF_INET6, &gw, text, sizeof(text)), "fe80::1");
	assert_int_equal(nethost_route6_parse(
		V6_ZERO " 00 " V6_ZERO " 00 " V6_ZERO " ffffffff 00000001 00000000 00200200 lo\n",
		iface, &gw), -ENOENT);
	assert_int_equal(nethost_route6_parse("0000 00 short\n", iface, &gw), -EINVAL);
}

static void vlan_file(void **state)
{
	char parent[IF_NAMESIZE];
	unsigned int vid;

	(void)state;
	assert_int_equal(nethost_vlan_parse("vlan5  VID: 5\t REORDER_HDR: 1  dev->priv_flags: 1021\n"
					    "         total frames received            0\n"
					    "Device: bond0\nINGRESS priority mappings: 0:0\n",
					    &vid, parent), 0);
	assert_int_equal(vid, 5);
	assert_string_equal(parent, "bond0");
	assert_int_equal(nethost_vlan_parse("vlan5  VID: 5\n", &vid, parent), -EINVAL);
	assert_int_equal(nethost_vlan_parse("x  VID: 4095\nDevice: eth0\n", &vid, parent), -EINVAL);
}

/* A tree of /proc and /sys in a temporary directory. */
struct tree {
	char dir[64];
};

/* TREE/NAME with the directories on its way; "" text for an empty file. */
static void tree_file(const struct tree *t, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	for (char *slash = path + strlen(t->dir) + 1; (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void tree_make(struct tree *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/lifeboat-nethost-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
}

static void tree_remove(const struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
}

static int tree_words(const struct tree *t, const struct nethost_addr *a, char *out, size_t size,
		      char *why, size_t why_size)
{
	struct nethost_facts f;
	int r = nethost_default_route(t->dir, &f);

	return r < 0 ? r : nethost_words(&f, a, out, size, why, why_size);
}

static const struct nethost_addr addr4 = {
	.family = AF_INET,
	.addr4 = { .s_addr = 0x0b6433c6 },      /* 198.51.100.11 */
	.mask4 = { .s_addr = 0x00ffffff },
};

/* A bridge over a VLAN over an active-backup bond of two NICs with
 * predictable names: what stands under comes first, each NIC renamed by
 * its own address (a slave's is perm_hwaddr), then ip=. */
static void words_bridge_vlan_bond(void **state)
{
	struct tree t;
	char out[512], why[256];

	(void)state;
	tree_make(&t);
	tree_file(&t, "proc/net/route", ROUTE_HEADING
		  "br0\t00000000\t" GW_HEX "\t0003\t0\t0\t0\t00000000\t0\t0\t0\n");
	tree_file(&t, "sys/class/net/br0/bridge/forward_delay", "0\n");
	tree_file(&t, "sys/class/net/br0/brif/vlan5", "");
	tree_file(&t, "proc/net/vlan/vlan5", "vlan5  VID: 5\t REORDER_HDR: 1\nDevice: bond0\n");
	tree_file(&t, "sys/class/net/bond0/bonding/slaves", "enp1s0 enp2s0\n");
	tree_file(&t, "sys/class/net/bond0/bonding/mode", "active-backup 1\n");
	tree_file(&t, "sys/class/net/bond0/bonding/miimon", "100\n");
	tree_file(&t, "sys/class/net/enp1s0/address", "52:54:00:00:00:01\n");
	tree_file(&t, "sys/class/net/enp1s0/bonding_slave/perm_hwaddr", "52:54:00:00:00:01\n");
	tree_file(&t, "sys/class/net/enp2s0/address", "52:54:00:00:00:01\n");
	tree_file(&t, "sys/class/net/enp2s0/bonding_slave/perm_hwaddr", "52:54:00:00:00:02\n");
	assert_int_equal(tree_words(&t, &addr4, out, sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, "ifname=enp1s0:52:54:00:00:00:01 ifname=enp2s0:52:54:00:00:00:02 "
			    "bond=bond0:enp1s0,enp2s0:mode=active-backup,miimon=100 vlan=vlan5:bond0 "
			    "bridge=br0:vlan5 ip=198.51.100.11::198.51.100.1:255.255.255.0::br0:none");
	/* Too small a buffer is refused, not cut. */
	assert_int_equal(tree_words(&t, &addr4, out, 40, why, sizeof(why)), -ENAMETOOLONG);
	assert_non_null(strstr(why, "longer than 39 bytes"));
	tree_remove(&t);
}

/* A kernel name (ethN) needs no ifname=; IPv6 only: the static
 * ip=[ADDR] with the router as the gateway. */
static void words_ipv6_eth(void **state)
{
	struct tree t;
	char out[256], why[256];
	struct nethost_addr a = { .family = AF_INET6, .prefix6 = 64 };

	(void)state;
	inet_pton(AF_INET6, "2001:db8::21", &a.addr6);
	tree_make(&t);
	tree_file(&t, "proc/net/route", ROUTE_HEADING);
	tree_file(&t, "proc/net/ipv6_route",
		  V6_ZERO " 00 " V6_ZERO " 00 fe800000000000000000000000000001 00000400 00000001 00000000 00450003 eth0\n");
	tree_file(&t, "sys/class/net/eth0/address", "52:54:00:00:00:01\n");
	assert_int_equal(tree_words(&t, &a, out, sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, "ip=[2001:db8::21]::[fe80::1]:64::eth0:none");
	tree_remove(&t);
}

/* What dracut's words cannot say is refused with the reason. */
static void words_refused(void **state)
{
	struct tree t;
	char out[256], why[256];
	struct nethost_addr none = { 0 };

	(void)state;
	tree_make(&t);
	tree_file(&t, "proc/net/route", ROUTE_HEADING
		  "mgmt\t00000000\t" GW_HEX "\t0003\t0\t0\t0\t00000000\t0\t0\t0\n");
	tree_file(&t, "proc/net/vlan/mgmt", "mgmt  VID: 7\nDevice: eth0\n");
	assert_int_equal(tree_words(&t, &addr4, out, sizeof(out), why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "name it vlan7 or eth0.7"));
	/* eth0.7 and vlan0007 say their id. */
	tree_file(&t, "proc/net/route", ROUTE_HEADING
		  "eth0.7\t00000000\t" GW_HEX "\t0003\t0\t0\t0\t00000000\t0\t0\t0\n");
	tree_file(&t, "proc/net/vlan/eth0.7", "eth0.7  VID: 7\nDevice: eth0\n");
	assert_int_equal(tree_words(&t, &addr4, out, sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, "vlan=eth0.7:eth0 ip=198.51.100.11::198.51.100.1:255.255.255.0::eth0.7:none");
	assert_int_equal(tree_words(&t, &none, out, sizeof(out), why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "eth0.7 has no address");
	/* A NIC with a name of its own and no address to rename it by. */
	tree_file(&t, "proc/net/route", ROUTE_HEADING
		  "lan0\t00000000\t" GW_HEX "\t0003\t0\t0\t0\t00000000\t0\t0\t0\n");
	assert_int_equal(tree_words(&t, &addr4, out, sizeof(out), why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "lan0 has no hardware address"));
	tree_remove(&t);
	/* No default route at all. */
	tree_make(&t);
	tree_file(&t, "proc/net/route", ROUTE_HEADING);
	assert_int_equal(tree_words(&t, &addr4, out, sizeof(out), why, sizeof(why)), -ENOENT);
	tree_remove(&t);
}

/* The words go before --append's in the capture's command line, the
 * running kernel's network words pass through. */
static void capture_cmdline_keeps_net_words(void **state)
{
	char out[1024];

	(void)state;
	assert_int_equal(kdump_load_capture_cmdline(
		"root=nfs:198.51.100.1:/r ifname=lan0:52:54:00:00:00:01 bond=bond0:lan0,lan1:mode=active-backup "
		"vlan=vlan5:bond0 bridge=br0:vlan5 ip=br0:dhcp crashkernel=256M",
		"ip=198.51.100.11::198.51.100.1:255.255.255.0::br0:none", out, sizeof(out)), 0);
	assert_string_equal(out,
		"root=nfs:198.51.100.1:/r ifname=lan0:52:54:00:00:00:01 bond=bond0:lan0,lan1:mode=active-backup "
		"vlan=vlan5:bond0 bridge=br0:vlan5 ip=br0:dhcp irqpoll nr_cpus=1 reset_devices "
		"ip=198.51.100.11::198.51.100.1:255.255.255.0::br0:none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(route4_default),
		cmocka_unit_test(route6_default),
		cmocka_unit_test(vlan_file),
		cmocka_unit_test(words_bridge_vlan_bond),
		cmocka_unit_test(words_ipv6_eth),
		cmocka_unit_test(words_refused),
		cmocka_unit_test(capture_cmdline_keeps_net_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
