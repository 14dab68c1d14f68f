/* ctaphid: the CTAPHID transport of CTAP 2.0 (section 8.1) over 64-byte HID
 * reports: channel allocation (INIT), message reassembly from an
 * initialization packet and up to 128 continuation packets, PING, CBOR,
 * CANCEL, KEEPALIVE and ERROR. No I/O here: reports go in through
 * ctaphid_input() and come out of a queue through ctaphid_output(). */
#ifndef SOFTFIDO_CTAPHID_H
#define SOFTFIDO_CTAPHID_H

#include <stddef.h>
#include <stdint.h>

#define CTAPHID_REPORT 64
#define CTAPHID_MSG_MAX (57 + 128 * 59)
#define CTAPHID_QUEUE 160	/* > a full message's 130 packets, keepalives */
#define CTAPHID_BROADCAST 0xffffffffu

#define CTAPHID_PING 0x81
#define CTAPHID_MSG 0x83
#define CTAPHID_INIT 0x86
#define CTAPHID_WINK 0x88
#define CTAPHID_CBOR 0x90
#define CTAPHID_CANCEL 0x91
#define CTAPHID_KEEPALIVE 0xbb
#define CTAPHID_ERROR 0xbf

#define CTAPHID_ERR_INVALID_CMD 0x01
#define CTAPHID_ERR_INVALID_LEN 0x03
#define CTAPHID_ERR_INVALID_SEQ 0x04
#define CTAPHID_ERR_CHANNEL_BUSY 0x06
#define CTAPHID_ERR_INVALID_CHANNEL 0x0b

#define CTAPHID_STATUS_PROCESSING 1
#define CTAPHID_STATUS_UPNEEDED 2

/* The CTAP2 layer: a CBOR request (command byte first) in, the response
 * (status byte first) out; returns its length (at least 1). */
typedef size_t ctaphid_cbor_fn(void *arg, const uint8_t *req, size_t len, uint8_t *resp, size_t cap);

struct ctaphid {
	ctaphid_cbor_fn *cbor;
	void *arg;
	uint32_t next_cid;
	/* the message being reassembled */
	int assembling;
	uint32_t cid;
	uint8_t cmd, seq;
	size_t need, have;
	uint8_t msg[CTAPHID_MSG_MAX];
	uint8_t resp[CTAPHID_MSG_MAX];
	/* a CBOR request is running (waiting for user presence): the packets
	 * that come meanwhile are answered busy, or cancel it */
	int busy, cancelled;
	uint32_t busy_cid;
	uint8_t queue[CTAPHID_QUEUE][CTAPHID_REPORT];
	size_t head, count;
};

void ctaphid_init(struct ctaphid *h, ctaphid_cbor_fn *cbor, void *arg);
/* One report from the host; anything but 64 bytes is dropped. May call the
 * CBOR handler, which may call ctaphid_input() again while it waits. */
void ctaphid_input(struct ctaphid *h, const uint8_t *report, size_t len);
/* The next report for the host: 1 and report filled, or 0. */
int ctaphid_output(struct ctaphid *h, uint8_t report[CTAPHID_REPORT]);
/* From inside the CBOR handler: a KEEPALIVE for the running request. */
void ctaphid_keepalive(struct ctaphid *h, uint8_t status);
/* From inside the CBOR handler: the host sent CANCEL for this request. */
int ctaphid_cancelled(const struct ctaphid *h);

#endif
