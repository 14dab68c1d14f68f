/* Unit tests: the way out's iSCSI logout (shutdown/iscsinl.c,
 * shutdown/iscsilogout.c): the Logout Request's bytes (RFC 7143 11.14),
 * the NETLINK_ISCSI requests' layout, the reading of what the kernel
 * sends (replies, errors, the target's Logout Response, the unbind and
 * connection events, truncated and foreign messages) and what is noted per
 * session. The sessions read from sysfs are tested in test_shutdown.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>

#include "shutdown/iscsinl.h"

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void logout_pdu(void **state)
{
	uint8_t pdu[ISCSINL_BHS_SIZE];

	(void)state;
	memset(pdu, 0xaa, sizeof(pdu));
	iscsinl_logout_pdu(pdu);
	assert_int_equal(pdu[0], 0x46);  /* immediate | Logout Request */
	assert_int_equal(pdu[1], 0x80);  /* final, reason 0: close the session */
	/* No AHS, no data; ITT, CID, CmdSN and ExpStatSN are the kernel's. */
	for (size_t i = 2; i < sizeof(pdu); i++)
		assert_int_equal(pdu[i], 0);
}

static void build_requests(void **state)
{
	uint8_t buf[256];
	struct iscsinl_request req = { ISCSINL_SEND_PDU, 0x1122334455667788ULL, 3, 0 };
	struct nlmsghdr nlh;
	const uint8_t *ev = buf + NLMSG_HDRLEN;
	uint64_t handle;
	int len;

	(void)state;
	len = iscsinl_build(&req, 7, buf, sizeof(buf));
	assert_int_equal(len, NLMSG_HDRLEN + ISCSINL_EVENT_SIZE + ISCSINL_BHS_SIZE);
	memcpy(&nlh, buf, sizeof(nlh));
	assert_int_equal(nlh.nlmsg_len, (uint32_t)len);
	assert_int_equal(nlh.nlmsg_type, ISCSINL_SEND_PDU);  /* the kernel dispatches on it */
	assert_int_equal(nlh.nlmsg_seq, 7);
	assert_int_equal(u32_at(ev), ISCSINL_SEND_PDU);
	memcpy(&handle, ev + 8, sizeof(handle));
	assert_true(handle == 0x1122334455667788ULL);
	assert_int_equal(u32_at(ev + 16), 3);                 /* sid */
	assert_int_equal(u32_at(ev + 20), 0);                 /* cid */
	assert_int_equal(u32_at(ev + 24), ISCSINL_BHS_SIZE);  /* header size */
	assert_int_equal(u32_at(ev + 28), 0);                 /* no data */
	assert_int_equal(ev[ISCSINL_EVENT_SIZE], 0x46);
	/* Stop: terminate (1), not recover; sid and cid. */
	req = (struct iscsinl_request){ ISCSINL_STOP_CONN, 1, 4, 2 };
	len = iscsinl_build(&req, 8, buf, sizeof(buf));
	assert_int_equal(len, NLMSG_HDRLEN + ISCSINL_EVENT_SIZE);
	assert_int_equal(u32_at(ev + 16), 4);
	assert_int_equal(u32_at(ev + 20), 2);
	assert_int_equal(u32_at(ev + 32), ISCSINL_STOP_TERMINATE);
	/* The session's own requests carry the sid only. */
	req = (struct iscsinl_request){ ISCSINL_DESTROY_SESSION, 1, 5, 9 };
	assert_int_equal(iscsinl_build(&req, 9, buf, sizeof(buf)), NLMSG_HDRLEN + ISCSINL_EVENT_SIZE);
	assert_int_equal(u32_at(ev + 16), 5);
	assert_int_equal(u32_at(ev + 20), 0);
	/* Too small a buffer. */
	assert_int_equal(iscsinl_build(&req, 9, buf, NLMSG_HDRLEN + 8), -ENOSPC);
}

/* A kernel message: nlmsg_type, then the event's type and its "r" words
 * (at 40, 44, 48), then pdu_len bytes of PDU. Returns its aligned size. */
static size_t kmsg(uint8_t *at, uint16_t nltype, uint32_t type, uint32_t r0, uint32_t r1,
		   uint32_t r2, const uint8_t *pdu, size_t pdu_len)
{
	struct nlmsghdr nlh = { 0 };
	uint8_t *ev = at + NLMSG_HDRLEN;

	nlh.nlmsg_len = (uint32_t)NLMSG_LENGTH(ISCSINL_EVENT_SIZE + pdu_len);
	nlh.nlmsg_type = nltype;
	memset(at, 0, NLMSG_ALIGN(nlh.nlmsg_len));
	memcpy(at, &nlh, sizeof(nlh));
	put_u32(ev, type);
	put_u32(ev + 40, r0);
	put_u32(ev + 44, r1);
	put_u32(ev + 48, r2);
	if (pdu_len)
		memcpy(ev + ISCSINL_EVENT_SIZE, pdu, pdu_len);
	return NLMSG_ALIGN(nlh.nlmsg_len);
}

static void parse_kernel_messages(void **state)
{
	uint8_t buf[1024] = { 0 }, rsp[ISCSINL_BHS_SIZE] = { 0x26, 0x80, 0 };
	struct iscsinl_msg m[8];
	size_t len = 0, n;

	(void)state;
	/* A reply, an error reply, the Logout Response, an unbind, a
	 * connection error, and an event of no interest. */
	len += kmsg(buf + len, ISCSINL_SEND_PDU, ISCSINL_SEND_PDU, 0, 0, 0, NULL, 0);
	len += kmsg(buf + len, ISCSINL_STOP_CONN, ISCSINL_K_IF_ERROR, 0, 0, 0, NULL, 0);
	put_u32(buf + len - NLMSG_ALIGN(NLMSG_LENGTH(ISCSINL_EVENT_SIZE)) + NLMSG_HDRLEN + 4,
		(uint32_t)-EINVAL);
	len += kmsg(buf + len, 0, ISCSINL_K_RECV_PDU, 3, 0, 0, rsp, sizeof(rsp));
	len += kmsg(buf + len, 0, ISCSINL_K_UNBIND_SESSION, 3, 1, 0, NULL, 0);
	len += kmsg(buf + len, 0, ISCSINL_K_CONN_ERROR, 3, 0, 1011, NULL, 0);
	len += kmsg(buf + len, 0, 106, 3, 0, 0, NULL, 0);
	n = iscsinl_parse(buf, len, m, 8);
	assert_int_equal(n, 6);
	assert_int_equal(m[0].kind, ISCSINL_REPLY);
	assert_int_equal(m[0].request, ISCSINL_SEND_PDU);
	assert_int_equal(m[0].error, 0);
	assert_int_equal(m[1].kind, ISCSINL_REPLY);
	assert_int_equal(m[1].request, ISCSINL_STOP_CONN);
	assert_int_equal(m[1].error, -EINVAL);
	assert_int_equal(m[2].kind, ISCSINL_LOGOUT_RESPONSE);
	assert_int_equal(m[2].sid, 3);
	assert_int_equal(m[2].response, 0);
	assert_int_equal(m[3].kind, ISCSINL_UNBOUND);
	assert_int_equal(m[3].sid, 3);
	assert_int_equal(m[4].kind, ISCSINL_CONN_FAILED);
	assert_int_equal(m[4].error, 1011);
	assert_int_equal(m[5].kind, ISCSINL_OTHER);
	/* max bounds what is read. */
	assert_int_equal(iscsinl_parse(buf, len, m, 2), 2);
	/* A received PDU that is not a Logout Response, and one cut short. */
	rsp[0] = 0x20;  /* a NOP-In */
	len = kmsg(buf, 0, ISCSINL_K_RECV_PDU, 3, 0, 0, rsp, sizeof(rsp));
	assert_int_equal(iscsinl_parse(buf, len, m, 8), 1);
	assert_int_equal(m[0].kind, ISCSINL_OTHER);
	rsp[0] = 0x26;
	len = kmsg(buf, 0, ISCSINL_K_RECV_PDU, 3, 0, 0, rsp, 8);
	assert_int_equal(iscsinl_parse(buf, len, m, 8), 1);
	assert_int_equal(m[0].kind, ISCSINL_OTHER);
}

static void parse_malformed(void **state)
{
	uint8_t buf[512] = { 0 };
	struct iscsinl_msg m[4];
	struct nlmsghdr nlh;
	size_t len;

	(void)state;
	assert_int_equal(iscsinl_parse(buf, 0, m, 4), 0);
	assert_int_equal(iscsinl_parse(buf, NLMSG_HDRLEN - 1, m, 4), 0);
	/* A length past the datagram, and one shorter than the header. */
	len = kmsg(buf, 0, ISCSINL_K_UNBIND_SESSION, 1, 0, 0, NULL, 0);
	assert_int_equal(iscsinl_parse(buf, len - 1, m, 4), 0);
	memcpy(&nlh, buf, sizeof(nlh));
	nlh.nlmsg_len = 4;
	memcpy(buf, &nlh, sizeof(nlh));
	assert_int_equal(iscsinl_parse(buf, len, m, 4), 0);
	/* A message too short for the event is skipped, the next one read. */
	nlh.nlmsg_len = NLMSG_HDRLEN + 8;
	memcpy(buf, &nlh, sizeof(nlh));
	len = NLMSG_ALIGN(nlh.nlmsg_len);
	len += kmsg(buf + len, 0, ISCSINL_K_UNBIND_SESSION, 2, 0, 0, NULL, 0);
	assert_int_equal(iscsinl_parse(buf, len, m, 4), 1);
	assert_int_equal(m[0].kind, ISCSINL_UNBOUND);
	assert_int_equal(m[0].sid, 2);
}

static void note_per_session(void **state)
{
	struct iscsinl_state st = { .sid = 3 };
	struct iscsinl_msg other = { .kind = ISCSINL_LOGOUT_RESPONSE, .sid = 4, .response = 0 };
	struct iscsinl_msg mine = { .kind = ISCSINL_LOGOUT_RESPONSE, .sid = 3, .response = 3 };
	struct iscsinl_msg reply = { .kind = ISCSINL_REPLY, .request = ISCSINL_SEND_PDU, .error = -EPERM };
	struct iscsinl_msg unbound = { .kind = ISCSINL_UNBOUND, .sid = 3 };
	struct iscsinl_msg failed = { .kind = ISCSINL_CONN_FAILED, .sid = 3 };

	(void)state;
	iscsinl_note(&st, &other);
	assert_false(st.logout_answered);
	iscsinl_note(&st, &mine);
	assert_true(st.logout_answered);
	assert_int_equal(st.logout_response, 3);
	assert_string_equal(iscsinl_response_text(st.logout_response), "cleanup failed");
	assert_string_equal(iscsinl_response_text(0), "closed");
	assert_string_equal(iscsinl_response_text(200), "an unknown response");
	/* A reply counts only for the request awaited. */
	st.awaiting = ISCSINL_STOP_CONN;
	iscsinl_note(&st, &reply);
	assert_false(st.replied);
	st.awaiting = ISCSINL_SEND_PDU;
	iscsinl_note(&st, &reply);
	assert_true(st.replied);
	assert_int_equal(st.reply_error, -EPERM);
	assert_false(st.unbound);
	iscsinl_note(&st, &unbound);
	assert_true(st.unbound);
	assert_false(st.conn_failed);
	iscsinl_note(&st, &failed);
	assert_true(st.conn_failed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(logout_pdu),
		cmocka_unit_test(build_requests),
		cmocka_unit_test(parse_kernel_messages),
		cmocka_unit_test(parse_malformed),
		cmocka_unit_test(note_per_session),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
