/* ctap2_authdata: building authenticator data (see ctap2_authdata.h). */
#include "tests/softfido/ctap2_authdata.h"

#include <string.h>

void ctap2_authdata_add(struct ctap2_authdata *a, const void *data, size_t len)
{
	if (a->overflow || len > sizeof(a->buf) - a->len) {
		a->overflow = 1;
		return;
	}
	memcpy(a->buf + a->len, data, len);
	a->len += len;
}

void ctap2_authdata_start(struct ctap2_authdata *a, const uint8_t rpid_hash[32], uint8_t flags,
			  uint32_t count)
{
	uint8_t be[4] = { (uint8_t)(count >> 24), (uint8_t)(count >> 16), (uint8_t)(count >> 8),
			  (uint8_t)count };

	a->len = 0;
	a->overflow = 0;
	ctap2_authdata_add(a, rpid_hash, 32);
	ctap2_authdata_add(a, &flags, 1);
	ctap2_authdata_add(a, be, 4);
}

void ctap2_authdata_cbor(struct ctap2_authdata *a, cbor_item_t *item)
{
	size_t n;

	if (!item) {
		a->overflow = 1;
		return;
	}
	n = a->overflow ? 0 : cbor_serialize(item, a->buf + a->len, sizeof(a->buf) - a->len);
	if (!n)
		a->overflow = 1;
	a->len += n;
	cbor_decref(&item);
}
