/* jwe: a Clevis JWE, as `clevis encrypt` writes it (compact serialization)
 * or as a LUKS2 `clevis` token holds it (the flattened JSON form), with its
 * protected header decoded: which pin, and for tang the server's URL, the
 * exchange key it advertised and the client's ephemeral key. */
#ifndef LIFEBOAT_JWE_H
#define LIFEBOAT_JWE_H

#include <stddef.h>

struct json_object;

/* Binary parts of a JWE are a few hundred bytes. */
#define JWE_PART_MAX 4096
/* The protected header in base64url: an sss header holds every share's
 * whole JWE (about 2 KB per Tang share, more when nested: t=1 of {2 tang,
 * sss of 2 tang} is 8.8 KB), so it is bounded by the largest LUKS2 JSON
 * area (4 MiB less its 4 KiB binary header), not by a part's size. */
#define JWE_HEADER_MAX (4u * 1024 * 1024 - 4096)
/* sss inside sss inside ...: a hostile header must not recurse deeply. */
#define JWE_DEPTH_MAX 4

struct clevis_jwe {
	char *protected_b64;                /* the header as sent: the AEAD's additional data */
	struct json_object *header;         /* the decoded protected header */
	unsigned char iv[64], tag[64];
	unsigned char *ciphertext;
	size_t iv_len, tag_len, ciphertext_len;
};

/* Parse the compact form PROTECTED.KEY.IV.CIPHERTEXT.TAG. Returns 0, or
 * -EINVAL for anything malformed (the caller says which token it was). */
int jwe_parse_compact(const char *text, size_t len, struct clevis_jwe *out);
/* Parse a LUKS2 clevis token's "jwe" object. Returns 0 or -EINVAL. */
int jwe_parse_object(struct json_object *jwe, struct clevis_jwe *out);
/* A copy of src in dst, to keep past src's life. Returns 0 or -ENOMEM. */
int jwe_copy(const struct clevis_jwe *src, struct clevis_jwe *dst);
void jwe_free(struct clevis_jwe *jwe);

/* The header's clevis.pin ("tang", "tpm2", "sss"), or NULL. */
const char *jwe_pin(const struct clevis_jwe *jwe);
/* For pin "tang": clevis.tang.url, or NULL. */
const char *jwe_tang_url(const struct clevis_jwe *jwe);

/* The Tang server a binding contacts first: its own URL for pin tang,
 * the first tang share's (depth first) for sss; copied into out. NULL
 * when there is none. */
const char *jwe_first_tang_url(const struct clevis_jwe *jwe, char *out, size_t size);

#endif
