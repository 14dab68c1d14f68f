/* Unit tests: net/ parsers: ip=, NFS root locations, DHCP packets, net.IFACE.conf. */
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

#include "bootlib/clock.h"
#include "init/bootargs.h"
#include "init/boot_plan.h"
#include "net/config/ifstate.h"
#include "net/config/ifup.h"
#include "net/config/ipparam.h"
#include "net/dhcp4/dhcppkt.h"
#include "net/net.h"
#include "net/nfs/nfsspec.h"

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
#define XID 0x1234abcdu

static const char *addr_text(struct in_addr a)
{
	static char buf[4][INET_ADDRSTRLEN];
	static int n;

	n = (n + 1) % 4;
	return inet_ntop(AF_INET, &a, buf[n], sizeof(buf[n]));
}

/* ---- ip= ---- */

static void ip_single_words(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("dhcp", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP);
	assert_string_equal(c.dev, "");
	assert_int_equal(ip_param_parse("on", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP);
	assert_int_equal(ip_param_parse("off", &c), 0);
	assert_int_equal(c.method, IP_METHOD_OFF);
	assert_int_equal(ip_param_parse("link6", &c), -EOPNOTSUPP);
	assert_int_equal(ip_param_parse("ibft", &c), -EOPNOTSUPP);
	assert_int_equal(ip_param_parse("sometimes", &c), -EINVAL);
	assert_int_equal(ip_param_parse("", &c), -EINVAL);
}

static void ip_dracut_interface_form(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("eth1:dhcp", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP);
	assert_string_equal(c.dev, "eth1");
	assert_int_equal(ip_param_parse("enp0s3:dhcp:9000:52:54:00:12:34:56", &c), 0);
	assert_int_equal(c.mtu, 9000);
	assert_int_equal(ip_param_parse("eth0:dhcp:12", &c), -EINVAL);       /* MTU below 68 */
	assert_int_equal(ip_param_parse("eth0:link6", &c), -EOPNOTSUPP);
	assert_int_equal(ip_param_parse("averyveryverylongname0:dhcp", &c), -EINVAL);
}

static void ip_kernel_static_form(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("198.51.100.21:198.51.100.1:198.51.100.254:255.255.255.0:"
				       "guest:eth0:none:198.51.100.53:198.51.100.54", &c), 0);
	assert_int_equal(c.method, IP_METHOD_STATIC);
	assert_string_equal(addr_text(c.addr), "198.51.100.21");
	assert_string_equal(addr_text(c.server), "198.51.100.1");
	assert_string_equal(addr_text(c.gateway), "198.51.100.254");
	assert_int_equal(ip_param_mask_prefix(c.netmask), 24);
	assert_string_equal(c.hostname, "guest");
	assert_string_equal(c.dev, "eth0");
	assert_string_equal(addr_text(c.dns[0]), "198.51.100.53");
	assert_string_equal(addr_text(c.dns[1]), "198.51.100.54");
	/* No autoconf word with an address: static, with the class mask. */
	assert_int_equal(ip_param_parse("10.1.2.3::::", &c), 0);
	assert_int_equal(c.method, IP_METHOD_STATIC);
	assert_int_equal(ip_param_mask_prefix(c.netmask), 8);
	assert_int_equal(ip_param_parse("172.16.0.9:::::eth0:off", &c), 0);
	assert_int_equal(ip_param_mask_prefix(c.netmask), 16);
	/* dracut's MTU after autoconf. */
	assert_int_equal(ip_param_parse("198.51.100.21::198.51.100.1:255.255.255.0::eth0:none:1400", &c), 0);
	assert_int_equal(c.mtu, 1400);
	/* No address: autoconfiguration fills what is missing. */
	assert_int_equal(ip_param_parse(":198.51.100.1::::eth0:dhcp", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP);
	assert_string_equal(addr_text(c.server), "198.51.100.1");
}

static void ip_malformed(void **state)
{
	struct ip_param c;

	(void)state;
	assert_int_equal(ip_param_parse("198.51.100.300::::::none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("198.51.100.2:::255.0.255.0:::none", &c), -EINVAL);
	assert_int_equal(ip_param_parse("198.51.100.2::::::bogus", &c), -EINVAL);
	assert_int_equal(ip_param_parse("198.51.100.2::::::none:notanaddress", &c), -EINVAL);
	assert_int_equal(ip_param_parse("[2001:db8::1::::::none", &c), -EINVAL);
	assert_int_equal(ip_param_parse(":::::::::::::::::::::::::::::::", &c), 0);
	assert_int_equal(c.method, IP_METHOD_DHCP);
}

/* ---- NFS locations ---- */

static void nfs_dracut_forms(void **state)
{
	struct nfs_spec s;

	(void)state;
	assert_int_equal(nfs_spec_parse("nfs:198.51.100.1:/srv/root:vers=3,rsize=8192", &s), 0);
	assert_string_equal(addr_text(s.server), "198.51.100.1");
	assert_string_equal(s.path, "/srv/root");
	assert_string_equal(s.options, "vers=3,rsize=8192");
	assert_false(s.v4);
	assert_int_equal(nfs_spec_parse("nfs4:198.51.100.1:/", &s), 0);
	assert_true(s.v4);
	assert_string_equal(s.path, "/");
	assert_int_equal(nfs_spec_parse("198.51.100.1:/nfsroot,vers=4.2", &s), 0);   /* root-path form */
	assert_string_equal(s.path, "/nfsroot");
	assert_true(s.v4);
	assert_int_equal(nfs_spec_parse("nfs:/only/path", &s), 0);
	assert_int_equal(s.server.s_addr, 0);
	assert_int_equal(nfs_spec_parse("nfs:server.example:/x", &s), -EOPNOTSUPP);
	assert_int_equal(nfs_spec_parse("nfs:[2001:db8::1:/x", &s), -EINVAL);
	assert_int_equal(nfs_spec_parse("nfs:198.51.100.1", &s), -EINVAL);
	assert_int_equal(nfs_spec_parse("nfs:198.51.100.1/x", &s), -EINVAL);
}

static void nfs_kernel_nfsroot(void **state)
{
	struct nfs_spec s;

	(void)state;
	assert_int_equal(nfs_spec_parse_nfsroot("198.51.100.1:/tftpboot/%s,vers=3,port=2049", &s), 0);
	assert_string_equal(s.path, "/tftpboot/%s");
	assert_string_equal(s.options, "vers=3,port=2049");
	/* The kernel's form keeps ':' in the path. */
	assert_int_equal(nfs_spec_parse_nfsroot("/a:b", &s), 0);
	assert_string_equal(s.path, "/a:b");
}

static void nfs_root_detection(void **state)
{
	(void)state;
	assert_true(nfs_spec_is_nfs_root("nfs:198.51.100.1:/x"));
	assert_true(nfs_spec_is_nfs_root("nfs4:/x"));
	assert_true(nfs_spec_is_nfs_root("198.51.100.1:/x"));
	assert_false(nfs_spec_is_nfs_root("/dev/vda1"));
	assert_false(nfs_spec_is_nfs_root("8:2"));
	assert_false(nfs_spec_is_nfs_root("UUID=1234"));
	assert_false(nfs_spec_is_nfs_root(":/x"));
	assert_false(nfs_spec_is_nfs_root("LABEL=a:/b"));
}

static void nfs_mount_options(void **state)
{
	struct nfs_spec s;
	const char *me = "198.51.100.11";
	char data[256], path[256];

	(void)state;
	assert_int_equal(nfs_spec_parse_nfsroot("198.51.100.1:/tftpboot/%s", &s), 0);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "vers=3,addr=198.51.100.1,proto=tcp,nolock");
	assert_string_equal(path, "/tftpboot/198.51.100.11");
	assert_int_equal(nfs_spec_parse("nfs4:198.51.100.1:/r:vers=4.1", &s), 0);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "addr=198.51.100.1,clientaddr=198.51.100.11,proto=tcp,vers=4.1");
	assert_int_equal(nfs_spec_mount_data(&s, me, data, 20, path, sizeof(path)), -ENAMETOOLONG);
	/* No version named: NFSv4.2 first, then what the mount steps down to. */
	assert_int_equal(nfs_spec_parse("nfs4:198.51.100.1:/r", &s), 0);
	assert_int_equal(s.v4_minor, 2);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "vers=4.2,addr=198.51.100.1,clientaddr=198.51.100.11,proto=tcp");
	s.v4_minor = 0;
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "vers=4.0,addr=198.51.100.1,clientaddr=198.51.100.11,proto=tcp");
}

/* The user's options replace the defaults they name: each says once. */
static void nfs_mount_options_once(void **state)
{
	struct nfs_spec s;
	const char *me = "198.51.100.11";
	char data[256], path[256];

	(void)state;
	assert_int_equal(nfs_spec_parse("198.51.100.1:/srv/root:vers=3,nolock", &s), 0);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "addr=198.51.100.1,proto=tcp,vers=3,nolock");
	assert_int_equal(nfs_spec_parse("198.51.100.1:/r:nfsvers=3,lock,udp", &s), 0);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "addr=198.51.100.1,nfsvers=3,lock,udp");
	assert_int_equal(nfs_spec_parse("nfs4:198.51.100.1:/r:v4.1,proto=tcp,clientaddr=1.2.3.4", &s),
			 0);
	/* The user's version is not stepped down from. */
	assert_int_equal(s.v4_minor, -1);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "addr=198.51.100.1,v4.1,proto=tcp,clientaddr=1.2.3.4");
	/* A word that only begins like a default's is not it. */
	assert_int_equal(nfs_spec_parse("198.51.100.1:/r:lookupcache=none,version", &s), 0);
	assert_int_equal(nfs_spec_mount_data(&s, me, data, sizeof(data), path, sizeof(path)), 0);
	assert_string_equal(data, "vers=3,addr=198.51.100.1,proto=tcp,nolock,lookupcache=none,version");
}

/* ---- DHCP ---- */

struct reply {
	uint8_t b[DHCP_PACKET_MAX];
	size_t len;
};

static uint16_t csum(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* A server's reply: IPv4 + UDP 67->68 + BOOTREPLY with the options given. */
static void reply_make(struct reply *r, uint32_t xid, const uint8_t *opts, size_t olen,
		       bool udp_sum)
{
	uint8_t *ip = r->b, *udp = ip + 20, *m = udp + 8;
	size_t mlen = 240 + olen, total = 28 + mlen;
	uint16_t s;

	memset(r->b, 0, sizeof(r->b));
	ip[0] = 0x45;
	ip[2] = (uint8_t)(total >> 8);
	ip[3] = (uint8_t)total;
	ip[8] = 64;
	ip[9] = 17;
	inet_pton(AF_INET, "198.51.100.1", ip + 12);
	memset(ip + 16, 0xff, 4);
	s = csum(0, ip, 20);
	ip[10] = (uint8_t)(s >> 8);
	ip[11] = (uint8_t)s;
	udp[1] = 67;
	udp[3] = 68;
	udp[4] = (uint8_t)((total - 20) >> 8);
	udp[5] = (uint8_t)(total - 20);
	m[0] = 2;
	m[1] = 1;
	m[2] = 6;
	m[4] = (uint8_t)(xid >> 24);
	m[5] = (uint8_t)(xid >> 16);
	m[6] = (uint8_t)(xid >> 8);
	m[7] = (uint8_t)xid;
	inet_pton(AF_INET, "198.51.100.11", m + 16);
	inet_pton(AF_INET, "198.51.100.2", m + 20);
	memcpy(m + 28, mac, 6);
	m[236] = 99;
	m[237] = 130;
	m[238] = 83;
	m[239] = 99;
	memcpy(m + 240, opts, olen);
	if (udp_sum) {
		uint32_t pseudo = 17 + (uint32_t)(total - 20);

		for (int i = 12; i < 20; i += 2)
			pseudo += (uint32_t)(ip[i] << 8 | ip[i + 1]);
		s = csum(pseudo, udp, total - 20);
		udp[6] = (uint8_t)(s >> 8);
		udp[7] = (uint8_t)s;
	}
	r->len = total;
}

static const uint8_t ack_opts[] = {
	53, 1, 5,
	54, 4, 198, 51, 100, 1,
	1, 4, 255, 255, 255, 0,
	3, 8, 198, 51, 100, 254, 198, 51, 100, 253,
	6, 8, 198, 51, 100, 53, 198, 51, 100, 54,
	12, 5, 'g', 'u', 'e', 's', 't',
	15, 13, 'l', 'i', 'f', 'e', 'b', 'o', 'a', 't', '.', 't', 'e', 's', 't',
	17, 22, '1', '9', '8', '.', '5', '1', '.', '1', '0', '0', '.', '1', ':', '/', 'n', 'f', 's',
		'r', 'o', 'o', 't', '\0',
	26, 2, 0x05, 0xdc,
	51, 4, 0, 0, 0x0e, 0x10,
	255,
};

static void dhcp_ack_parsed(void **state)
{
	struct reply r;
	struct dhcp_lease l;

	(void)state;
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), true);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	assert_int_equal(l.type, DHCP_ACK);
	assert_string_equal(addr_text(l.addr), "198.51.100.11");
	assert_string_equal(addr_text(l.siaddr), "198.51.100.2");
	assert_string_equal(addr_text(l.server_id), "198.51.100.1");
	assert_string_equal(addr_text(l.router), "198.51.100.254");
	assert_int_equal(l.n_dns, 2);
	assert_string_equal(addr_text(l.dns[1]), "198.51.100.54");
	assert_string_equal(l.hostname, "guest");
	assert_string_equal(l.domain, "lifeboat.test");
	assert_string_equal(l.root_path, "198.51.100.1:/nfsroot");
	assert_int_equal(l.mtu, 1500);
	assert_int_equal(l.lease_sec, 3600);
	/* The same without a UDP checksum (0 means none). */
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
}

static void dhcp_not_ours_dropped(void **state)
{
	struct reply r;
	struct dhcp_lease l;
	uint8_t other[6] = { 2, 0, 0, 0, 0, 9 };

	(void)state;
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), true);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID + 1, mac, &l), -EINVAL);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, other, &l), -EINVAL);
	r.b[20 + 3] = 67;                          /* to the server's port */
	assert_int_equal(dhcppkt_parse(r.b, r.len, false, XID, mac, &l), -EINVAL);
}

static void dhcp_corrupt_dropped(void **state)
{
	struct reply r;
	struct dhcp_lease l;

	(void)state;
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), true);
	r.b[28 + 240 + 20] ^= 1;                   /* a byte inside the options */
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), -EINVAL);
	/* Offloaded checksums are not checked. */
	assert_int_equal(dhcppkt_parse(r.b, r.len, false, XID, mac, &l), 0);
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), true);
	r.b[8] = 1;                                /* TTL: IP header checksum now wrong */
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), -EINVAL);
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), false);
	for (size_t n = 0; n < r.len; n++)         /* every truncation */
		assert_int_equal(dhcppkt_parse(r.b, n, true, XID, mac, &l), -EINVAL);
}

static void dhcp_hostile_options(void **state)
{
	/* A length past the end, an unsafe root path, a wrong-size mask, no
	 * message type after the end. */
	static const uint8_t past_end[] = { 53, 1, 2, 17, 200, '/', 'x' };
	static const uint8_t unsafe[] = { 53, 1, 2, 17, 9, '/', 'x', '\n', 'E', 'V', 'I', 'L', '=', '1',
					  12, 4, 'a', ' ', 'b', 'c', 1, 3, 255, 255, 255, 255 };
	static const uint8_t type_after_end[] = { 255, 53, 1, 2 };
	struct reply r;
	struct dhcp_lease l;

	(void)state;
	reply_make(&r, XID, past_end, sizeof(past_end), false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	assert_int_equal(l.type, DHCP_OFFER);
	assert_string_equal(l.root_path, "");
	reply_make(&r, XID, unsafe, sizeof(unsafe), false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	assert_string_equal(l.root_path, "");
	assert_string_equal(l.hostname, "");
	assert_int_equal(l.netmask.s_addr, 0);
	reply_make(&r, XID, type_after_end, sizeof(type_after_end), false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), -EINVAL);
}

static void dhcp_overload_options(void **state)
{
	/* Option 52 = 1: more options in the 'file' field. */
	static const uint8_t opts[] = { 53, 1, 5, 52, 1, 1, 255 };
	static const uint8_t in_file[] = { 17, 6, '/', 'r', 'o', 'o', 't', '2', 255 };
	struct reply r;
	struct dhcp_lease l;

	(void)state;
	reply_make(&r, XID, opts, sizeof(opts), false);
	memcpy(r.b + 28 + 108, in_file, sizeof(in_file));
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	assert_string_equal(l.root_path, "/root2");
}

static void dhcp_request_built(void **state)
{
	struct dhcp_request req = { .type = DHCP_REQUEST, .xid = XID, .hostname = "guest" };
	uint8_t buf[DHCP_PACKET_MAX];
	int len;
	const uint8_t *m = buf + 28;
	bool vendor = false, asks_root = false;

	(void)state;
	memcpy(req.mac, mac, 6);
	inet_pton(AF_INET, "198.51.100.11", &req.requested);
	inet_pton(AF_INET, "198.51.100.1", &req.server_id);
	len = dhcppkt_build(&req, buf, sizeof(buf));
	assert_true(len >= 28 + 300);
	assert_int_equal(csum(0, buf, 20), 0);                 /* IP header checksum */
	assert_int_equal(buf[20 + 1], 68);
	assert_int_equal(buf[20 + 3], 67);
	assert_int_equal(m[0], 1);
	assert_memory_equal(m + 28, mac, 6);
	for (int i = 240; i < len - 28 && m[i] != 255; i += 2 + m[i + 1]) {
		if (m[i] == 0) {
			i -= 1;
			continue;
		}
		if (m[i] == 60)
			vendor = m[i + 1] == 8 && memcmp(m + i + 2, "lifeboat", 8) == 0;
		if (m[i] == 55)
			asks_root = memchr(m + i + 2, 17, m[i + 1]) != NULL;
	}
	assert_true(vendor);
	assert_true(asks_root);
	assert_int_equal(dhcppkt_build(&req, buf, 100), -ENOSPC);
}

/* ---- net.IFACE.conf, command line ---- */

static void netconf_written(void **state)
{
	struct link_info link = { .name = "eth0", .index = 2, .mac = { 0x52, 0x54, 0, 0, 0, 1 } };
	struct dhcp_lease l;
	struct reply r;
	char buf[1024];

	(void)state;
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	assert_true(ifstate_format(&link, "dhcp", &l, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "IFACE=eth0\nMAC=52:54:00:00:00:01\nMETHOD=dhcp\n"));
	assert_non_null(strstr(buf, "ADDRESS=198.51.100.11\nNETMASK=255.255.255.0\nPREFIX=24\n"));
	assert_non_null(strstr(buf, "GATEWAY=198.51.100.254\n"));
	assert_non_null(strstr(buf, "DNS1=198.51.100.54\n"));
	assert_non_null(strstr(buf, "ROOT_PATH=198.51.100.1:/nfsroot\n"));
	assert_non_null(strstr(buf, "LEASE_SECONDS=3600\n"));
	assert_int_equal(ifstate_format(&link, "dhcp", &l, buf, 40), -ENOSPC);
}

static void file_text(const char *path, char *text, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, size - 1, f);
	text[n] = '\0';
	fclose(f);
}

static void netconf_files_written(void **state)
{
	struct link_info link = { .name = "eth0", .index = 2, .mac = { 0x52, 0x54, 0, 0, 0, 1 } };
	char dir[] = "/tmp/lifeboat-netconf-XXXXXX", path[128], text[1024];
	struct dhcp_lease l;
	struct reply r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	reply_make(&r, XID, ack_opts, sizeof(ack_opts), false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	snprintf(path, sizeof(path), "%s/resolv.conf", dir);
	assert_int_equal(ifstate_write(dir, path, &link, "dhcp", &l), 0);
	file_text(path, text, sizeof(text));
	assert_non_null(strstr(text, "search lifeboat.test\nnameserver 198.51.100.53\n"
				     "nameserver 198.51.100.54\n"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/net.eth0.conf", dir);
	file_text(path, text, sizeof(text));
	assert_non_null(strstr(text, "ADDRESS=198.51.100.11\n"));
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* A DHCP root-path with CHAP credentials: net.IFACE.conf keeps the target
 * but not them, and is the owner's only even where a readable one was. */
static void netconf_chap_root_path(void **state)
{
	static const char rp[] = "iscsi:alice:Chap-Secret-4173@198.51.100.1::::iqn.2026-02.x:chap";
	struct link_info link = { .name = "eth0", .index = 2, .mac = { 0x52, 0x54, 0, 0, 0, 1 } };
	char dir[] = "/tmp/lifeboat-netconf-XXXXXX", path[128], tmp[160], text[1024];
	uint8_t opts[sizeof(rp) + 32] = { 53, 1, 5, 54, 4, 198, 51, 100, 1, 17, sizeof(rp) - 1 };
	struct dhcp_lease l;
	struct reply r;
	struct stat st;

	(void)state;
	memcpy(opts + 11, rp, sizeof(rp) - 1);
	opts[11 + sizeof(rp) - 1] = 255;
	reply_make(&r, XID, opts, 12 + sizeof(rp) - 1, false);
	assert_int_equal(dhcppkt_parse(r.b, r.len, true, XID, mac, &l), 0);
	assert_string_equal(l.root_path, rp);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/net.eth0.conf", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fclose(fopen(path, "w"));
	fclose(fopen(tmp, "w"));
	assert_int_equal(chmod(path, 0644) | chmod(tmp, 0644), 0);
	assert_int_equal(ifstate_write(dir, "/nonexistent/resolv.conf", &link, "dhcp", &l), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	file_text(path, text, sizeof(text));
	assert_non_null(strstr(text, "ROOT_PATH=iscsi:198.51.100.1::::iqn.2026-02.x:chap\n"));
	assert_null(strstr(text, "Chap-Secret"));
	assert_null(strstr(text, "alice"));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* What net/ is given of a's words (net/net.h), as init/boot_plan.c decides it. */
static struct boot_plan plan;
#define RQ(a) (boot_plan_make(&(a), &plan), &plan.net)

static void net_parameters(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("ip=dhcp rd.neednet=1 bootdev=eth1 rd.net.timeout.dhcp=7 "
				       "nfsroot=198.51.100.1:/r", NULL, &a), 0);
	assert_string_equal(a.net.ip, "dhcp");
	assert_true(a.net.neednet);
	assert_string_equal(a.net.bootdev, "eth1");
	assert_int_equal(a.net.timeout_dhcp, 7);
	assert_int_equal(a.net.dhcp_retry, 0);
	assert_int_equal(bootargs_parse("rd.net.dhcp.retry=3", NULL, &a), 0);
	assert_int_equal(a.net.dhcp_retry, 3);
	assert_int_equal(bootargs_parse("rd.net.dhcp.retry=0", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("rd.net.dhcp.retry=x", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("rd.net.dhcp.retry=101", NULL, &a), -EINVAL);
	assert_int_equal(a.net.dhcp_retry, 3);
	assert_int_equal(RQ(a)->root.kind, NET_ROOT_NFS);          /* no root=, ip=dhcp */
	assert_int_equal(bootargs_parse("root=/dev/vda1", NULL, &a), 0);
	assert_int_equal(RQ(a)->root.kind, NET_ROOT_NONE);
	assert_int_equal(bootargs_parse("root=/dev/nfs", NULL, &a), 0);
	assert_int_equal(RQ(a)->root.kind, NET_ROOT_NFS);
	assert_int_equal(bootargs_parse("root=UUID=x netroot=nfs4:198.51.100.1:/r", NULL, &a), 0);
	assert_int_equal(RQ(a)->root.kind, NET_ROOT_NFS);
	bootargs_free(&a);
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("netroot=dhcp", NULL, &a), 0);
	assert_int_equal(RQ(a)->root.kind, NET_ROOT_NFS);
	bootargs_free(&a);
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("ip=198.51.100.2::::::none", NULL, &a), 0);
	assert_int_equal(RQ(a)->root.kind, NET_ROOT_NONE);
	bootargs_free(&a);
}

/* ---- the waits within rd.timeout= ---- */

/* rd.timeout=0 is no deadline; a deadline cuts a longer wait to what is
 * left of it, and nothing once it has passed. */
static void wait_clamped_to_deadline(void **state)
{
	(void)state;
	assert_int_equal(clock_deadline(5000, 0), 0);
	assert_int_equal(clock_deadline(5000, 12), 17000);
	assert_int_equal(clock_clamp_ms(0, 5000, 30000), 30000);
	assert_int_equal(clock_clamp_ms(17000, 5000, 30000), 12000);
	assert_int_equal(clock_clamp_ms(17000, 5000, 3000), 3000);
	assert_int_equal(clock_clamp_ms(17000, 16999, 30000), 1);
	assert_int_equal(clock_clamp_ms(17000, 17000, 30000), 0);
	assert_int_equal(clock_clamp_ms(17000, 90000, 30000), 0);
	/* A deadline further than a 32-bit count of milliseconds. */
	assert_int_equal(clock_clamp_ms(UINT64_C(1) << 40, 0, 30000), 30000);
}

/* What is left for a wait that reads 0 as forever: never 0 with a
 * deadline (it would wait forever), rounded up. */
static void wait_left_seconds(void **state)
{
	(void)state;
	assert_int_equal(clock_left_sec(0, 5000), 0);
	assert_int_equal(clock_left_sec(17000, 5000), 12);
	assert_int_equal(clock_left_sec(17000, 5001), 12);
	assert_int_equal(clock_left_sec(17000, 16999), 1);
	assert_int_equal(clock_left_sec(17000, 17000), 1);
	assert_int_equal(clock_left_sec(17000, 99000), 1);
}

/* net/'s waits: their own rd.net.timeout.* bound, cut by the step's
 * deadline, and the message then names rd.timeout=. */
static void netup_wait_cut_by_deadline(void **state)
{
	struct ifup_limits lim = { .link_ms = 20000, .dhcp_ms = 30000 };
	bool cut = true;
	unsigned int ms;

	(void)state;
	assert_int_equal(ifup_wait_ms(&lim, lim.dhcp_ms, &cut), 30000);
	assert_false(cut);
	lim.deadline = clock_now_ms() + 5000;
	ms = ifup_wait_ms(&lim, lim.dhcp_ms, &cut);
	assert_true(ms <= 5000 && ms > 3000);
	assert_true(cut);
	assert_int_equal(ifup_wait_ms(&lim, 2000, &cut), 2000);
	assert_false(cut);
	lim.deadline = clock_now_ms() - 1;
	assert_int_equal(ifup_wait_ms(&lim, lim.link_ms, &cut), 0);
	assert_true(cut);
	assert_int_equal(ifup_wait_ms(&lim, lim.link_ms, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ip_single_words),
		cmocka_unit_test(ip_dracut_interface_form),
		cmocka_unit_test(ip_kernel_static_form),
		cmocka_unit_test(ip_malformed),
		cmocka_unit_test(nfs_dracut_forms),
		cmocka_unit_test(nfs_kernel_nfsroot),
		cmocka_unit_test(nfs_root_detection),
		cmocka_unit_test(nfs_mount_options),
		cmocka_unit_test(nfs_mount_options_once),
		cmocka_unit_test(dhcp_ack_parsed),
		cmocka_unit_test(dhcp_not_ours_dropped),
		cmocka_unit_test(dhcp_corrupt_dropped),
		cmocka_unit_test(dhcp_hostile_options),
		cmocka_unit_test(dhcp_overload_options),
		cmocka_unit_test(dhcp_request_built),
		cmocka_unit_test(netconf_written),
		cmocka_unit_test(netconf_files_written),
		cmocka_unit_test(netconf_chap_root_path),
		cmocka_unit_test(net_parameters),
		cmocka_unit_test(wait_clamped_to_deadline),
		cmocka_unit_test(wait_left_seconds),
		cmocka_unit_test(netup_wait_cut_by_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
