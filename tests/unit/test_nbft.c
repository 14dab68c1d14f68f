/* Unit tests: the firmware's NBFT table (net/nvmf/nbft.c) built here byte
 * by byte as the NVMe Boot Specification lays it out, the network words
 * made of its HFI (net/nvmf_fw.c, checked by the ip= parser the network
 * code uses), the tables found in a directory, and the rd.nvmf.discover=fw
 * and rd.nvmf.nonbft words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/cmdline.h"
#include "net/config/ipparam.h"
#include "net/net_args.h"
#include "net/nvmf/nbft.h"
#include "net/nvmf_args.h"
#include "net/nvmf_fw.h"

#define HOSTNQN "nqn.2014-08.org.nvmexpress:uuid:3a9c1f6e-0000-4000-8000-00000000b001"
#define SUBNQN "nqn.2026-12.test.lifeboat:root"

/* Where the builder puts things. */
enum { CTL = 64, HOST = 128, HFI = 160, SSNS = 192, HEAP = 320, TRINFO = HEAP };

struct spec {
	bool v4, dhcp, text_traddr;
	uint16_t vlan;
	const char *subnqn;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void ref(uint8_t *p, uint32_t off, uint16_t len)
{
	put32(p, off);
	put16(p + 4, len);
}

static void ip16(uint8_t *p, const char *text)
{
	if (strchr(text, ':')) {
		assert_int_equal(inet_pton(AF_INET6, text, p), 1);
		return;
	}
	memset(p, 0, 10);
	p[10] = p[11] = 0xff;
	assert_int_equal(inet_pton(AF_INET, text, p + 12), 1);
}

/* A string into the heap at *at (its length without the NUL, which follows). */
static void heap_put(uint8_t *t, size_t *at, uint8_t *refp, const char *s)
{
	size_t n = strlen(s);

	memcpy(t + *at, s, n + 1);
	ref(refp, (uint32_t)*at, (uint16_t)n);
	*at += n + 1;
}

static void checksum(uint8_t *t, size_t len)
{
	uint8_t sum = 0;

	t[9] = 0;
	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)(0x100 - sum);
}

/* One host, one HFI (index 1) and one SSNS into t (1024 bytes); returns
 * the table's length. */
static size_t build(uint8_t *t, const struct spec *s)
{
	static const uint8_t id[16] = { 0x3a, 0x9c, 0x1f, 0x6e, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0xb0, 0x01 };
	static const uint8_t mac[6] = { 0x52, 0x54, 0, 0, 0, 0x01 };
	size_t at = TRINFO + 128, len;
	uint8_t *c = t + CTL, *h = t + HOST, *f = t + HFI, *n = t + SSNS, *ti = t + TRINFO;

	memset(t, 0, 1024);
	memcpy(t, "NBFT", 4);
	t[8] = 1;
	memcpy(t + 10, "LBOOT ", 6);
	c[0] = 1, c[1] = 1, c[6] = 1;
	put16(c + 4, 64);
	ref(c + 8, HOST, 32);
	put32(c + 16, HFI), put16(c + 20, 32), c[22] = 1, c[23] = 1;
	put32(c + 24, SSNS), put16(c + 28, 128), c[30] = 1, c[31] = 1;
	h[0] = 2, h[1] = 1 | 2 | 4;
	memcpy(h + 2, id, 16);
	heap_put(t, &at, h + 18, HOSTNQN);
	f[0] = 3, f[1] = 1, f[2] = 1, f[3] = 3;
	ref(f + 16, TRINFO, 128);
	ti[0] = 7, ti[1] = 1, ti[2] = 3, ti[3] = 1;
	put16(ti + 4, 1);
	ti[6] = 1 | (s->dhcp ? 4 : 0);
	memcpy(ti + 11, mac, 6);
	put16(ti + 17, s->vlan);
	ip16(ti + 20, s->v4 ? "198.51.100.32" : "2001:db8:5::2");
	ti[36] = s->v4 ? 24 : 64;
	if (s->v4)
		ip16(ti + 37, "198.51.100.1");
	n[0] = 4;
	put16(n + 1, 1), put16(n + 3, 1);
	n[5] = 3;
	put32(n + 24, 1);
	n[46] = 1;
	if (s->text_traddr)
		heap_put(t, &at, n + 10, s->v4 ? "198.51.100.31" : "2001:db8:5::1");
	else {
		ip16(t + at, s->v4 ? "198.51.100.31" : "2001:db8:5::1");
		ref(n + 10, (uint32_t)at, 16);
		at += 16;
	}
	heap_put(t, &at, n + 16, "4420");
	heap_put(t, &at, n + 54, s->subnqn ? s->subnqn : SUBNQN);
	len = at;
	put32(t + 4, (uint32_t)len);
	put32(t + 36, HEAP), put32(t + 40, (uint32_t)(len - HEAP));
	checksum(t, len);
	return len;
}

static void table_ipv6_vlan(void **state)
{
	uint8_t t[1024];
	struct spec s = { .vlan = 5 };
	size_t len = build(t, &s);
	struct nvmf_nbft nb;
	char why[256] = "";

	(void)state;
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_string_equal(nb.host_nqn, HOSTNQN);
	assert_string_equal(nb.host_id, "3a9c1f6e-0000-4000-8000-00000000b001");
	assert_int_equal(nb.n_hfi, 1);
	assert_int_equal(nb.hfi[0].index, 1);
	assert_int_equal(nb.hfi[0].vlan, 5);
	assert_true(nb.hfi[0].ipv6);
	assert_false(nb.hfi[0].dhcp);
	assert_string_equal(nb.hfi[0].addr, "2001:db8:5::2");
	assert_int_equal(nb.hfi[0].prefix, 64);
	assert_string_equal(nb.hfi[0].gateway, "");
	assert_int_equal(nb.hfi[0].mac[5], 1);
	assert_int_equal(nb.n_ssns, 1);
	assert_string_equal(nb.ssns[0].traddr, "2001:db8:5::1");
	assert_string_equal(nb.ssns[0].trsvcid, "4420");
	assert_string_equal(nb.ssns[0].nqn, SUBNQN);
	assert_int_equal(nb.ssns[0].nsid, 1);
	assert_int_equal(nb.ssns[0].hfi, 1);
	assert_int_equal(nb.ssns[0].trtype, NVMF_NBFT_TRTYPE_TCP);
	assert_false(nb.ssns[0].secured);
	assert_int_equal(nb.dropped, 0);
	assert_ptr_equal(nvmf_nbft_hfi_find(&nb, 1), &nb.hfi[0]);
	assert_null(nvmf_nbft_hfi_find(&nb, 2));
	/* Some firmware writes the address as text. */
	s.text_traddr = true;
	len = build(t, &s);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_string_equal(nb.ssns[0].traddr, "2001:db8:5::1");
}

static void table_ipv4_dhcp(void **state)
{
	uint8_t t[1024];
	struct spec s = { .v4 = true, .dhcp = true };
	size_t len = build(t, &s);
	struct nvmf_nbft nb;
	char why[256];

	(void)state;
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_false(nb.hfi[0].ipv6);
	assert_true(nb.hfi[0].dhcp);
	assert_string_equal(nb.hfi[0].addr, "198.51.100.32");
	assert_string_equal(nb.hfi[0].gateway, "198.51.100.1");
	assert_string_equal(nb.ssns[0].traddr, "198.51.100.31");
}

/* The header's faults are the whole table's. */
static void table_refused(void **state)
{
	uint8_t t[1024];
	struct spec s = { .vlan = 5 };
	size_t len = build(t, &s);
	struct nvmf_nbft nb;
	char why[256];

	(void)state;
	t[300] ^= 1;
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "checksum"));
	len = build(t, &s);
	assert_int_equal(nvmf_nbft_parse(t, len - 1, &nb, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "length"));
	t[0] = 'X';
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), -EINVAL);
	len = build(t, &s);
	put32(t + 40, (uint32_t)len);       /* the heap past the table's end */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "heap"));
	len = build(t, &s);
	t[8] = 2;
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), -EINVAL);
	len = build(t, &s);
	put32(t + CTL + 8, (uint32_t)len - 8);  /* the host descriptor across the end */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), -EINVAL);
	len = build(t, &s);
	t[CTL + 6] = 0;                     /* nothing connected by the firmware */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), -ENOENT);
	/* Every shorter file is refused, none read past. */
	len = build(t, &s);
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, t, n);
		assert_int_not_equal(nvmf_nbft_parse(copy, n, &nb, why, sizeof(why)), 0);
		free(copy);
	}
}

/* A descriptor's faults leave it out, counted. */
static void descriptors_dropped(void **state)
{
	uint8_t t[1024];
	struct spec s = { .subnqn = "nqn.x,duplicate_connect" };
	size_t len = build(t, &s);
	struct nvmf_nbft nb;
	char why[256];

	(void)state;
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_ssns, 0);
	assert_int_equal(nb.dropped, 1);
	s.subnqn = NULL;
	len = build(t, &s);
	ref(t + SSNS + 54, (uint32_t)len - 4, 8);   /* the NQN past the heap */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_ssns, 0);
	len = build(t, &s);
	ref(t + HFI + 16, 8, 128);                  /* transport info outside the heap */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_hfi, 0);
	assert_int_equal(nb.n_ssns, 1);
	len = build(t, &s);
	t[CTL + 31] = 200;                          /* more SSNS than the table holds */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_ssns, 0);
	assert_int_equal(nb.dropped, 200);
	len = build(t, &s);
	t[TRINFO + 36] = 0;                         /* a static address without a prefix */
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_hfi, 0);
	len = build(t, &s);
	ip16(t + TRINFO + 37, "2001:db8:5::fe");     /* a gateway of the other family */
	t[TRINFO + 36] = 24;
	ip16(t + TRINFO + 20, "198.51.100.32");
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_hfi, 0);
	len = build(t, &s);
	put16(t + SSNS + 3, 1 | 4);                 /* a security profile */
	t[SSNS + 5] = 2;
	checksum(t, len);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_true(nb.ssns[0].secured);
	assert_int_equal(nb.ssns[0].trtype, 2);
}

static void network_words(void **state)
{
	uint8_t t[1024];
	struct spec s = { .vlan = 5 };
	size_t len = build(t, &s);
	struct nvmf_nbft nb;
	struct net_args cmd, out;
	struct ip_param ip;
	char why[256], iface[32];

	(void)state;
	net_args_init(&cmd);
	cmd.timeout_carrier = 7;
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nvmf_fw_net(&nb, &cmd, &out, iface, sizeof(iface), why, sizeof(why)), 0);
	assert_string_equal(iface, "nbft1.5");
	assert_int_equal(out.netdevs.len, 2);
	assert_string_equal(out.netdevs.items[0], "ifname=nbft1:52:54:00:00:00:01");
	assert_string_equal(out.netdevs.items[1], "vlan=nbft1.5:nbft1");
	assert_string_equal(out.ip, "[2001:db8:5::2]:::64::nbft1.5:none");
	assert_int_equal(out.timeout_carrier, 7);
	assert_int_equal(ip_param_parse(out.ip, &ip), 0);
	assert_string_equal(ip.dev, "nbft1.5");
	assert_int_equal(ip.prefix6, 64);
	net_args_free(&out);

	s = (struct spec){ .v4 = true };
	len = build(t, &s);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nvmf_fw_net(&nb, &cmd, &out, iface, sizeof(iface), why, sizeof(why)), 0);
	assert_string_equal(out.ip, "198.51.100.32::198.51.100.1:255.255.255.0::nbft1:none");
	assert_int_equal(out.netdevs.len, 1);
	assert_int_equal(ip_param_parse(out.ip, &ip), 0);
	assert_string_equal(ip.dev, "nbft1");
	net_args_free(&out);

	s = (struct spec){ .v4 = true, .dhcp = true };
	len = build(t, &s);
	assert_int_equal(nvmf_nbft_parse(t, len, &nb, why, sizeof(why)), 0);
	assert_int_equal(nvmf_fw_net(&nb, &cmd, &out, iface, sizeof(iface), why, sizeof(why)), 0);
	assert_string_equal(out.ip, "nbft1:dhcp");
	net_args_free(&out);

	nb.ssns[0].hfi = 9;
	assert_int_equal(nvmf_fw_net(&nb, &cmd, &out, iface, sizeof(iface), why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "HFI 9"));
	net_args_free(&out);
	net_args_free(&cmd);
}

static void write_table(const char *path, const uint8_t *t, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(t, 1, len, f), len);
	fclose(f);
}

static void tables_found(void **state)
{
	char dir[] = "/tmp/test_nbft.XXXXXX", path[512], paths[4][256], picked[256], why[512];
	const char *names[] = { "NBFT2", "NBFTX", "NBFT", "DSDT", "NBFT1" };
	uint8_t t[1024];
	struct spec s = { .vlan = 5 };
	size_t len = build(t, &s);
	struct nvmf_nbft nb;
	struct nvmf_args a;
	struct cmdline_owner o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* NBFT itself is broken: the next one is used. */
		write_table(path, t, strcmp(names[i], "NBFT") == 0 ? 10 : len);
	}
	assert_int_equal(nvmf_nbft_find(dir, paths, 4), 3);
	snprintf(path, sizeof(path), "%s/NBFT", dir);
	assert_string_equal(paths[0], path);
	snprintf(path, sizeof(path), "%s/NBFT2", dir);
	assert_string_equal(paths[2], path);
	memset(&a, 0, sizeof(a));
	assert_true(nvmf_fw_present(&a, dir));
	assert_int_equal(nvmf_fw_pick(dir, &nb, picked, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/NBFT1", dir);
	assert_string_equal(picked, path);
	assert_int_equal(nvmf_nbft_load(picked, &nb, why, sizeof(why)), 0);
	assert_int_equal(nb.n_ssns, 1);

	o = nvmf_args_cmdline(&a);
	assert_int_equal(cmdline_parse("rd.nvmf.discover=fw", NULL, &o, 1), 0);
	assert_true(a.fw);
	assert_int_equal(a.n_discover, 0);
	assert_false(nvmf_args_wanted(&a));
	assert_int_equal(cmdline_parse("rd.nvmf.nonbft", NULL, &o, 1), 0);
	assert_false(nvmf_fw_present(&a, dir));

	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	memset(&a, 0, sizeof(a));
	assert_false(nvmf_fw_present(&a, dir));
	assert_int_equal(nvmf_fw_pick(dir, &nb, picked, why, sizeof(why)), -ENOENT);
	rmdir(dir);
	assert_int_equal(nvmf_nbft_load(dir, &nb, why, sizeof(why)) < 0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_ipv6_vlan),
		cmocka_unit_test(table_ipv4_dhcp),
		cmocka_unit_test(table_refused),
		cmocka_unit_test(descriptors_dropped),
		cmocka_unit_test(network_words),
		cmocka_unit_test(tables_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
