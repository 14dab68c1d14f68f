/* Unit tests: rescue/netreport.c, the rescue report's interfaces and routes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rescue/netreport.h"

static void ipv4_routes_in_the_kernels_byte_order(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(netreport_route4("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric"
					  "\tMask\t\tMTU\tWindow\tIRTT", out, sizeof(out)), -EINVAL);
	assert_int_equal(netreport_route4("eth0\t00000000\t016433C6\t0003\t0\t0\t0\t00000000"
					  "\t0\t0\t0", out, sizeof(out)), 0);
	assert_string_equal(out, "0.0.0.0/0 via 198.51.100.1 dev eth0 metric 0");
	assert_int_equal(netreport_route4("bond0\t006433C6\t00000000\t0001\t0\t0\t100\t00FFFFFF"
					  "\t0\t0\t0", out, sizeof(out)), 0);
	assert_string_equal(out, "198.51.100.0/24 via - dev bond0 metric 100");
	assert_int_equal(netreport_route4("eth0 0000", out, sizeof(out)), -EINVAL);
}

static void ipv6_routes(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(netreport_route6("20010db8000000000000000000000000 20 "
					  "00000000000000000000000000000000 00 "
					  "00000000000000000000000000000000 00000100 00000001 "
					  "00000000 00000001     vlan5", out, sizeof(out)), 0);
	assert_string_equal(out, "2001:db8::/32 via - dev vlan5 metric 256");
	assert_int_equal(netreport_route6("00000000000000000000000000000000 00 "
					  "00000000000000000000000000000000 00 "
					  "20010db8000000000000000000000001 00000400 00000002 "
					  "00000000 00000003     eth0", out, sizeof(out)), 0);
	assert_string_equal(out, "::/0 via 2001:db8::1 dev eth0 metric 1024");
	assert_int_equal(netreport_route6("2001 20 x", out, sizeof(out)), -EINVAL);
	assert_int_equal(netreport_route6("20010db800000000000000000000000z 20 "
					  "00000000000000000000000000000000 00 "
					  "00000000000000000000000000000000 00000100 00000001 "
					  "00000000 00000001 eth0", out, sizeof(out)), -EINVAL);
}

/* On the machine running the tests: lo is listed with its address, and both
 * route tables have their heading. */
static void lists_this_machines_interfaces(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	netreport_write(f);
	fclose(f);
	assert_non_null(strstr(text, "lo: 00:00:00:00:00:00 mtu "));
	assert_non_null(strstr(text, "    inet 127.0.0.1/8\n"));
	assert_non_null(strstr(text, "routes (IPv4):\n"));
	assert_non_null(strstr(text, "routes (IPv6):\n"));
	free(text);
}

/* The summary's lease: the keys that say where the address came from, in
 * one line, whatever order the file has them in. */
static void lease_keys_in_one_line(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(netreport_lease("IFACE=eth0\nMAC=52:54:00:00:00:01\nMETHOD=dhcp\n"
					 "ADDRESS=198.51.100.11\nNETMASK=255.255.255.0\n"
					 "GATEWAY=198.51.100.1\nSERVER_ID=198.51.100.1\n", out,
					 sizeof(out)), 4);
	assert_string_equal(out, "METHOD=dhcp ADDRESS=198.51.100.11 SERVER_ID=198.51.100.1 "
			    "GATEWAY=198.51.100.1");
	assert_int_equal(netreport_lease("ADDRESS6=2001:db8::1b4\nMETHOD=dhcp6", out, sizeof(out)), 2);
	assert_string_equal(out, "METHOD=dhcp6 ADDRESS6=2001:db8::1b4");
	assert_int_equal(netreport_lease("IFACE=eth0\nXADDRESS=1\n", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* Cut where it no longer fits, never past out. */
	assert_int_equal(netreport_lease("METHOD=dhcp\nADDRESS=198.51.100.11\n", out, 16), 1);
	assert_string_equal(out, "METHOD=dhcp");
}

/* The failure summary of a network root: no lo, and each interface's lease
 * or "no lease". */
static void summary_leaves_out_lo(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	netreport_summary(f, "/nonexistent");
	fclose(f);
	assert_null(strstr(text, "  lo "));
	assert_true(strstr(text, "    no lease\n") || strstr(text, "(none: the NIC's driver"));
	assert_null(strstr(text, "/dev/"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipv4_routes_in_the_kernels_byte_order),
		cmocka_unit_test(ipv6_routes),
		cmocka_unit_test(lists_this_machines_interfaces),
		cmocka_unit_test(lease_keys_in_one_line),
		cmocka_unit_test(summary_leaves_out_lo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
