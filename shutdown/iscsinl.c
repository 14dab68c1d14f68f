/* iscsinl: NETLINK_ISCSI messages and the Logout Request, built and read
 * as bytes (the layout is in iscsinl.h). The event's fields are in the
 * host's byte order, the PDU's in network order. */
#include "shutdown/iscsinl.h"

#include <errno.h>
#include <string.h>

#include <linux/netlink.h>

/* Offsets in the event (iscsinl.h). */
enum {
	EV_TYPE = 0,
	EV_IFERROR = 4,
	EV_HANDLE = 8,
	EV_SID = 16,
	EV_CID = 20,
	EV_PDU_HDR_SIZE = 24,
	EV_STOP_KIND = 32,
	EV_RETCODE = 40,
	EV_R_SID = 40,
	EV_R_CID = 44,
	EV_R_ERROR = 48,
};

/* RFC 7143 11.14 and 11.15. */
#define OP_LOGOUT_REQUEST 0x06
#define OP_LOGOUT_RESPONSE 0x26
#define OP_IMMEDIATE 0x40
#define OP_MASK 0x3f
#define FLAG_FINAL 0x80
#define REASON_CLOSE_SESSION 0x00
#define BHS_RESPONSE 2

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void iscsinl_logout_pdu(uint8_t pdu[ISCSINL_BHS_SIZE])
{
	memset(pdu, 0, ISCSINL_BHS_SIZE);
	pdu[0] = OP_IMMEDIATE | OP_LOGOUT_REQUEST;
	pdu[1] = FLAG_FINAL | REASON_CLOSE_SESSION;
}

int iscsinl_build(const struct iscsinl_request *req, uint32_t seq, uint8_t *buf, size_t size)
{
	size_t pdu = req->type == ISCSINL_SEND_PDU ? ISCSINL_BHS_SIZE : 0;
	size_t len = NLMSG_LENGTH(ISCSINL_EVENT_SIZE + pdu);
	struct nlmsghdr nlh = { 0 };
	uint8_t *ev = buf + NLMSG_HDRLEN;

	if (size < NLMSG_ALIGN(len))
		return -ENOSPC;
	memset(buf, 0, NLMSG_ALIGN(len));
	nlh.nlmsg_len = (uint32_t)len;
	nlh.nlmsg_type = (uint16_t)req->type;
	nlh.nlmsg_flags = NLM_F_REQUEST;
	nlh.nlmsg_seq = seq;
	memcpy(buf, &nlh, sizeof(nlh));
	put32(ev + EV_TYPE, req->type);
	memcpy(ev + EV_HANDLE, &req->handle, sizeof(req->handle));
	put32(ev + EV_SID, req->sid);
	if (req->type != ISCSINL_DESTROY_SESSION && req->type != ISCSINL_UNBIND_SESSION)
		put32(ev + EV_CID, req->cid);
	if (req->type == ISCSINL_STOP_CONN)
		put32(ev + EV_STOP_KIND, ISCSINL_STOP_TERMINATE);
	if (req->type == ISCSINL_SEND_PDU) {
		put32(ev + EV_PDU_HDR_SIZE, ISCSINL_BHS_SIZE);
		iscsinl_logout_pdu(ev + ISCSINL_EVENT_SIZE);
	}
	return (int)NLMSG_ALIGN(len);
}

/* A reply keeps the request's type in the netlink header; its event's
 * type is the request's too, or "interface error" with the errno. */
static void read_reply(const struct nlmsghdr *nlh, const uint8_t *ev, struct iscsinl_msg *m)
{
	uint32_t type = get32(ev + EV_TYPE);

	m->kind = ISCSINL_REPLY;
	m->request = nlh->nlmsg_type;
	m->error = type == ISCSINL_K_IF_ERROR ? (int32_t)get32(ev + EV_IFERROR)
					      : (int32_t)get32(ev + EV_RETCODE);
	if (m->error > 0)
		m->error = -m->error;
}

static void read_event(const uint8_t *ev, size_t ev_len, struct iscsinl_msg *m)
{
	uint32_t type = get32(ev + EV_TYPE);
	const uint8_t *pdu = ev + ISCSINL_EVENT_SIZE;

	m->sid = get32(ev + EV_R_SID);
	m->cid = get32(ev + EV_R_CID);
	if (type == ISCSINL_K_UNBIND_SESSION) {
		m->kind = ISCSINL_UNBOUND;
	} else if (type == ISCSINL_K_CONN_ERROR) {
		m->kind = ISCSINL_CONN_FAILED;
		m->error = (int32_t)get32(ev + EV_R_ERROR);
	} else if (type == ISCSINL_K_RECV_PDU && ev_len >= ISCSINL_EVENT_SIZE + ISCSINL_BHS_SIZE &&
		   (pdu[0] & OP_MASK) == OP_LOGOUT_RESPONSE) {
		m->kind = ISCSINL_LOGOUT_RESPONSE;
		m->response = pdu[BHS_RESPONSE];
	}
}

static void read_one(const struct nlmsghdr *nlh, const uint8_t *ev, size_t ev_len,
		     struct iscsinl_msg *m)
{
	uint32_t type = get32(ev + EV_TYPE);

	memset(m, 0, sizeof(*m));
	m->kind = ISCSINL_OTHER;
	if (type == ISCSINL_K_IF_ERROR || (type > 0 && type < ISCSINL_KERNEL_BASE))
		read_reply(nlh, ev, m);
	else
		read_event(ev, ev_len, m);
}

size_t iscsinl_parse(const uint8_t *buf, size_t len, struct iscsinl_msg *out, size_t max)
{
	size_t off = 0, n = 0;

	while (n < max && len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr nlh;

		memcpy(&nlh, buf + off, sizeof(nlh));
		if (nlh.nlmsg_len < NLMSG_HDRLEN || nlh.nlmsg_len > len - off)
			break;
		if (nlh.nlmsg_len - NLMSG_HDRLEN >= ISCSINL_EVENT_SIZE)
			read_one(&nlh, buf + off + NLMSG_HDRLEN, nlh.nlmsg_len - NLMSG_HDRLEN, &out[n++]);
		if (NLMSG_ALIGN(nlh.nlmsg_len) >= len - off)
			break;
		off += NLMSG_ALIGN(nlh.nlmsg_len);
	}
	return n;
}

void iscsinl_note(struct iscsinl_state *st, const struct iscsinl_msg *m)
{
	if (m->kind == ISCSINL_REPLY) {
		if (m->request == st->awaiting) {
			st->replied = true;
			st->reply_error = m->error;
		}
		return;
	}
	if (m->sid != st->sid)
		return;
	if (m->kind == ISCSINL_UNBOUND)
		st->unbound = true;
	else if (m->kind == ISCSINL_CONN_FAILED)
		st->conn_failed = true;
	else if (m->kind == ISCSINL_LOGOUT_RESPONSE) {
		st->logout_answered = true;
		st->logout_response = m->response;
	}
}

const char *iscsinl_response_text(uint8_t response)
{
	switch (response) {
	case 0: return "closed";
	case 1: return "connection not found";
	case 2: return "connection recovery not supported";
	case 3: return "cleanup failed";
	default: return "an unknown response";
	}
}
