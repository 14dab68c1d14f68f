/* iscsinl: the messages of the kernel's iSCSI netlink interface
 * (NETLINK_ISCSI, the one iscsistart and iscsid drive the kernel's
 * initiator with) that the way out needs to end a session, and the iSCSI
 * Logout Request it sends through it. Pure: bytes in, bytes out; the
 * socket and sysfs are shutdown/iscsilogout.c's.
 *
 * The kernel does not export its header (include/scsi/iscsi_if.h is not
 * in linux-libc-dev), so the layout is described here from the kernel's
 * source, in our words. Every message is a netlink header, then one fixed
 * 56-byte event:
 *   0  u32 type        what the message is (the request, or the kernel's
 *                      event: 101 and up)
 *   4  u32 iferror     in a reply: the request's error (a negative errno)
 *                      when type was turned into 103, "interface error"
 *   8  u64 handle      the transport's handle (/sys/class/iscsi_transport/
 *                      tcp/handle)
 *  16  24 bytes        the request's arguments: sid at 16 and cid at 20
 *                      for every request used here; SEND_PDU has the
 *                      header's and the data's sizes at 24 and 28;
 *                      STOP_CONN has an unused connection handle at 24
 *                      and the stop's kind at 32
 *  40  16 bytes        the kernel's answer: in a reply, a return code at
 *                      40 (an int); in a received PDU or a connection
 *                      error, sid at 40 and cid at 44 (and the error's
 *                      code at 48); in "session unbound", sid at 40
 * A SEND_PDU carries the PDU after the event, a received PDU the same.
 * Since Linux 5.x the kernel dispatches on the netlink header's type, so
 * it is the request's type too. Each request is answered with a copy of
 * its event (unicast); what the kernel says on its own (a PDU received,
 * a session unbound, a connection failed) goes to multicast group 1. */
#ifndef LIFEBOAT_SHUTDOWN_ISCSINL_H
#define LIFEBOAT_SHUTDOWN_ISCSINL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISCSINL_PROTOCOL 8      /* NETLINK_ISCSI */
#define ISCSINL_GROUP 1         /* the group the kernel's events go to */
#define ISCSINL_EVENT_SIZE 56
#define ISCSINL_BHS_SIZE 48     /* an iSCSI PDU's Basic Header Segment */

/* The request types, and the kernel's own messages. */
enum iscsinl_type {
	ISCSINL_DESTROY_SESSION = 12,
	ISCSINL_DESTROY_CONN = 14,
	ISCSINL_STOP_CONN = 18,
	ISCSINL_SEND_PDU = 19,
	ISCSINL_UNBIND_SESSION = 27,  /* remove the session's SCSI devices */
	ISCSINL_KERNEL_BASE = 100,
	ISCSINL_K_RECV_PDU = 101,
	ISCSINL_K_CONN_ERROR = 102,
	ISCSINL_K_IF_ERROR = 103,
	ISCSINL_K_UNBIND_SESSION = 105,
};

/* STOP_CONN's kind: end the connection for good (no recovery). */
#define ISCSINL_STOP_TERMINATE 1

struct iscsinl_request {
	enum iscsinl_type type;
	uint64_t handle;   /* the transport's */
	uint32_t sid;
	uint32_t cid;
};

/* The iSCSI Logout Request of RFC 7143 section 11.14 that closes the
 * whole session: opcode 0x06 with the immediate bit, the final bit,
 * reason 0. ITT, CmdSN and ExpStatSN are left 0: the kernel's initiator
 * (libiscsi) puts its own task tag, the session's CmdSN and the
 * connection's ExpStatSN into every PDU it sends for userspace, and an
 * immediate PDU does not advance CmdSN. */
void iscsinl_logout_pdu(uint8_t pdu[ISCSINL_BHS_SIZE]);

/* One netlink message for req, numbered seq, into buf; a SEND_PDU carries
 * the Logout Request. Returns its length, or -ENOSPC. */
int iscsinl_build(const struct iscsinl_request *req, uint32_t seq, uint8_t *buf, size_t size);

/* What the kernel said, as far as the way out cares. */
enum iscsinl_kind {
	ISCSINL_REPLY,            /* the answer to one of our requests */
	ISCSINL_LOGOUT_RESPONSE,  /* the target's Logout Response, passed up */
	ISCSINL_UNBOUND,          /* the session's SCSI devices are removed */
	ISCSINL_CONN_FAILED,      /* the connection failed (or was closed) */
	ISCSINL_OTHER,
};

struct iscsinl_msg {
	enum iscsinl_kind kind;
	uint32_t request;   /* REPLY: the request's type */
	int32_t error;      /* REPLY: 0 or a negative errno; CONN_FAILED: the
			       kernel's connection error code */
	uint32_t sid, cid;  /* LOGOUT_RESPONSE, UNBOUND, CONN_FAILED */
	uint8_t response;   /* LOGOUT_RESPONSE: RFC 7143 11.15.1's code */
};

/* The messages of one datagram buf[0..len) into out[0..max); a message
 * whose lengths do not hold ends the walk. Returns how many were read. */
size_t iscsinl_parse(const uint8_t *buf, size_t len, struct iscsinl_msg *out, size_t max);

/* What has been heard about one session while ending it. */
struct iscsinl_state {
	uint32_t sid;
	uint32_t awaiting;      /* the type of the request sent last */
	bool replied;           /* its reply came (a late one to an earlier
				   request is not taken for it) */
	int32_t reply_error;    /* 0 or a negative errno */
	bool unbound;
	bool logout_answered;
	uint8_t logout_response;
	bool conn_failed;
};

/* Take one message into st (messages about other sessions are ignored). */
void iscsinl_note(struct iscsinl_state *st, const struct iscsinl_msg *m);

/* RFC 7143 11.15.1's Logout Response codes, for the log. */
const char *iscsinl_response_text(uint8_t response);

#endif
