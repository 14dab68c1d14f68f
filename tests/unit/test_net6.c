/* Unit tests: net/'s IPv6 parsers: ip= IPv6 forms, bracketed NFS servers and
 * nfs:// URLs, DHCPv6 messages, router advertisements, rtnetlink address
 * events, and net.IFACE.conf for IPv6. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_addr.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>

#include "net/config/ifstate.h"
#include "net/config/ipparam.h"
#include "net/ip6/addrwatch.h"
#include "net/ip6/dhcp6pkt.h"
#include "net/ip6/ra.h"
#include "net/nfs/nfsspec.h"
#include "tests/unit/net6_fixture.h"

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
#define XID 0xabcdefu

static const char *addr6_text(const struct in6_addr *a)
{
	static char buf[4][INET6_ADDRSTRLEN];
	static int n;

	n = (n + 1) % 4;
	return inet_ntop(AF_INET6, a, buf[n], sizeof(buf[n]));
}

/* ---- ip= ---- */

static void ip6_method_words(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("dhcp6", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP6);
	assert_int_equal(ip_param_parse("auto6", &c), 0);
	assert_int_equal(c.method, IP_METHOD_AUTO6);
	assert_int_equal(ip_param_parse("either6", &c), 0);
	assert_int_equal(c.method, IP_METHOD_EITHER6);
	assert_true(IP_METHOD_IS_V6(c.method));
	assert_int_equal(ip_param_parse("eth1:dhcp6", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP6);
	assert_string_equal(c.dev, "eth1");
	assert_int_equal(ip_param_parse(":::::eth2:auto6", &c), 0);
	assert_int_equal(c.method, IP_METHOD_AUTO6);
	assert_string_equal(c.dev, "eth2");
	assert_false(IP_METHOD_IS_V6(IP_METHOD_DHCP));
}

static void ip6_static_form(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("[2001:db8::11]:[2001:db8::1]:[2001:db8::fe]:64:guest:eth0:"
				       "none:[2001:db8::53]:[2001:db8::54]", &c), 0);
	assert_int_equal(c.method, IP_METHOD_STATIC6);
	assert_string_equal(addr6_text(&c.addr6), "2001:db8::11");
	assert_string_equal(addr6_text(&c.server6), "2001:db8::1");
	assert_string_equal(addr6_text(&c.gateway6), "2001:db8::fe");
	assert_int_equal(c.prefix6, 64);
	assert_string_equal(c.hostname, "guest");
	assert_string_equal(c.dev, "eth0");
	assert_string_equal(addr6_text(&c.dns6[0]), "2001:db8::53");
	assert_string_equal(addr6_text(&c.dns6[1]), "2001:db8::54");
	/* dracut's short form: no server, no prefix (64), MTU after none. */
	assert_int_equal(ip_param_parse("[2001:db8::11]::[fe80::1]:::eth0:none:1400", &c), 0);
	assert_int_equal(c.prefix6, 64);
	assert_int_equal(c.mtu, 1400);
	assert_string_equal(addr6_text(&c.gateway6), "fe80::1");
	assert_int_equal(ip_param_parse("[2001:db8::11]:::48", &c), 0);
	assert_int_equal(c.prefix6, 48);
	assert_int_equal(c.method, IP_METHOD_STATIC6);
}

static void ip6_malformed(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("[2001:db8::11", &c), -EINVAL);          /* not closed */
	assert_int_equal(ip_param_parse("[2001:db8::11]x::::eth0:none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("[198.51.100.1]::::::none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("[2001:db8::11]:::129::eth0:none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("[2001:db8::11]:::0::eth0:none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("[2001:db8::11]::2001:db8::1:64::eth0:none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("[2001:db8::11]:::::eth0:dhcp", &c), -EINVAL);  /* a v4 method */
	assert_int_equal(ip_param_parse("[2001:db8::11]:::::eth0:ibft", &c), -EOPNOTSUPP);
	assert_int_equal(ip_param_parse("[]::::eth0:none", &c), -EINVAL);
}

/* ---- NFS locations ---- */

static void nfs6_locations(void **state)
{
	struct nfs_spec s;
	char text[64], data[256], path[256];

	(void)state;
	assert_int_equal(nfs_spec_parse("nfs:[2001:db8::1]:/srv/root:vers=4.1", &s), 0);
	assert_int_equal(s.family, AF_INET6);
	assert_string_equal(addr6_text(&s.server6), "2001:db8::1");
	assert_string_equal(s.path, "/srv/root");
	assert_string_equal(s.options, "vers=4.1");
	assert_true(s.v4);
	assert_int_equal(nfs_spec_parse("[2001:db8::1]:/nfsroot", &s), 0);
	assert_true(nfs_spec_is_nfs_root("[2001:db8::1]:/nfsroot"));
	nfs_spec_server_text(&s, true, text, sizeof(text));
	assert_string_equal(text, "[2001:db8::1]");
	assert_int_equal(nfs_spec_mount_data(&s, "2001:db8::11", data, sizeof(data), path,
					     sizeof(path)), 0);
	assert_string_equal(data, "vers=3,addr=2001:db8::1,proto=tcp6,nolock");
	assert_int_equal(nfs_spec_parse("nfs4:[2001:db8::1]:/r", &s), 0);
	assert_int_equal(nfs_spec_mount_data(&s, "2001:db8::11", data, sizeof(data), path,
					     sizeof(path)), 0);
	assert_string_equal(data, "vers=4.2,addr=2001:db8::1,clientaddr=2001:db8::11,proto=tcp6");
	assert_int_equal(nfs_spec_parse("nfs:[2001:db8::1:/r", &s), -EINVAL);
	assert_int_equal(nfs_spec_parse("nfs:[nothex]:/r", &s), -EINVAL);
	assert_int_equal(nfs_spec_parse("nfs:[]:/r", &s), -EINVAL);
}

static void nfs_urls(void **state)
{
	struct nfs_spec s;

	(void)state;
	assert_int_equal(nfs_spec_parse("nfs://[2001:db8::1]/nfsroot", &s), 0);
	assert_int_equal(s.family, AF_INET6);
	assert_string_equal(s.path, "/nfsroot");
	assert_false(s.v4);
	assert_true(nfs_spec_is_nfs_root("nfs://[2001:db8::1]/nfsroot"));
	assert_int_equal(nfs_spec_parse("nfs4://198.51.100.1/srv/r", &s), 0);
	assert_int_equal(s.family, AF_INET);
	assert_true(s.v4);
	assert_string_equal(s.path, "/srv/r");
	assert_int_equal(nfs_spec_parse("nfs:///nfsroot", &s), -EINVAL);
	assert_int_equal(nfs_spec_parse("nfs://[2001:db8::1]", &s), -EINVAL);
	assert_int_equal(nfs_spec_parse("nfs://server.example/r", &s), -EOPNOTSUPP);
}

/* ---- DHCPv6 ---- */

static void dhcp6_reply_parsed(void **state)
{
	struct msg6 m;
	struct dhcp6_lease l;

	(void)state;
	msg6_make(&m, DHCP6_REPLY, XID, 0);
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID, mac, &l), 0);
	assert_int_equal(l.type, DHCP6_REPLY);
	assert_true(l.has_addr);
	assert_string_equal(addr6_text(&l.addr), "2001:db8::1b4");
	assert_int_equal(l.preferred_sec, 60);
	assert_int_equal(l.valid_sec, 120);
	assert_int_equal(l.status, DHCP6_STATUS_SUCCESS);
	assert_int_equal(l.server_duid_len, sizeof(server_duid));
	assert_memory_equal(l.server_duid, server_duid, sizeof(server_duid));
	assert_int_equal(l.n_dns, 2);
	assert_string_equal(addr6_text(&l.dns[1]), "2001:db8::54");
	assert_string_equal(l.domain, "lifeboat.test");
	assert_string_equal(l.boot_url, "nfs://[2001:db8::1]/nfsroot");
}

static void dhcp6_not_ours_dropped(void **state)
{
	struct msg6 m;
	struct dhcp6_lease l;
	uint8_t other[6] = { 0x52, 0x54, 0, 0, 0, 2 };

	(void)state;
	msg6_make(&m, DHCP6_REPLY, XID, 0);
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID + 1, mac, &l), -EINVAL);   /* xid */
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID, other, &l), -EINVAL);     /* client id */
	m.b[0] = DHCP6_SOLICIT;                                                 /* a client's */
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID, mac, &l), -EINVAL);
	msg6_make(&m, DHCP6_ADVERTISE, XID, 0);
	assert_int_equal(dhcp6pkt_parse(m.b, m.len - 1, XID, mac, &l), -EINVAL);   /* cut short */
	assert_int_equal(dhcp6pkt_parse(m.b, 3, XID, mac, &l), -EINVAL);
}

static void dhcp6_status_and_hostile(void **state)
{
	struct msg6 m;
	struct dhcp6_lease l;
	static const char bad_url[] = "nfs://x/$(reboot)";

	(void)state;
	msg6_make(&m, DHCP6_ADVERTISE, XID, 2);       /* NoAddrsAvail in the IAADDR */
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID, mac, &l), 0);
	assert_int_equal(l.status, 2);
	/* A URL with shell characters is dropped, the message kept. */
	msg6_make(&m, DHCP6_REPLY, XID, 0);
	m.len -= 4 + strlen("nfs://[2001:db8::1]/nfsroot");
	put_opt(&m, 59, bad_url, strlen(bad_url));
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID, mac, &l), 0);
	assert_string_equal(l.boot_url, "");
	/* No server id: not a server's answer. */
	memset(&m, 0, sizeof(m));
	m.b[0] = DHCP6_REPLY;
	m.b[3] = (uint8_t)XID;
	m.b[2] = (uint8_t)(XID >> 8);
	m.b[1] = (uint8_t)(XID >> 16);
	m.len = 4;
	put_opt(&m, 1, our_duid, sizeof(our_duid));
	assert_int_equal(dhcp6pkt_parse(m.b, m.len, XID, mac, &l), -EINVAL);
}

static void dhcp6_request_built(void **state)
{
	struct dhcp6_request req = { .type = DHCP6_SOLICIT, .xid = XID, .iaid = 7, .elapsed_cs = 100 };
	struct in6_addr want;
	uint8_t b[256];
	int len;

	(void)state;
	memcpy(req.mac, mac, 6);
	len = dhcp6pkt_build(&req, b, sizeof(b));
	assert_true(len > 4);
	assert_int_equal(b[0], DHCP6_SOLICIT);
	assert_int_equal(b[1] << 16 | b[2] << 8 | b[3], XID);
	assert_int_equal(b[4] << 8 | b[5], 1);                  /* client id first */
	assert_memory_equal(b + 8, our_duid, sizeof(our_duid));
	assert_null(memmem(b, (size_t)len, "\x00\x02\x00\x0e", 4));   /* no server id */
	/* The REQUEST names the server and the address advertised. */
	inet_pton(AF_INET6, "2001:db8::1b4", &want);
	req.type = DHCP6_REQUEST;
	req.server_duid = server_duid;
	req.server_duid_len = sizeof(server_duid);
	req.addr = &want;
	len = dhcp6pkt_build(&req, b, sizeof(b));
	assert_true(len > 0);
	assert_non_null(memmem(b, (size_t)len, server_duid, sizeof(server_duid)));
	assert_non_null(memmem(b, (size_t)len, &want, sizeof(want)));
	assert_int_equal(dhcp6pkt_build(&req, b, 20), -ENOSPC);
}

/* ---- router advertisements ---- */

static size_t ra_make(uint8_t *b, bool rdnss)
{
	size_t n = 16;

	memset(b, 0, 128);
	b[0] = 134;
	b[5] = 0x80;                /* M */
	b[6] = 0x07;                /* router lifetime 1800 */
	b[7] = 0x08;
	b[n] = 3;                   /* prefix information */
	b[n + 1] = 4;
	b[n + 2] = 64;
	b[n + 3] = 0xc0;            /* L, A */
	b[n + 7] = 200;
	inet_pton(AF_INET6, "2001:db8::", b + n + 16);
	n += 32;
	b[n] = 5;                   /* MTU */
	b[n + 1] = 1;
	b[n + 6] = 0x05;
	b[n + 7] = 0xdc;
	n += 8;
	if (rdnss) {
		b[n] = 25;
		b[n + 1] = 3;
		b[n + 7] = 60;
		inet_pton(AF_INET6, "2001:db8::53", b + n + 8);
		n += 24;
	}
	return n;
}

static void ra_parsed(void **state)
{
	uint8_t b[128];
	struct ra_info ra;
	size_t n = ra_make(b, true);

	(void)state;
	assert_int_equal(ra_parse(b, n, &ra), 0);
	assert_true(ra.managed);
	assert_false(ra.other);
	assert_int_equal(ra.router_lifetime, 1800);
	assert_int_equal(ra.mtu, 1500);
	assert_int_equal(ra.n_prefix, 1);
	assert_int_equal(ra.prefix[0].len, 64);
	assert_true(ra.prefix[0].on_link && ra.prefix[0].autonomous);
	assert_int_equal(ra.prefix[0].valid_sec, 200);
	assert_string_equal(addr6_text(&ra.prefix[0].prefix), "2001:db8::");
	assert_int_equal(ra.n_dns, 1);
	assert_string_equal(addr6_text(&ra.dns[0]), "2001:db8::53");
}

static void ra_malformed(void **state)
{
	uint8_t b[128];
	struct ra_info ra;
	size_t n = ra_make(b, true);

	(void)state;
	assert_int_equal(ra_parse(b, n - 1, &ra), -EINVAL);      /* an option cut off */
	b[16 + 1] = 0;                                            /* length 0 would loop */
	assert_int_equal(ra_parse(b, n, &ra), -EINVAL);
	n = ra_make(b, true);
	b[0] = 133;
	assert_int_equal(ra_parse(b, n, &ra), -EINVAL);
	assert_int_equal(ra_parse(b, 15, &ra), -EINVAL);
	/* RDNSS with lifetime 0 withdraws its servers. */
	n = ra_make(b, true);
	b[16 + 32 + 8 + 7] = 0;
	assert_int_equal(ra_parse(b, n, &ra), 0);
	assert_int_equal(ra.n_dns, 0);
}

static void ra_solicit(void **state)
{
	uint8_t b[16];

	(void)state;
	assert_int_equal(ra_solicit_build(NULL, b, sizeof(b)), 8);
	assert_int_equal(b[0], 133);
	assert_int_equal(ra_solicit_build(mac, b, sizeof(b)), 16);
	assert_int_equal(b[8], 1);
	assert_memory_equal(b + 10, mac, 6);
	assert_int_equal(ra_solicit_build(mac, b, 8), -ENOSPC);
}

/* ---- rtnetlink address events ---- */

static void addrwatch_events(void **state)
{
	uint8_t b[512];
	struct addr_event ev[2];
	size_t n = newaddr_make(b, 3, IFA_F_TENTATIVE, IFA_F_TENTATIVE);

	(void)state;
	n += newaddr_make(b + n, 3, 0, 0);
	assert_int_equal(addrwatch_parse(b, n, ev, 2), 2);
	assert_int_equal(ev[0].index, 3);
	assert_int_equal(ev[0].prefix, 64);
	assert_string_equal(addr6_text(&ev[0].addr), "2001:db8::1b4");
	assert_false(addrwatch_event_usable(&ev[0], 3, RT_SCOPE_UNIVERSE));   /* DAD running */
	assert_true(addrwatch_event_usable(&ev[1], 3, RT_SCOPE_UNIVERSE));
	assert_false(addrwatch_event_usable(&ev[1], 4, RT_SCOPE_UNIVERSE));
	assert_false(addrwatch_event_usable(&ev[1], 3, RT_SCOPE_LINK));
	/* IFA_FLAGS wins over the 8-bit ifa_flags: DAD failed. */
	n = newaddr_make(b, 3, 0, IFA_F_DADFAILED);
	assert_int_equal(addrwatch_parse(b, n, ev, 2), 1);
	assert_false(addrwatch_event_usable(&ev[0], 3, RT_SCOPE_UNIVERSE));
	assert_int_equal(addrwatch_parse(b, n - 1, ev, 2), -EINVAL);
	/* A prefix longer than an IPv6 address (found by fuzz_slaac_static6). */
	n = newaddr_make(b, 3, 0, 0);
	b[NLMSG_HDRLEN + 1] = 129;
	assert_int_equal(addrwatch_parse(b, n, ev, 2), -EINVAL);
}

/* ---- net.IFACE.conf ---- */

static void netconf6_written(void **state)
{
	struct link_info link = { .name = "eth0", .index = 2, .mac = { 0x52, 0x54, 0, 0, 0, 1 } };
	struct net6_conf c = { .method = "dhcp6", .prefix = 128, .n_dns = 1 };
	char buf[1024];

	(void)state;
	inet_pton(AF_INET6, "2001:db8::1b4", &c.addr);
	inet_pton(AF_INET6, "2001:db8::53", &c.dns[0]);
	snprintf(c.boot_url, sizeof(c.boot_url), "iscsi:user:secret@[2001:db8::1]::3260::iqn.x");
	assert_true(ifstate_format6(&link, &c, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "IFACE=eth0\nMAC=52:54:00:00:00:01\nMETHOD=dhcp6\n"));
	assert_non_null(strstr(buf, "ADDRESS6=2001:db8::1b4\nPREFIX6=128\n"));
	assert_non_null(strstr(buf, "DNS6_0=2001:db8::53\n"));
	assert_null(strstr(buf, "GATEWAY6="));
	assert_null(strstr(buf, "secret"));
	assert_int_equal(ifstate_format6(&link, &c, buf, 40), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ip6_method_words),
		cmocka_unit_test(ip6_static_form),
		cmocka_unit_test(ip6_malformed),
		cmocka_unit_test(nfs6_locations),
		cmocka_unit_test(nfs_urls),
		cmocka_unit_test(dhcp6_reply_parsed),
		cmocka_unit_test(dhcp6_not_ours_dropped),
		cmocka_unit_test(dhcp6_status_and_hostile),
		cmocka_unit_test(dhcp6_request_built),
		cmocka_unit_test(ra_parsed),
		cmocka_unit_test(ra_malformed),
		cmocka_unit_test(ra_solicit),
		cmocka_unit_test(addrwatch_events),
		cmocka_unit_test(netconf6_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
