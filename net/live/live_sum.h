/* live_sum: the SHA-256 a live image must have: rd.live.sha256=HEX, or
 * the line of a checksum file (URL.sha256, sha256sum's format) that names
 * the image. */
#ifndef LIFEBOAT_NET_LIVE_LIVE_SUM_H
#define LIFEBOAT_NET_LIVE_LIVE_SUM_H

#include <stddef.h>
#include <stdint.h>

/* A SHA-256, in bytes (net/live/live_hash.h computes it). */
#define SHA256_LEN 32
#define LIVE_SUM_HEX (2 * SHA256_LEN + 1)

/* Exactly 64 hexadecimal digits (either case) of text's len bytes into
 * out. Returns 0 or -EINVAL. */
int live_sum_from_hex(const char *text, size_t len, uint8_t out[SHA256_LEN]);
/* The hash in a checksum file of len bytes for the file called name:
 * lines "HEX  NAME" (text mode) or "HEX *NAME" (binary), NAME maybe with
 * a directory ("./root.squashfs"), or a bare "HEX"; blank lines and
 * lines starting with # are skipped. Returns 0, -ENOENT when no line is
 * for name, or -EINVAL when a line is malformed or two lines for name
 * disagree: a checksum file is not guessed at. */
int live_sum_parse(const char *text, size_t len, const char *name, uint8_t out[SHA256_LEN]);
/* The hash as 64 lowercase digits, for messages. */
void live_sum_to_hex(const uint8_t sum[SHA256_LEN], char out[LIVE_SUM_HEX]);

#endif
