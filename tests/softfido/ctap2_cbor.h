/* ctap2_cbor: reading CTAP2 request maps and building COSE keys with
 * libcbor. Every getter checks the item's type; NULL means absent or of
 * another type, which the commands turn into their CTAP2 errors. */
#ifndef SOFTFIDO_CTAP2_CBOR_H
#define SOFTFIDO_CTAP2_CBOR_H

#include <stddef.h>
#include <stdint.h>

#include <cbor.h>
#include <openssl/evp.h>

#define CTAP2_COSE_ES256 (-7)
#define CTAP2_COSE_ECDH (-25)	/* ECDH-ES+HKDF-256: PIN protocol 1 keys */

/* 0 when no definite array or map in buf claims more items than there
 * are bytes left: libcbor allocates (and clears) a container's slots
 * before reading them, so a 5-byte header could cost gigabytes. */
int ctap2_cbor_sane(const uint8_t *buf, size_t len);
/* A map's value under an integer key, or NULL (also when map is no map). */
cbor_item_t *ctap2_cbor_get(const cbor_item_t *map, int64_t key);
/* A map's value under a text key, or NULL. */
cbor_item_t *ctap2_cbor_get_text(const cbor_item_t *map, const char *key);
/* An integer item's value; 0 or -1 when it is none. */
int ctap2_cbor_int(const cbor_item_t *item, int64_t *value);
/* A definite byte string's bytes and length, or NULL. */
const uint8_t *ctap2_cbor_bytes(const cbor_item_t *item, size_t *len);
/* A definite text string equal to s. */
int ctap2_cbor_text_is(const cbor_item_t *item, const char *s);
/* 1 for true, 0 for false, -1 when not a boolean. */
int ctap2_cbor_bool(const cbor_item_t *item);

cbor_item_t *ctap2_cbor_int_item(int64_t v);
/* Adds key (an integer) and value to a definite map; 0 or -1. The value's
 * reference passes to the map. */
int ctap2_cbor_put(cbor_item_t *map, int64_t key, cbor_item_t *value);
int ctap2_cbor_put_text(cbor_item_t *map, const char *key, cbor_item_t *value);
/* The COSE_Key of a P-256 public key (RFC 8152 13.1.1), with alg. */
cbor_item_t *ctap2_cbor_cose(EVP_PKEY *key, int64_t alg);
/* A platform's COSE_Key, checked to be a point on P-256. */
EVP_PKEY *ctap2_cbor_cose_key(const cbor_item_t *cose);

#endif
