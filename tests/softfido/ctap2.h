/* ctap2: the CTAP 2.0 authenticator API (section 5) of softfido:
 * authenticatorGetInfo, MakeCredential (ES256, "packed" self attestation,
 * hmac-secret), GetAssertion (allowList only: no resident keys) and
 * ClientPIN protocol 1. No CTAP 2.1, no built-in user verification. */
#ifndef SOFTFIDO_CTAP2_H
#define SOFTFIDO_CTAP2_H

#include <stddef.h>
#include <stdint.h>

#include <cbor.h>
#include <openssl/evp.h>

#include "tests/softfido/fidostate.h"

#define CTAP2_MAKE_CREDENTIAL 0x01
#define CTAP2_GET_ASSERTION 0x02
#define CTAP2_GET_INFO 0x04
#define CTAP2_CLIENT_PIN 0x06

#define CTAP2_OK 0x00
#define CTAP1_ERR_INVALID_COMMAND 0x01
#define CTAP1_ERR_INVALID_PARAMETER 0x02
#define CTAP1_ERR_OTHER 0x7f
#define CTAP2_ERR_CBOR_UNEXPECTED_TYPE 0x11
#define CTAP2_ERR_INVALID_CBOR 0x12
#define CTAP2_ERR_MISSING_PARAMETER 0x14
#define CTAP2_ERR_CREDENTIAL_EXCLUDED 0x19
#define CTAP2_ERR_UNSUPPORTED_ALGORITHM 0x26
#define CTAP2_ERR_UNSUPPORTED_OPTION 0x2b
#define CTAP2_ERR_INVALID_OPTION 0x2c
#define CTAP2_ERR_KEEPALIVE_CANCEL 0x2d
#define CTAP2_ERR_NO_CREDENTIALS 0x2e
#define CTAP2_ERR_USER_ACTION_TIMEOUT 0x2f
#define CTAP2_ERR_NOT_ALLOWED 0x30
#define CTAP2_ERR_PIN_INVALID 0x31
#define CTAP2_ERR_PIN_BLOCKED 0x32
#define CTAP2_ERR_PIN_AUTH_INVALID 0x33
#define CTAP2_ERR_PIN_AUTH_BLOCKED 0x34
#define CTAP2_ERR_PIN_NOT_SET 0x35
#define CTAP2_ERR_PIN_REQUIRED 0x36
#define CTAP2_ERR_PIN_POLICY_VIOLATION 0x37
#define CTAP2_ERR_REQUEST_TOO_LARGE 0x39

/* authData flags */
#define CTAP2_FLAG_UP 0x01
#define CTAP2_FLAG_UV 0x04
#define CTAP2_FLAG_AT 0x40
#define CTAP2_FLAG_ED 0x80

/* Asks for user presence: CTAP2_OK once the user is there, or the error
 * (CTAP2_ERR_KEEPALIVE_CANCEL, CTAP2_ERR_USER_ACTION_TIMEOUT). */
typedef uint8_t ctap2_presence_fn(void *arg);

struct ctap2 {
	struct fidostate *state;
	ctap2_presence_fn *presence;
	void *presence_arg;
	/* Made at power-up (CTAP 2.0 5.5.2): the key agreement key and the
	 * pinToken; mismatches counts wrong PINs since power-up. */
	EVP_PKEY *ka;
	uint8_t pin_token[32];
	int mismatches;
};

extern const uint8_t ctap2_aaguid[16];

int ctap2_init(struct ctap2 *c, struct fidostate *state, ctap2_presence_fn *presence, void *arg);
void ctap2_free(struct ctap2 *c);
/* A ctaphid_cbor_fn: arg is the struct ctap2. */
size_t ctap2_request(void *arg, const uint8_t *req, size_t len, uint8_t *resp, size_t cap);

/* The commands (ctap2_make.c, ctap2_assert.c, ctap2_pin.c): a status, and
 * on CTAP2_OK maybe a response map in *out. */
uint8_t ctap2_make_credential(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out);
uint8_t ctap2_assert_get(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out);
uint8_t ctap2_pin_command(struct ctap2 *c, const cbor_item_t *req, cbor_item_t **out);
/* The pinAuth and pinProtocol of a MakeCredential or GetAssertion: CTAP2_OK
 * with *uv 1 when pinAuth is right, *uv 0 when there is none. */
uint8_t ctap2_pin_check(struct ctap2 *c, const cbor_item_t *pin_auth, const cbor_item_t *protocol,
			const uint8_t cdh[32], int *uv);
/* sharedSecret with a platform's COSE key (PIN protocol 1). */
uint8_t ctap2_pin_shared(struct ctap2 *c, const cbor_item_t *cose, uint8_t secret[32]);
/* Signs authData || clientDataHash with key; the signature item or NULL. */
cbor_item_t *ctap2_sign(EVP_PKEY *key, const uint8_t *auth, size_t len, const uint8_t cdh[32]);
/* Counts one more signature and saves the state; the new count. */
int ctap2_count(struct ctap2 *c, uint32_t *count);

#endif
