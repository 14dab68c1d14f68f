/* Fuzz target: a LUKS2 header from a disk (which may be hostile): the
 * binary header's checks and the JSON area's tokens (common/luks2token.c),
 * then the init's choice of a TPM2, FIDO2 or PKCS#11 token and its reading
 * of cryptsetup's words (blockstack/lukstpm2.c, blockstack/luksfido2.c,
 * blockstack/lukspkcs11.c: the token's URI escaped into one line), and
 * a hidraw device's HID report descriptor (luksfido2_descriptor_is_fido).
 * The input is tried as a whole header, as the JSON text alone and as a
 * descriptor. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/luksfido2.h"
#include "blockstack/lukspkcs11.h"
#include "blockstack/lukstpm2.h"
#include "common/luks2token.h"
#include "common/luksopts.h"

static void use(const struct luks2_tokens *t, size_t json_len)
{
	struct luks_opts o;
	const char *why;
	char pcrs[80], line[LUKS2TOKEN_URI_MAX * 4 + 200];
	const struct luks2_token *tok;

	luks_opts_init(&o);
	for (size_t i = 0; i < t->n; i++) {
		if (t->t[i].json_off > json_len || t->t[i].json_len > json_len - t->t[i].json_off)
			__builtin_trap();
		luks2token_pcrs_format(t->t[i].tpm2_pcrs, pcrs, sizeof(pcrs));
	}
	if (lukstpm2_pick(t, &o, &why))
		(void)lukstpm2_needs_pin(luks2token_find(t, "systemd-tpm2"), &o);
	if (luksfido2_pick(t, &o, &why))
		(void)luksfido2_needs_pin(luks2token_find(t, "systemd-fido2"), &o);
	tok = lukspkcs11_pick(t, &o, &why);
	if (tok) {
		if (strnlen(tok->pkcs11_uri, sizeof(tok->pkcs11_uri)) >= sizeof(tok->pkcs11_uri))
			__builtin_trap();
		lukspkcs11_missing_line(tok, line, sizeof(line));
		if (strchr(line, '\n') || strchr(line, '\x1b'))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct luks2_tokens t;
	size_t off = 0, len = 0;
	char out[256];

	if (luks2token_parse_json((const char *)data, size, &t) >= 0)
		use(&t, size);
	if (luks2token_parse_header(data, size, &t, &off, &len) >= 0)
		use(&t, len);
	/* cryptsetup's words, as the init reads them after a failed attempt. */
	snprintf(out, sizeof(out), "%.*s", (int)(size < 255 ? size : 255), (const char *)data);
	(void)lukstpm2_why_text(lukstpm2_why(size ? data[0] : 0, out));
	(void)luksfido2_why_text(luksfido2_why(size ? data[0] : 0, out));
	(void)lukspkcs11_why_text(lukspkcs11_why(size ? data[0] : 0, out));
	(void)lukspkcs11_probe_found(size ? data[0] : 0, out);
	(void)luksfido2_descriptor_is_fido(data, size);
	return 0;
}
