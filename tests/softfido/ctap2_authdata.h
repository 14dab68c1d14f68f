/* ctap2_authdata: the authenticator data both commands sign (CTAP 2.0
 * 6.1, WebAuthn 6.1): rpIdHash, flags, signCount, then the attested
 * credential data and the extensions when present. */
#ifndef SOFTFIDO_CTAP2_AUTHDATA_H
#define SOFTFIDO_CTAP2_AUTHDATA_H

#include <stddef.h>
#include <stdint.h>

#include <cbor.h>

#define CTAP2_AUTHDATA_MAX 1024

struct ctap2_authdata {
	uint8_t buf[CTAP2_AUTHDATA_MAX];
	size_t len;
	int overflow;
};

void ctap2_authdata_start(struct ctap2_authdata *a, const uint8_t rpid_hash[32], uint8_t flags,
			  uint32_t count);
void ctap2_authdata_add(struct ctap2_authdata *a, const void *data, size_t len);
/* Appends a CBOR item (the COSE key, the extensions map); consumes it. */
void ctap2_authdata_cbor(struct ctap2_authdata *a, cbor_item_t *item);

#endif
