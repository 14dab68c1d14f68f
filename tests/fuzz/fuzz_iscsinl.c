/* fuzz_iscsinl: shutdown/iscsinl.c on arbitrary NETLINK_ISCSI datagrams
 * (what the kernel sends the way out): no crash, no read past the
 * datagram; no more messages than asked for, each of a known kind; a
 * reply's error is 0 or negative; what is noted for a session comes only
 * from that session's events. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shutdown/iscsinl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SID 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iscsinl_msg m[8];
	struct iscsinl_state st = { .sid = SID };
	bool seen_unbound = false, seen_answer = false, seen_failed = false;
	uint8_t *copy = malloc(size ? size : 1);
	size_t n;

	/* An exact-size copy, so ASan sees any read past the datagram. */
	memcpy(copy, data, size);
	n = iscsinl_parse(copy, size, m, 8);
	if (n > 8)
		abort();
	for (size_t i = 0; i < n; i++) {
		bool mine = m[i].sid == SID;

		if (m[i].kind > ISCSINL_OTHER)
			abort();
		if (m[i].kind == ISCSINL_REPLY && m[i].error > 0)
			abort();
		seen_unbound |= mine && m[i].kind == ISCSINL_UNBOUND;
		seen_answer |= mine && m[i].kind == ISCSINL_LOGOUT_RESPONSE;
		seen_failed |= mine && m[i].kind == ISCSINL_CONN_FAILED;
		iscsinl_note(&st, &m[i]);
		if ((st.unbound && !seen_unbound) || (st.logout_answered && !seen_answer) ||
		    (st.conn_failed && !seen_failed))
			abort();
	}
	(void)iscsinl_response_text(st.logout_response);
	free(copy);
	return 0;
}
