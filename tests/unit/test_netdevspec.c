/* Unit tests: net/link/netdev_spec.c (vlan=, bond=, bridge=, ifname=, BOOTIF=)
 * and the command-line words that carry them (bootlib/cmdline.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <linux/if_link.h>
#include <string.h>

#include "init/bootargs.h"
#include "net/link/netdev_spec.h"

static char why[512];

static int parse(const char *word, struct netdev_spec *s)
{
	why[0] = '\0';
	return netdev_spec_parse(word, s, why, sizeof(why));
}

static void vlan_id_from_its_name(void **state)
{
	struct netdev_spec s;

	(void)state;
	assert_int_equal(parse("vlan=vlan5:eth0", &s), 0);
	assert_int_equal(s.kind, NETDEV_VLAN);
	assert_string_equal(s.name, "vlan5");
	assert_int_equal(s.vlan_id, 5);
	assert_int_equal(s.n_ports, 1);
	assert_string_equal(s.ports[0], "eth0");
	assert_int_equal(parse("vlan=vlan0100:bond0", &s), 0);
	assert_int_equal(s.vlan_id, 100);
	assert_int_equal(parse("vlan=eth0.4094:eth0", &s), 0);
	assert_int_equal(s.vlan_id, 4094);
	assert_string_equal(s.name, "eth0.4094");
}

static void vlan_refusals(void **state)
{
	static const char *const bad[] = {
		"vlan=vlan5", "vlan", "vlan=", "vlan=lan5:eth0", "vlan=vlan0:eth0",
		"vlan=eth0.4095:eth0", "vlan=vlan5:", "vlan=vlan5:eth0,eth1",
		"vlan=vlan-5:eth0", "vlan=averyveryverylongname.5:eth0", "vlan=vlan5:eth/0",
	};
	struct netdev_spec s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i], &s), -EINVAL);
		/* The message names the word and what was expected. */
		assert_non_null(strstr(why, bad[i]));
		assert_non_null(strstr(why, "expected vlan=NAME:PARENT"));
	}
}

static void bond_with_options_and_mtu(void **state)
{
	struct netdev_spec s;

	(void)state;
	assert_int_equal(parse("bond=bond0:eth0,eth1:mode=active-backup,miimon=100,"
			       "primary=eth1,xmit_hash_policy=layer3+4:9000", &s), 0);
	assert_int_equal(s.kind, NETDEV_BOND);
	assert_string_equal(s.name, "bond0");
	assert_int_equal(s.n_ports, 2);
	assert_string_equal(s.ports[1], "eth1");
	assert_int_equal(s.mtu, 9000);
	assert_string_equal(s.primary, "eth1");
	assert_int_equal(s.n_opts, 3);
	assert_int_equal(s.opts[0].attr, IFLA_BOND_MODE);
	assert_int_equal(s.opts[0].size, 1);
	assert_int_equal(s.opts[0].value, 1);
	assert_int_equal(s.opts[1].attr, IFLA_BOND_MIIMON);
	assert_int_equal(s.opts[1].size, 4);
	assert_int_equal(s.opts[1].value, 100);
	assert_int_equal(s.opts[2].attr, IFLA_BOND_XMIT_HASH_POLICY);
	assert_int_equal(s.opts[2].value, 1);
	/* Numbers for names, as the kernel's sysfs takes them. */
	assert_int_equal(parse("bond=bond1:eth2:mode=4", &s), 0);
	assert_int_equal(s.opts[0].value, 4);
}

static void bond_and_bridge_defaults(void **state)
{
	struct netdev_spec s;

	(void)state;
	assert_int_equal(parse("bond", &s), 0);
	assert_string_equal(s.name, "bond0");
	assert_int_equal(s.n_ports, 2);
	assert_string_equal(s.ports[0], "eth0");
	assert_int_equal(s.n_opts, 1);
	assert_int_equal(s.opts[0].value, 0);   /* balance-rr */
	assert_int_equal(parse("bond=bond3", &s), 0);
	assert_string_equal(s.name, "bond3");
	assert_int_equal(s.n_ports, 2);
	assert_int_equal(parse("bridge", &s), 0);
	assert_string_equal(s.name, "br0");
	assert_int_equal(s.n_ports, 1);
	assert_string_equal(s.ports[0], "eth0");
	assert_int_equal(parse("bridge=br1:eth0,bond0,vlan5", &s), 0);
	assert_int_equal(s.kind, NETDEV_BRIDGE);
	assert_int_equal(s.n_ports, 3);
	assert_string_equal(s.ports[2], "vlan5");
}

static void bond_refusals(void **state)
{
	struct netdev_spec s;

	(void)state;
	assert_int_equal(parse("bond=bond0:eth0:mode=fastest", &s), -EINVAL);
	assert_non_null(strstr(why, "bond option 'mode=fastest' is malformed"));
	assert_int_equal(parse("bond=bond0:eth0:speed=10", &s), -EINVAL);
	assert_non_null(strstr(why, "'speed=10' is not one lifeboat knows"));
	assert_non_null(strstr(why, "expected bond=NAME"));
	assert_int_equal(parse("bond=bond0:eth0:miimon", &s), -EINVAL);
	assert_int_equal(parse("bond=bond0:eth0:lacp_rate=256", &s), -EINVAL);
	assert_int_equal(parse("bond=bond0:eth0:mode=1:20", &s), -EINVAL);      /* MTU < 68 */
	assert_int_equal(parse("bond=bond0:eth0:mode=1:70000", &s), -EINVAL);
	assert_int_equal(parse("bond=bond0:eth0,,eth1", &s), -EINVAL);
	assert_int_equal(parse("bond=bond0:a,b,c,d,e,f,g,h,i", &s), -EINVAL);   /* > 8 slaves */
	assert_int_equal(parse("bond=:eth0", &s), -EINVAL);
	assert_int_equal(parse("bridge=br0:", &s), -EINVAL);
	assert_non_null(strstr(why, "expected bridge=NAME"));
	assert_int_equal(parse("team=team0:eth0", &s), -EINVAL);
	assert_non_null(strstr(why, "'team=team0:eth0' is not a vlan="));
}

static void ifname_and_bootif(void **state)
{
	static const uint8_t want[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };
	struct netdev_spec s;
	uint8_t mac[6];

	(void)state;
	assert_int_equal(parse("ifname=lan0:52:54:00:AB:cd:ef", &s), 0);
	assert_int_equal(s.kind, NETDEV_IFNAME);
	assert_string_equal(s.name, "lan0");
	assert_memory_equal(s.mac, want, 6);
	assert_int_equal(parse("ifname=lan0:52:54:00:ab:cd", &s), -EINVAL);
	assert_non_null(strstr(why, "expected ifname=NAME:MAC"));
	assert_int_equal(parse("ifname=lan0:52:54:00:ab:cd:ef:00", &s), -EINVAL);
	assert_int_equal(parse("ifname=lan0:5:54:00:ab:cd:ef", &s), -EINVAL);
	assert_int_equal(parse("ifname=lan0", &s), -EINVAL);
	assert_int_equal(netdev_spec_bootif_parse("01-52-54-00-ab-cd-ef", mac), 0);
	assert_memory_equal(mac, want, 6);
	assert_int_equal(netdev_spec_bootif_parse("52:54:00:ab:cd:ef", mac), 0);
	assert_memory_equal(mac, want, 6);
	assert_int_equal(netdev_spec_bootif_parse("06-52-54-00-ab-cd-ef", mac), -EINVAL);
	assert_int_equal(netdev_spec_bootif_parse("01-52-54-00-ab-c", mac), -EINVAL);
	assert_int_equal(netdev_spec_bootif_parse("", mac), -EINVAL);
}

static void names_the_kernel_takes(void **state)
{
	(void)state;
	assert_true(netdev_spec_name_valid("eth0.5"));
	assert_true(netdev_spec_name_valid("abcdefghijklmno"));     /* 15 */
	assert_false(netdev_spec_name_valid("abcdefghijklmnop"));   /* 16 */
	assert_false(netdev_spec_name_valid(""));
	assert_false(netdev_spec_name_valid(".."));
	assert_false(netdev_spec_name_valid("a b"));
	assert_false(netdev_spec_name_valid("a/b"));
}

/* The words reach net/ whole, in order, once each; BOOTIF= and rd.bootif=. */
static void cmdline_carries_the_words(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("vlan=vlan5:bond0 bond=bond0:eth0,eth1:mode=1 "
				       "bridge=br0:vlan5 ifname=lan0:52:54:00:00:00:01 "
				       "BOOTIF=01-52-54-00-00-00-01 rd.net.timeout.iflink=7", NULL, &a), 0);
	assert_int_equal(bootargs_parse("vlan=vlan5:bond0 rd.bootif=0", NULL, &a), 0);
	assert_int_equal(a.net.netdevs.len, 4);
	assert_string_equal(a.net.netdevs.items[0], "vlan=vlan5:bond0");
	assert_string_equal(a.net.netdevs.items[1], "bond=bond0:eth0,eth1:mode=1");
	assert_string_equal(a.net.netdevs.items[2], "bridge=br0:vlan5");
	assert_string_equal(a.net.netdevs.items[3], "ifname=lan0:52:54:00:00:00:01");
	assert_string_equal(a.net.bootif, "01-52-54-00-00-00-01");
	assert_true(a.net.bootif_ignored);
	assert_int_equal(a.net.timeout_iflink, 7);
	assert_int_equal(bootargs_parse("rd.bootif=1 bond", NULL, &a), 0);
	assert_false(a.net.bootif_ignored);
	assert_string_equal(a.net.netdevs.items[4], "bond");
	assert_int_equal(bootargs_parse("rd.net.timeout.iflink=soon", NULL, &a), -EINVAL);
	assert_int_equal(a.net.timeout_iflink, 7);
	bootargs_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vlan_id_from_its_name),
		cmocka_unit_test(vlan_refusals),
		cmocka_unit_test(bond_with_options_and_mtu),
		cmocka_unit_test(bond_and_bridge_defaults),
		cmocka_unit_test(bond_refusals),
		cmocka_unit_test(ifname_and_bootif),
		cmocka_unit_test(names_the_kernel_takes),
		cmocka_unit_test(cmdline_carries_the_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
