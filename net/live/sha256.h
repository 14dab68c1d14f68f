/* sha256: SHA-256 (FIPS 180-4) over a stream, for checking a live root's
 * image while it arrives: the init links no crypto library, and a hash
 * computed as the bytes come costs no second pass over the image. */
#ifndef LIFEBOAT_NET_LIVE_SHA256_H
#define LIFEBOAT_NET_LIVE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;          /* hashed so far */
	uint8_t block[64];       /* the block being filled */
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN]);

#endif
