/* ra: router advertisements and solicitations (RFC 4861 4.1, 4.2, 4.6; RFC 8106 5.1). */
#include "net/ip6/ra.h"

#include <errno.h>
#include <string.h>

#define ICMP6_RS 133
#define ICMP6_RA 134
#define RA_FIXED 16              /* type .. retrans timer */
#define OPT_UNIT 8

enum nd_opt {
	ND_SLLA = 1, ND_PREFIX = 3, ND_MTU = 5, ND_RDNSS = 25,
};

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void prefix_take(struct ra_info *ra, const uint8_t *o, size_t len)
{
	struct ra_prefix *p;

	if (len != 32 || o[2] > 128 || ra->n_prefix >= RA_PREFIX_MAX)
		return;
	p = &ra->prefix[ra->n_prefix++];
	p->len = o[2];
	p->on_link = o[3] & 0x80;
	p->autonomous = o[3] & 0x40;
	p->valid_sec = get32(o + 4);
	memcpy(&p->prefix, o + 16, 16);
}

/* RDNSS: 8 bytes of header and lifetime, then addresses; a lifetime of 0
 * withdraws the servers, so they are not taken. */
static void rdnss_take(struct ra_info *ra, const uint8_t *o, size_t len)
{
	if (len < 24 || (len - 8) % 16 || get32(o + 4) == 0)
		return;
	for (size_t i = 8; i + 16 <= len && ra->n_dns < DHCP_DNS_MAX; i += 16)
		memcpy(&ra->dns[ra->n_dns++], o + i, 16);
}

int ra_parse(const uint8_t *msg, size_t len, struct ra_info *out)
{
	memset(out, 0, sizeof(*out));
	if (len < RA_FIXED || msg[0] != ICMP6_RA || msg[1] != 0)
		return -EINVAL;
	out->managed = msg[5] & 0x80;
	out->other = msg[5] & 0x40;
	out->router_lifetime = (uint16_t)(msg[6] << 8 | msg[7]);
	for (size_t i = RA_FIXED; i < len;) {
		size_t olen;

		if (len - i < 2 || msg[i + 1] == 0)
			goto bad;
		olen = (size_t)msg[i + 1] * OPT_UNIT;
		if (olen > len - i)
			goto bad;
		if (msg[i] == ND_PREFIX)
			prefix_take(out, msg + i, olen);
		else if (msg[i] == ND_MTU && olen == 8)
			out->mtu = get32(msg + i + 4);
		else if (msg[i] == ND_RDNSS)
			rdnss_take(out, msg + i, olen);
		i += olen;
	}
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

int ra_solicit_build(const uint8_t *mac, uint8_t *buf, size_t size)
{
	size_t len = 8 + (mac ? 8 : 0);

	if (size < len)
		return -ENOSPC;
	/* The checksum is the kernel's: raw ICMPv6 sockets compute it. */
	memset(buf, 0, len);
	buf[0] = ICMP6_RS;
	if (mac) {
		buf[8] = ND_SLLA;
		buf[9] = 1;
		memcpy(buf + 10, mac, 6);
	}
	return (int)len;
}
