/* luks2token: the tokens of a LUKS2 header (systemd-cryptenroll's
 * systemd-tpm2, systemd-fido2 and systemd-pkcs11, clevis, ...), read
 * from its JSON area.
 *
 * Shared by the generator (host-only: which pieces a host's containers
 * need) and the init (whether to try a TPM2 token, and whether it asks
 * for a PIN). The header comes from a disk, which may be hostile: every
 * length is checked, nesting is bounded, and nothing is trusted to be
 * terminated. Format: the LUKS2 on-disk format specification (binary
 * header of 4096 bytes, then the JSON area up to hdr_size).
 */
#ifndef LIFEBOAT_LUKS2TOKEN_H
#define LIFEBOAT_LUKS2TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LUKS2TOKEN_MAX 32
/* The binary header before the JSON area. */
#define LUKS2TOKEN_BINARY_SIZE 4096
/* The most of a header read: the JSON area of the largest hdr_size the
 * format allows is 4 MiB, but cryptsetup writes 16 KiB; tokens past
 * this are not seen (a header that large is not one we made or met). */
#define LUKS2TOKEN_READ_MAX (256 * 1024)
/* A systemd-pkcs11 token's URI kept, with its NUL (systemd-cryptenroll
 * writes the one it was given, or the token's model, manufacturer,
 * serial and label: about 100 bytes). */
#define LUKS2TOKEN_URI_MAX 160
/* PCRs 0..23 as a mask. */
#define LUKS2TOKEN_PCR_COUNT 24

struct luks2_token {
	int id;                  /* its number under "tokens" */
	char type[48];           /* "systemd-tpm2", "clevis", ... (truncated if longer) */
	int keyslot;             /* its first keyslot, -1 for none */
	bool tpm2_pin;           /* systemd-tpm2: "tpm2-pin": true */
	uint32_t tpm2_pcrs;      /* systemd-tpm2: "tpm2-pcrs", bit N for PCR N */
	/* systemd-fido2: what the key is asked for. Absent members read as
	 * systemd reads them: a PIN and presence (the tokens of systemd 248,
	 * which wrote neither, asked for both), no verification. */
	bool fido2_pin;          /* "fido2-clientPin-required" */
	bool fido2_up;           /* "fido2-up-required": a touch */
	bool fido2_uv;           /* "fido2-uv-required": the key verifies its user */
	/* systemd-pkcs11: "pkcs11-uri", the RFC 7512 URI of the token
	 * (truncated; from the disk: escape it before showing it). */
	char pkcs11_uri[LUKS2TOKEN_URI_MAX];
	size_t json_off;         /* the token's object in the JSON text, for */
	size_t json_len;         /* readers of other members (clevis's "jwe") */
};

struct luks2_tokens {
	struct luks2_token t[LUKS2TOKEN_MAX];
	size_t n;
};

/* Parse the JSON area text (len bytes; a NUL ends it earlier) into out.
 * Returns 0 (out->n may be 0: no "tokens", or none), -EBADMSG for text
 * that is not the JSON the format has, -E2BIG for more than
 * LUKS2TOKEN_MAX tokens (the first ones are kept). */
int luks2token_parse_json(const char *json, size_t len, struct luks2_tokens *out);
/* The header's bytes from offset 0 (len of them): check the binary
 * header (magic, version 2, hdr_size) and parse its JSON area. Sets
 * *json_off and *json_len (may be NULL) to where the JSON text is in buf.
 * Returns 0, -ENOTTY when it is not a LUKS2 header, or what
 * luks2token_parse_json returns. */
int luks2token_parse_header(const unsigned char *buf, size_t len, struct luks2_tokens *out,
			    size_t *json_off, size_t *json_len);
/* Read path's header (a block device or an image file) and parse it.
 * With json non-NULL, *json gets the JSON text (malloc'd, terminated;
 * the tokens' json_off are in it; the caller frees). Returns 0, -ENOTTY
 * for no LUKS2 header, or -errno. */
int luks2token_read(const char *path, struct luks2_tokens *out, char **json);
/* The first token of that type, or NULL. */
const struct luks2_token *luks2token_find(const struct luks2_tokens *t, const char *type);
/* "7+8" for a PCR mask ("" for none), as systemd-cryptenroll spells it. */
void luks2token_pcrs_format(uint32_t mask, char *buf, size_t size);

#endif
