/* Fuzz target: tests/softfido's request parsers, the CTAPHID framing
 * (reassembly, channels, sequence numbers) and the CTAP2 CBOR commands.
 * The first byte picks: even, the rest is cut into 64-byte HID reports
 * (the last one short, which must be dropped); odd, the rest is one CTAP2
 * request (command byte, CBOR map). Every answer must fit its buffer and
 * start with a status; reports out are always whole. */
#include <stdint.h>
#include <string.h>

#include "tests/softfido/ctap2.h"
#include "tests/softfido/ctaphid.h"
#include "tests/softfido/fidostate.h"

static struct fidostate state;
static struct ctap2 ctap;
static struct ctaphid hid;
static int ready;

static uint8_t present(void *arg)
{
	(void)arg;
	ctaphid_keepalive(&hid, CTAPHID_STATUS_UPNEEDED);
	return CTAP2_OK;
}

static void drain(void)
{
	uint8_t report[CTAPHID_REPORT];

	while (ctaphid_output(&hid, report))
		if ((report[4] & 0x80) && (report[5] << 8 | report[6]) > CTAPHID_MSG_MAX)
			__builtin_trap();
}

static void framing(const uint8_t *data, size_t size)
{
	ctaphid_init(&hid, ctap2_request, &ctap);
	for (size_t off = 0; off < size; off += CTAPHID_REPORT) {
		size_t n = size - off < CTAPHID_REPORT ? size - off : CTAPHID_REPORT;

		ctaphid_input(&hid, data + off, n);
		drain();
	}
}

static void request(const uint8_t *data, size_t size)
{
	static uint8_t resp[CTAPHID_MSG_MAX];
	size_t n;

	if (!size)
		return;
	n = ctap2_request(&ctap, data, size, resp, sizeof(resp));
	if (n < 1 || n > sizeof(resp) || (resp[0] != CTAP2_OK && n != 1))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!ready) {
		if (fidostate_fresh(&state) < 0 || ctap2_init(&ctap, &state, present, NULL) < 0)
			__builtin_trap();
		ready = 1;
	}
	if (!size)
		return 0;
	if (data[0] & 1)
		request(data + 1, size - 1);
	else
		framing(data + 1, size - 1);
	return 0;
}
