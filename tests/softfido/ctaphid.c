/* ctaphid: CTAPHID framing and channels (see ctaphid.h). */
#include "tests/softfido/ctaphid.h"

#include <string.h>

#define INIT_DATA 57
#define CONT_DATA 59

void ctaphid_init(struct ctaphid *h, ctaphid_cbor_fn *cbor, void *arg)
{
	memset(h, 0, sizeof(*h));
	h->cbor = cbor;
	h->arg = arg;
	h->next_cid = 1;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint8_t *queue_slot(struct ctaphid *h)
{
	uint8_t *slot;

	if (h->count == CTAPHID_QUEUE)
		return NULL;	/* the host stopped reading: drop */
	slot = h->queue[(h->head + h->count++) % CTAPHID_QUEUE];
	memset(slot, 0, CTAPHID_REPORT);
	return slot;
}

/* A message to the host, cut into an initialization packet and
 * continuation packets. */
static void send_msg(struct ctaphid *h, uint32_t cid, uint8_t cmd, const uint8_t *data, size_t len)
{
	uint8_t *p = queue_slot(h);
	size_t off = len < INIT_DATA ? len : INIT_DATA;

	if (!p)
		return;
	put_be32(p, cid);
	p[4] = cmd;
	p[5] = (uint8_t)(len >> 8);
	p[6] = (uint8_t)len;
	memcpy(p + 7, data, off);
	for (uint8_t seq = 0; off < len; seq++) {
		size_t n = len - off < CONT_DATA ? len - off : CONT_DATA;

		if (!(p = queue_slot(h)))
			return;
		put_be32(p, cid);
		p[4] = seq;
		memcpy(p + 5, data + off, n);
		off += n;
	}
}

static void send_error(struct ctaphid *h, uint32_t cid, uint8_t code)
{
	send_msg(h, cid, CTAPHID_ERROR, &code, 1);
}

static void do_init(struct ctaphid *h, uint32_t cid, const uint8_t *data, size_t len)
{
	uint8_t r[17];
	uint32_t newcid = cid;

	if (len != 8) {
		send_error(h, cid, CTAPHID_ERR_INVALID_LEN);
		return;
	}
	if (cid == CTAPHID_BROADCAST) {
		newcid = h->next_cid++;
		if (h->next_cid == CTAPHID_BROADCAST)
			h->next_cid = 1;
	}
	memcpy(r, data, 8);
	put_be32(r + 8, newcid);
	r[12] = 2;		/* CTAPHID protocol version */
	r[13] = 1;		/* device version 1.0.0 */
	r[14] = 0;
	r[15] = 0;
	r[16] = 0x04 | 0x08;	/* CAPABILITY_CBOR, NMSG: no U2F messages */
	send_msg(h, cid, CTAPHID_INIT, r, sizeof(r));
}

static void do_cbor(struct ctaphid *h, uint32_t cid, size_t len)
{
	size_t n;

	if (!len) {
		send_error(h, cid, CTAPHID_ERR_INVALID_LEN);
		return;
	}
	h->busy = 1;
	h->cancelled = 0;
	h->busy_cid = cid;
	n = h->cbor(h->arg, h->msg, len, h->resp, sizeof(h->resp));
	h->busy = 0;
	send_msg(h, cid, CTAPHID_CBOR, h->resp, n);
}

/* A whole message from the host. */
static void dispatch(struct ctaphid *h)
{
	uint32_t cid = h->cid;

	h->assembling = 0;
	if (h->cmd == CTAPHID_INIT) {
		do_init(h, cid, h->msg, h->need);
		return;
	}
	if (cid == CTAPHID_BROADCAST || cid >= h->next_cid) {
		send_error(h, cid, CTAPHID_ERR_INVALID_CHANNEL);
		return;
	}
	switch (h->cmd) {
	case CTAPHID_PING:
		send_msg(h, cid, CTAPHID_PING, h->msg, h->need);
		break;
	case CTAPHID_CBOR:
		do_cbor(h, cid, h->need);
		break;
	case CTAPHID_CANCEL:
		break;		/* nothing running to cancel */
	default:
		send_error(h, cid, CTAPHID_ERR_INVALID_CMD);
	}
}

/* An initialization packet while a CBOR request runs: only CANCEL of that
 * request and INIT are served. */
static void input_busy(struct ctaphid *h, uint32_t cid, const uint8_t *p)
{
	size_t len = (size_t)p[5] << 8 | p[6];

	if (p[4] == CTAPHID_CANCEL && cid == h->busy_cid)
		h->cancelled = 1;
	else if (p[4] == CTAPHID_INIT && len == 8)
		do_init(h, cid, p + 7, len);
	else
		send_error(h, cid, CTAPHID_ERR_CHANNEL_BUSY);
}

static void input_init(struct ctaphid *h, uint32_t cid, const uint8_t *p)
{
	size_t len = (size_t)p[5] << 8 | p[6];

	if (h->busy) {
		input_busy(h, cid, p);
		return;
	}
	if (h->assembling && cid != h->cid) {
		if (p[4] == CTAPHID_INIT && len == 8)
			do_init(h, cid, p + 7, len);
		else
			send_error(h, cid, CTAPHID_ERR_CHANNEL_BUSY);
		return;
	}
	/* On the same channel a new initialization packet restarts: INIT
	 * resynchronizes, anything else was out of sequence. */
	if (h->assembling && p[4] != CTAPHID_INIT) {
		h->assembling = 0;
		send_error(h, cid, CTAPHID_ERR_INVALID_SEQ);
		return;
	}
	if (len > CTAPHID_MSG_MAX) {
		send_error(h, cid, CTAPHID_ERR_INVALID_LEN);
		return;
	}
	h->assembling = 1;
	h->cid = cid;
	h->cmd = p[4];
	h->need = len;
	h->have = len < INIT_DATA ? len : INIT_DATA;
	h->seq = 0;
	memcpy(h->msg, p + 7, h->have);
	if (h->have == h->need)
		dispatch(h);
}

static void input_cont(struct ctaphid *h, uint32_t cid, const uint8_t *p)
{
	size_t n;

	/* A continuation nobody started, or one arriving while a request
	 * runs, is ignored (CTAP 2.0 8.1.5.2). */
	if (!h->assembling || h->busy || cid != h->cid)
		return;
	if (p[4] != h->seq) {
		h->assembling = 0;
		send_error(h, cid, CTAPHID_ERR_INVALID_SEQ);
		return;
	}
	n = h->need - h->have < CONT_DATA ? h->need - h->have : CONT_DATA;
	memcpy(h->msg + h->have, p + 5, n);
	h->have += n;
	h->seq++;
	if (h->have == h->need)
		dispatch(h);
}

void ctaphid_input(struct ctaphid *h, const uint8_t *report, size_t len)
{
	uint32_t cid;

	if (len != CTAPHID_REPORT)
		return;
	cid = (uint32_t)report[0] << 24 | (uint32_t)report[1] << 16 | (uint32_t)report[2] << 8 | report[3];
	if (!cid) {
		send_error(h, cid, CTAPHID_ERR_INVALID_CHANNEL);
		return;
	}
	if (report[4] & 0x80)
		input_init(h, cid, report);
	else
		input_cont(h, cid, report);
}

int ctaphid_output(struct ctaphid *h, uint8_t report[CTAPHID_REPORT])
{
	if (!h->count)
		return 0;
	memcpy(report, h->queue[h->head], CTAPHID_REPORT);
	h->head = (h->head + 1) % CTAPHID_QUEUE;
	h->count--;
	return 1;
}

void ctaphid_keepalive(struct ctaphid *h, uint8_t status)
{
	if (h->busy)
		send_msg(h, h->busy_cid, CTAPHID_KEEPALIVE, &status, 1);
}

int ctaphid_cancelled(const struct ctaphid *h)
{
	return h->cancelled;
}
