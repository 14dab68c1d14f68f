/* dhcppkt: DHCPv4 messages as IPv4+UDP packets (RFC 791, 768, 2131, 2132).
 *
 * Parsing treats every byte as hostile: each length is checked against what
 * is left before it is used, and an option whose length does not fit its
 * kind is dropped without failing the message. */
#include "net/dhcp4/dhcppkt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#define IP_HDR 20
#define UDP_HDR 8
#define BOOTP_FIXED 236          /* op .. file, before the magic cookie */
#define BOOTP_MIN (BOOTP_FIXED + 4)
#define PORT_SERVER 67
#define PORT_CLIENT 68
#define OFF_XID 4
#define OFF_FLAGS 10
#define OFF_YIADDR 16
#define OFF_SIADDR 20
#define OFF_CHADDR 28
#define OFF_SNAME 44
#define OFF_FILE 108

static const uint8_t magic_cookie[4] = { 99, 130, 83, 99 };

enum opt {
	OPT_PAD = 0, OPT_NETMASK = 1, OPT_ROUTER = 3, OPT_DNS = 6, OPT_HOSTNAME = 12,
	OPT_DOMAIN = 15, OPT_ROOT_PATH = 17, OPT_MTU = 26, OPT_BROADCAST = 28,
	OPT_NTP = 42, OPT_REQUESTED = 50, OPT_LEASE = 51, OPT_OVERLOAD = 52,
	OPT_MSG_TYPE = 53, OPT_SERVER_ID = 54, OPT_PARAMS = 55, OPT_MAX_SIZE = 57,
	OPT_VENDOR_CLASS = 60, OPT_CLIENT_ID = 61, OPT_END = 255,
};

/* What a boot needs from the server (option 55); dnsmasq sends the root
 * path only when it is asked for. */
static const uint8_t params_wanted[] = {
	OPT_NETMASK, OPT_ROUTER, OPT_DNS, OPT_HOSTNAME, OPT_DOMAIN, OPT_ROOT_PATH,
	OPT_MTU, OPT_BROADCAST, OPT_NTP, OPT_LEASE, OPT_SERVER_ID,
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

/* The Internet checksum's running sum (RFC 1071). */
static uint32_t sum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t sum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The UDP checksum covers a pseudo header of addresses, protocol, length. */
static uint16_t udp_sum(const uint8_t *ip, const uint8_t *udp, size_t udp_len)
{
	uint32_t sum = sum_add(0, ip + 12, 8);

	sum += 17 + (uint32_t)udp_len;
	return sum_fold(sum_add(sum, udp, udp_len));
}

/* ---- building ---- */

struct writer {
	uint8_t *p;
	size_t len, size;
	bool full;
};

static void opt_put(struct writer *w, uint8_t code, const void *data, size_t len)
{
	if (len > 255 || w->len + 2 + len > w->size) {
		w->full = true;
		return;
	}
	w->p[w->len++] = code;
	w->p[w->len++] = (uint8_t)len;
	memcpy(w->p + w->len, data, len);
	w->len += len;
}

static void options_put(struct writer *w, const struct dhcp_request *req)
{
	uint8_t type = (uint8_t)req->type, max[2], cid[7];

	put16(max, DHCP_PACKET_MAX);
	cid[0] = 1;                       /* hardware type: Ethernet */
	memcpy(cid + 1, req->mac, 6);
	opt_put(w, OPT_MSG_TYPE, &type, 1);
	opt_put(w, OPT_CLIENT_ID, cid, sizeof(cid));
	opt_put(w, OPT_MAX_SIZE, max, sizeof(max));
	opt_put(w, OPT_VENDOR_CLASS, DHCP_VENDOR_CLASS, strlen(DHCP_VENDOR_CLASS));
	opt_put(w, OPT_PARAMS, params_wanted, sizeof(params_wanted));
	if (req->requested.s_addr)
		opt_put(w, OPT_REQUESTED, &req->requested, 4);
	if (req->server_id.s_addr)
		opt_put(w, OPT_SERVER_ID, &req->server_id, 4);
	if (req->hostname && req->hostname[0])
		opt_put(w, OPT_HOSTNAME, req->hostname, strlen(req->hostname));
	if (w->len < w->size)
		w->p[w->len++] = OPT_END;
	else
		w->full = true;
}

static void headers_put(uint8_t *buf, size_t total)
{
	uint8_t *udp = buf + IP_HDR;

	buf[0] = 0x45;                    /* IPv4, 5 words of header */
	put16(buf + 2, (uint16_t)total);
	buf[8] = 64;                      /* TTL */
	buf[9] = 17;                      /* UDP */
	memset(buf + 16, 0xff, 4);        /* to 255.255.255.255, from 0.0.0.0 */
	put16(buf + 10, sum_fold(sum_add(0, buf, IP_HDR)));
	put16(udp, PORT_CLIENT);
	put16(udp + 2, PORT_SERVER);
	put16(udp + 4, (uint16_t)(total - IP_HDR));
	/* A computed 0 is sent as all ones: 0 means "no checksum" (RFC 768). */
	put16(udp + 6, udp_sum(buf, udp, total - IP_HDR) ?: 0xffff);
}

int dhcppkt_build(const struct dhcp_request *req, uint8_t *buf, size_t size)
{
	uint8_t *msg = buf + IP_HDR + UDP_HDR;
	struct writer w;

	if (size < IP_HDR + UDP_HDR + BOOTP_MIN + 64)
		return -ENOSPC;
	memset(buf, 0, IP_HDR + UDP_HDR + BOOTP_MIN);
	msg[0] = 1;                       /* BOOTREQUEST */
	msg[1] = 1;                       /* Ethernet */
	msg[2] = 6;
	put32(msg + OFF_XID, req->xid);
	put16(msg + 8, req->secs);
	put16(msg + OFF_FLAGS, 0x8000);   /* broadcast: we cannot take unicast before the address is set */
	memcpy(msg + OFF_CHADDR, req->mac, 6);
	memcpy(msg + BOOTP_FIXED, magic_cookie, 4);
	w = (struct writer){ msg + BOOTP_MIN, 0, size - IP_HDR - UDP_HDR - BOOTP_MIN, false };
	options_put(&w, req);
	if (w.full)
		return -ENOSPC;
	/* Pad to the 300-byte BOOTP minimum some relays and servers expect. */
	while (BOOTP_MIN + w.len < 300 && w.len < w.size)
		w.p[w.len++] = OPT_PAD;
	headers_put(buf, IP_HDR + UDP_HDR + BOOTP_MIN + w.len);
	return (int)(IP_HDR + UDP_HDR + BOOTP_MIN + w.len);
}

/* ---- parsing ---- */

bool dhcppkt_str_safe(const char *s, size_t len)
{
	static const char extra[] = "._-:/,@%+=[]~";

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      (c != '\0' && strchr(extra, c))))
			return false;
	}
	return true;
}

typedef void (*opt_fn)(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset);

static void set_addr(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset)
{
	if (len >= 4)                     /* a list (routers): the first is used */
		memcpy((char *)l + offset, v, 4);
}

static void set_dns(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset)
{
	(void)offset;
	for (size_t i = 0; i + 4 <= len && l->n_dns < DHCP_DNS_MAX; i += 4)
		memcpy(&l->dns[l->n_dns++], v + i, 4);
}

static void set_u32(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset)
{
	if (len == 4)
		*(unsigned int *)((char *)l + offset) = get32(v);
}

static void set_mtu(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset)
{
	(void)offset;
	if (len == 2 && get16(v) >= 68)
		l->mtu = get16(v);
}

static void set_type(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset)
{
	(void)offset;
	if (len == 1)
		l->type = (enum dhcp_msg)v[0];
}

/* Servers may or may not count a trailing NUL; it is cut off. */
static void set_str(struct dhcp_lease *l, const uint8_t *v, size_t len, size_t offset)
{
	char *dst = (char *)l + offset;

	while (len > 0 && v[len - 1] == '\0')
		len--;
	if (len == 0 || len >= DHCP_STR_MAX || !dhcppkt_str_safe((const char *)v, len))
		return;
	memcpy(dst, v, len);
	dst[len] = '\0';
}

struct opt_handler {
	uint8_t code;
	opt_fn fn;
	size_t offset;
};

#define LEASE(f) offsetof(struct dhcp_lease, f)

static const struct opt_handler handlers[] = {
	{ OPT_NETMASK,   set_addr, LEASE(netmask) },
	{ OPT_ROUTER,    set_addr, LEASE(router) },
	{ OPT_DNS,       set_dns,  0 },
	{ OPT_HOSTNAME,  set_str,  LEASE(hostname) },
	{ OPT_DOMAIN,    set_str,  LEASE(domain) },
	{ OPT_ROOT_PATH, set_str,  LEASE(root_path) },
	{ OPT_MTU,       set_mtu,  0 },
	{ OPT_BROADCAST, set_addr, LEASE(broadcast) },
	{ OPT_LEASE,     set_u32,  LEASE(lease_sec) },
	{ OPT_MSG_TYPE,  set_type, 0 },
	{ OPT_SERVER_ID, set_addr, LEASE(server_id) },
};

static void option_apply(struct dhcp_lease *l, uint8_t code, const uint8_t *v, size_t len)
{
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (handlers[i].code == code)
			handlers[i].fn(l, v, len, handlers[i].offset);
}

/* Walk one options area; returns the overload value (option 52) seen, 0 if
 * none. A length running past the area ends the walk. */
static unsigned int options_walk(struct dhcp_lease *l, const uint8_t *p, size_t len)
{
	unsigned int overload = 0;
	size_t i = 0;

	while (i < len) {
		uint8_t code = p[i++];
		size_t n;

		if (code == OPT_PAD)
			continue;
		if (code == OPT_END || i >= len)
			break;
		n = p[i++];
		if (n > len - i)
			break;
		if (code == OPT_OVERLOAD && n == 1)
			overload = p[i];
		else
			option_apply(l, code, p + i, n);
		i += n;
	}
	return overload;
}

int dhcppkt_bootp_parse(const uint8_t *msg, size_t len, uint32_t xid, const uint8_t mac[6],
			struct dhcp_lease *out)
{
	unsigned int overload;

	memset(out, 0, sizeof(*out));
	if (len < BOOTP_MIN || msg[0] != 2 || msg[1] != 1 || msg[2] != 6 ||
	    get32(msg + OFF_XID) != xid || memcmp(msg + OFF_CHADDR, mac, 6) != 0 ||
	    memcmp(msg + BOOTP_FIXED, magic_cookie, 4) != 0)
		return -EINVAL;
	memcpy(&out->addr, msg + OFF_YIADDR, 4);
	memcpy(&out->siaddr, msg + OFF_SIADDR, 4);
	overload = options_walk(out, msg + BOOTP_MIN, len - BOOTP_MIN);
	/* RFC 2131 4.1: options go on in 'file', then in 'sname'. */
	if (overload & 1)
		options_walk(out, msg + OFF_FILE, 128);
	if (overload & 2)
		options_walk(out, msg + OFF_SNAME, 64);
	if (out->type < DHCP_DISCOVER || out->type > DHCP_INFORM)
		return -EINVAL;
	return 0;
}

/* IPv4 to UDP port 68, not a fragment, header checksum right. Sets *udp
 * and *udp_len to the datagram inside len. */
static int ip_udp_check(const uint8_t *pkt, size_t len, bool check_udp_sum,
			const uint8_t **udp, size_t *udp_len)
{
	size_t ihl, total, ulen;

	if (len < IP_HDR || (pkt[0] >> 4) != 4 || pkt[9] != 17)
		return -EINVAL;
	ihl = (size_t)(pkt[0] & 0x0f) * 4;
	total = get16(pkt + 2);
	if (ihl < IP_HDR || total < ihl + UDP_HDR || total > len ||
	    (get16(pkt + 6) & 0x3fff) != 0 || sum_fold(sum_add(0, pkt, ihl)) != 0)
		return -EINVAL;
	*udp = pkt + ihl;
	ulen = get16(*udp + 4);
	if (get16(*udp + 2) != PORT_CLIENT || ulen < UDP_HDR || ulen > total - ihl)
		return -EINVAL;
	if (check_udp_sum && get16(*udp + 6) != 0 && udp_sum(pkt, *udp, ulen) != 0)
		return -EINVAL;
	*udp_len = ulen;
	return 0;
}

int dhcppkt_parse(const uint8_t *pkt, size_t len, bool check_udp_sum, uint32_t xid,
		  const uint8_t mac[6], struct dhcp_lease *out)
{
	const uint8_t *udp;
	size_t udp_len;

	memset(out, 0, sizeof(*out));
	if (ip_udp_check(pkt, len, check_udp_sum, &udp, &udp_len) < 0)
		return -EINVAL;
	return dhcppkt_bootp_parse(udp + UDP_HDR, udp_len - UDP_HDR, xid, mac, out);
}
