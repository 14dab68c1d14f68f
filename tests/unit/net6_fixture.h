/* net6_fixture: what a DHCPv6 server and the kernel's rtnetlink send, built
 * for the unit tests of net/'s IPv6 parsers and state machines. */
#ifndef LIFEBOAT_TESTS_NET6_FIXTURE_H
#define LIFEBOAT_TESTS_NET6_FIXTURE_H

#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>

struct msg6 {
	uint8_t b[1024];
	size_t len;
};

static inline void put_opt(struct msg6 *m, uint16_t code, const void *data, size_t len)
{
	m->b[m->len] = (uint8_t)(code >> 8);
	m->b[m->len + 1] = (uint8_t)code;
	m->b[m->len + 2] = (uint8_t)(len >> 8);
	m->b[m->len + 3] = (uint8_t)len;
	memcpy(m->b + m->len + 4, data, len);
	m->len += 4 + len;
}

/* DUID-LL of 52:54:00:00:00:01, the client's; a DUID-LLT, the server's. */
static const uint8_t our_duid[10] = { 0, 3, 0, 1, 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t server_duid[14] = { 0, 1, 0, 1, 1, 2, 3, 4, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf };

/* A server's message: type, xid, our client id, its server id, an IA_NA
 * with the address addr (status inside when ia_status is not 0), DNS,
 * search domain, the boot file URL. */
static inline void msg6_make_addr(struct msg6 *m, uint8_t type, uint32_t xid, uint16_t ia_status,
				  const char *addr)
{
	uint8_t ia[12 + 4 + 24 + 6] = { 0, 0, 0, 1 };
	uint8_t dns[32];
	static const uint8_t domain[] = "\x08lifeboat\x04test";
	static const char url[] = "nfs://[2001:db8::1]/nfsroot";
	size_t ia_len = 12 + 4 + 24;

	memset(m, 0, sizeof(*m));
	m->b[0] = type;
	m->b[1] = (uint8_t)(xid >> 16);
	m->b[2] = (uint8_t)(xid >> 8);
	m->b[3] = (uint8_t)xid;
	m->len = 4;
	put_opt(m, 1, our_duid, sizeof(our_duid));
	put_opt(m, 2, server_duid, sizeof(server_duid));
	ia[13] = 5;                                   /* IAADDR */
	ia[15] = ia_status ? 24 + 6 : 24;
	inet_pton(AF_INET6, addr, ia + 16);
	ia[16 + 16 + 3] = 60;                         /* preferred 60 s */
	ia[16 + 20 + 3] = 120;                        /* valid 120 s */
	if (ia_status) {
		uint8_t st[6] = { 0, 13, 0, 2, (uint8_t)(ia_status >> 8), (uint8_t)ia_status };

		memcpy(ia + 40, st, sizeof(st));
		ia_len += sizeof(st);
	}
	put_opt(m, 3, ia, ia_len);
	inet_pton(AF_INET6, "2001:db8::53", dns);
	inet_pton(AF_INET6, "2001:db8::54", dns + 16);
	put_opt(m, 23, dns, sizeof(dns));
	put_opt(m, 24, domain, sizeof(domain));       /* with the root label's 0 */
	put_opt(m, 59, url, strlen(url));
}

static inline void msg6_make(struct msg6 *m, uint8_t type, uint32_t xid, uint16_t ia_status)
{
	msg6_make_addr(m, type, xid, ia_status, "2001:db8::1b4");
}

/* An RTM_NEWADDR of addr/64 on interface index, with the 8-bit flags and
 * IFA_FLAGS' 32-bit ones, of scope. b has room for 256 bytes. */
static inline size_t newaddr_make_addr(uint8_t *b, int index, uint8_t flags, uint32_t xflags,
				       uint8_t scope, const char *addr)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWADDR };
	struct ifaddrmsg ifa = { .ifa_family = AF_INET6, .ifa_prefixlen = 64, .ifa_flags = flags,
				 .ifa_scope = scope, .ifa_index = (unsigned int)index };
	struct rtattr a1 = { .rta_len = RTA_LENGTH(16), .rta_type = IFA_ADDRESS };
	struct rtattr a2 = { .rta_len = RTA_LENGTH(4), .rta_type = IFA_FLAGS };
	size_t off = NLMSG_HDRLEN;

	memset(b, 0, 256);
	memcpy(b + off, &ifa, sizeof(ifa));
	off += NLMSG_ALIGN(sizeof(ifa));
	memcpy(b + off, &a1, sizeof(a1));
	inet_pton(AF_INET6, addr, b + off + RTA_LENGTH(0));
	off += RTA_ALIGN(a1.rta_len);
	memcpy(b + off, &a2, sizeof(a2));
	memcpy(b + off + RTA_LENGTH(0), &xflags, 4);
	off += RTA_ALIGN(a2.rta_len);
	h.nlmsg_len = (uint32_t)off;
	memcpy(b, &h, sizeof(h));
	return off;
}

static inline size_t newaddr_make(uint8_t *b, int index, uint8_t flags, uint32_t xflags)
{
	return newaddr_make_addr(b, index, flags, xflags, RT_SCOPE_UNIVERSE, "2001:db8::1b4");
}

#endif
