/* token: the LUKS2 header's JSON metadata and the `clevis` tokens in it
 * (what `clevis luks bind` adds: {"type":"clevis","keyslots":["1"],
 * "jwe":{...}}). The systemd tokens are read by blockstack/ (another
 * reader of the same JSON area). */
#ifndef LIFEBOAT_CLEVIS_TOKEN_H
#define LIFEBOAT_CLEVIS_TOKEN_H

#include <stddef.h>

#include "clevis/jwe.h"

/* The LUKS2 JSON area is at most 4 MiB (the largest header size). */
#define TOKEN_HEADER_MAX (4u << 20)

/* Check one header copy (buf, len bytes: the binary header then its JSON
 * area) with its SHA-256 checksum, and point *json at the JSON text.
 * Returns 0, or -EINVAL (not LUKS2, bad sizes, checksum mismatch). */
int token_header_check(unsigned char *buf, size_t len, const char **json, size_t *json_len);
/* Read the JSON metadata of the LUKS2 container at path: the primary
 * header, else the secondary. *json is malloc'd, NUL-terminated. Returns
 * 0, -EINVAL when neither copy is a valid LUKS2 header, or -errno. */
int token_read_json(const char *path, char **json, size_t *len);
/* Call fn for each clevis token of the metadata whose JWE parses, in token
 * order, with its id and JWE; stops at fn's first return other than 0 and
 * returns it. Returns 0 when fn never stopped, -EINVAL for JSON that is
 * not LUKS2 metadata. */
int token_foreach_clevis(const char *json, size_t len,
			 int (*fn)(int id, const struct clevis_jwe *jwe, void *ctx), void *ctx);

#endif
