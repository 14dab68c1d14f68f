/* dhcp6pkt: DHCPv6 messages (RFC 8415 sections 8, 21), boot file URL (RFC 5970).
 *
 * Every length is checked against what is left before it is used; an
 * option whose length does not fit its kind is dropped, not the message.
 * Options nest (IA_NA holds IAADDR, which holds a status code), so the
 * walker takes the bytes of one level and a table of handlers. */
#include "net/ip6/dhcp6pkt.h"

#include <errno.h>
#include <string.h>

#define HDR 4                    /* msg-type and transaction-id */
#define OPT_HDR 4
#define DUID_LL_LEN 10           /* type 3, hardware type 1, the MAC */

enum opt6 {
	OPT_CLIENTID = 1, OPT_SERVERID = 2, OPT_IA_NA = 3, OPT_IAADDR = 5, OPT_ORO = 6,
	OPT_PREFERENCE = 7, OPT_ELAPSED = 8, OPT_STATUS = 13, OPT_DNS = 23,
	OPT_DOMAINS = 24, OPT_BOOTFILE_URL = 59,
};

/* What a boot needs: name servers, search domain and where the root is. */
static const uint16_t oro[] = { OPT_DNS, OPT_DOMAINS, OPT_BOOTFILE_URL };

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

struct builder {
	uint8_t *buf;
	size_t len, size;
	bool full;
};

static uint8_t *put_opt(struct builder *b, uint16_t code, size_t len)
{
	uint8_t *p = b->buf + b->len;

	if (b->full || b->size - b->len < OPT_HDR + len) {
		b->full = true;
		return NULL;
	}
	p[0] = (uint8_t)(code >> 8);
	p[1] = (uint8_t)code;
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
	b->len += OPT_HDR + len;
	return p + OPT_HDR;
}

static void duid_ll(const uint8_t mac[6], uint8_t out[DUID_LL_LEN])
{
	static const uint8_t head[4] = { 0, 3, 0, 1 };

	memcpy(out, head, sizeof(head));
	memcpy(out + 4, mac, 6);
}

static void put_be(uint8_t *p, uint32_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* IA_NA with the IAID; T1 and T2 zero (the server chooses), the address
 * asked for inside when there is one. */
static void put_ia_na(struct builder *b, const struct dhcp6_request *req)
{
	size_t inner = req->addr ? OPT_HDR + 24 : 0;
	uint8_t *p = put_opt(b, OPT_IA_NA, 12 + inner);

	if (!p)
		return;
	memset(p, 0, 12 + inner);
	put_be(p, req->iaid, 4);
	if (req->addr) {
		put_be(p + 12, OPT_IAADDR, 2);
		put_be(p + 14, 24, 2);
		memcpy(p + 16, req->addr, 16);
	}
}

int dhcp6pkt_build(const struct dhcp6_request *req, uint8_t *buf, size_t size)
{
	struct builder b = { buf, HDR, size, size < HDR };
	uint8_t *p;

	if (b.full)
		return -ENOSPC;
	buf[0] = (uint8_t)req->type;
	put_be(buf + 1, req->xid & 0xffffff, 3);
	if ((p = put_opt(&b, OPT_CLIENTID, DUID_LL_LEN)))
		duid_ll(req->mac, p);
	if (req->type != DHCP6_SOLICIT && (p = put_opt(&b, OPT_SERVERID, req->server_duid_len)))
		memcpy(p, req->server_duid, req->server_duid_len);
	if ((p = put_opt(&b, OPT_ELAPSED, 2)))
		put_be(p, req->elapsed_cs, 2);
	if ((p = put_opt(&b, OPT_ORO, sizeof(oro))))
		for (size_t i = 0; i < sizeof(oro) / sizeof(oro[0]); i++)
			put_be(p + 2 * i, oro[i], 2);
	put_ia_na(&b, req);
	return b.full ? -ENOSPC : (int)b.len;
}

/* RFC 1035 wire form to text, the first name of the list only. */
static void domain_take(struct dhcp6_lease *l, const uint8_t *v, size_t len)
{
	char name[DHCP_STR_MAX];
	size_t i = 0, n = 0;

	while (i < len && v[i]) {
		size_t label = v[i++];

		if (label > 63 || label > len - i || n + label + 1 >= sizeof(name))
			return;
		if (n)
			name[n++] = '.';
		memcpy(name + n, v + i, label);
		n += label;
		i += label;
	}
	if (i >= len || n == 0 || !dhcppkt_str_safe(name, n))
		return;
	memcpy(l->domain, name, n);
	l->domain[n] = '\0';
}

static void url_take(struct dhcp6_lease *l, const uint8_t *v, size_t len)
{
	if (len == 0 || len >= sizeof(l->boot_url) || !dhcppkt_str_safe((const char *)v, len))
		return;
	memcpy(l->boot_url, v, len);
	l->boot_url[len] = '\0';
}

/* Call fn for each option of one level; -EINVAL when one runs past the end. */
typedef void (*opt6_fn)(struct dhcp6_lease *l, uint16_t code, const uint8_t *v, size_t len,
			int depth);

static int opts_walk(struct dhcp6_lease *l, const uint8_t *p, size_t len, opt6_fn fn, int depth)
{
	while (len >= OPT_HDR) {
		uint16_t code = get16(p), olen = get16(p + 2);

		if (olen > len - OPT_HDR)
			return -EINVAL;
		fn(l, code, p + OPT_HDR, olen, depth);
		p += OPT_HDR + olen;
		len -= OPT_HDR + olen;
	}
	return len == 0 ? 0 : -EINVAL;
}

/* The first failing status at any level (message, IA_NA, address) is
 * kept: any of them means the address is not ours. */
static void status_take(struct dhcp6_lease *l, const uint8_t *v, size_t len)
{
	if (len >= 2 && l->status == DHCP6_STATUS_SUCCESS)
		l->status = get16(v);
}

static void opt_handle(struct dhcp6_lease *l, uint16_t code, const uint8_t *v, size_t len,
		       int depth);

static void ia_take(struct dhcp6_lease *l, const uint8_t *v, size_t len, int depth)
{
	if (len >= 12)
		opts_walk(l, v + 12, len - 12, opt_handle, depth + 1);
}

static void iaaddr_take(struct dhcp6_lease *l, const uint8_t *v, size_t len, int depth)
{
	if (len < 24 || l->has_addr)
		return;
	memcpy(&l->addr, v, 16);
	l->preferred_sec = get32(v + 16);
	l->valid_sec = get32(v + 20);
	l->has_addr = l->valid_sec != 0;
	opts_walk(l, v + 24, len - 24, opt_handle, depth + 1);
}

static void dns_take(struct dhcp6_lease *l, const uint8_t *v, size_t len)
{
	for (size_t i = 0; i + 16 <= len && l->n_dns < DHCP_DNS_MAX; i += 16)
		memcpy(&l->dns[l->n_dns++], v + i, 16);
}

static void opt_handle(struct dhcp6_lease *l, uint16_t code, const uint8_t *v, size_t len,
		       int depth)
{
	bool top = depth == 0;

	if (code == OPT_STATUS)
		status_take(l, v, len);
	else if (code == OPT_IA_NA && top)
		ia_take(l, v, len, depth);
	else if (code == OPT_IAADDR && depth == 1)
		iaaddr_take(l, v, len, depth);
	else if (code == OPT_SERVERID && top && len >= 2 && len <= DHCP6_DUID_MAX &&
		 !l->server_duid_len) {
		memcpy(l->server_duid, v, len);
		l->server_duid_len = len;
	} else if (code == OPT_PREFERENCE && top && len == 1)
		l->preference = v[0];
	else if (code == OPT_DNS && top)
		dns_take(l, v, len);
	else if (code == OPT_DOMAINS && top)
		domain_take(l, v, len);
	else if (code == OPT_BOOTFILE_URL && top)
		url_take(l, v, len);
}

/* The client identifier must be ours, exactly. */
static bool client_id_ours(const uint8_t *msg, size_t len, const uint8_t mac[6])
{
	uint8_t duid[DUID_LL_LEN];

	duid_ll(mac, duid);
	for (size_t i = HDR; len - i >= OPT_HDR;) {
		uint16_t code = get16(msg + i), olen = get16(msg + i + 2);

		if (olen > len - i - OPT_HDR)
			return false;
		if (code == OPT_CLIENTID)
			return olen == DUID_LL_LEN && memcmp(msg + i + OPT_HDR, duid, olen) == 0;
		i += OPT_HDR + olen;
	}
	return false;
}

int dhcp6pkt_parse(const uint8_t *msg, size_t len, uint32_t xid, const uint8_t mac[6],
		   struct dhcp6_lease *out)
{
	memset(out, 0, sizeof(*out));
	if (len < HDR || (msg[0] != DHCP6_ADVERTISE && msg[0] != DHCP6_REPLY) ||
	    ((uint32_t)msg[1] << 16 | (uint32_t)msg[2] << 8 | msg[3]) != (xid & 0xffffff) ||
	    !client_id_ours(msg, len, mac))
		return -EINVAL;
	out->type = msg[0];
	if (opts_walk(out, msg + HDR, len - HDR, opt_handle, 0) < 0 || !out->server_duid_len) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	return 0;
}
