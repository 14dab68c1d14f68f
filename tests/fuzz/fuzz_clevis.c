/* Fuzz target: what lifeboat-clevis reads from outside: the LUKS2 header
 * (a disk), its tokens' JWEs of every pin (tang, tpm2's sealed objects and
 * PCR list, sss's prime, threshold and shares, nested), a binding's Tang
 * URL, and the key the server answers with (the network; the HTTP answer
 * around it is fuzz_http_reply's). The input is split at its first NUL:
 * the text before is the JWE / JSON / URL, the bytes after the server's
 * reply to the exchange. No TPM is reached:
 * the tpm2 pin's header is parsed, its TCTI refuses. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clevis/jwe.h"
#include "clevis/mr.h"
#include "clevis/pin.h"
#include "clevis/tang.h"
#include "clevis/token.h"
#include "clevis/tpm2pin.h"

static int reply_with(const char *kid, const char *request, char *reply, size_t size, void *ctx)
{
	const char *text = ctx;

	(void)kid;
	(void)request;
	if (strlen(text) >= size)
		return -1;
	strcpy(reply, text);
	return 0;
}

static int no_tpm(TSS2_TCTI_CONTEXT **tcti, void *ctx)
{
	(void)tcti;
	(void)ctx;
	return -ENODEV;
}

static void recover(const struct clevis_jwe *jwe, const char *reply)
{
	static FILE *devnull;
	unsigned char out[256];
	char why[128], url[128], used[128];
	struct tpm2pin_binding b;
	struct pin_env env = { .what = "fuzz", .exchange = reply_with, .exchange_ctx = (void *)reply,
			       .open_tcti = no_tpm };

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	env.report = devnull;
	jwe_pin(jwe);
	jwe_tang_url(jwe);
	jwe_first_tang_url(jwe, url, sizeof(url));
	mr_recover(jwe, reply_with, (void *)reply, out, sizeof(out), why, sizeof(why));
	tpm2pin_parse(jwe, &b, why, sizeof(why));
	if (devnull)
		pin_recover(jwe, &env, out, sizeof(out), used, sizeof(used));
}

static int each_token(int id, const struct clevis_jwe *jwe, void *ctx)
{
	(void)id;
	recover(jwe, ctx);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	unsigned char *copy = malloc(size + 1);
	const char *reply, *json;
	size_t len = strnlen((const char *)data, size), json_len;
	struct clevis_jwe jwe;
	char url[TANG_URL_MAX];

	if (!text || !copy)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	reply = len < size ? text + len + 1 : "";
	if (jwe_parse_compact(text, len, &jwe) == 0) {
		recover(&jwe, reply);
		jwe_free(&jwe);
	}
	token_foreach_clevis(text, len, each_token, (void *)reply);
	tang_url(text, "/rec/kid", url, sizeof(url));
	memcpy(copy, data, size);
	if (token_header_check(copy, size, &json, &json_len) == 0)
		token_foreach_clevis(json, json_len, each_token, (void *)reply);
out:
	free(text);
	free(copy);
	return 0;
}
