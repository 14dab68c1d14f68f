/* Unit tests: the tokens of a LUKS2 header (common/luks2token.c), on the
 * JSON systemd-cryptenroll 252 and clevis write, on headers made here and
 * on malformed text; the init's choice of a TPM2 token, its PIN and its
 * reading of cryptsetup's words (blockstack/lukstpm2.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/lukstpm2.h"
#include "common/luks2token.h"
#include "common/luksopts.h"

/* The JSON area of a container enrolled by systemd-cryptenroll 252 with
 * --tpm2-pcrs=7 (the blob shortened), and a clevis token beside it. */
static const char enrolled[] =
	"{\"keyslots\":{\"0\":{\"type\":\"luks2\",\"key_size\":64,\"af\":{\"type\":\"luks1\","
	"\"stripes\":4000,\"hash\":\"sha256\"},\"area\":{\"type\":\"raw\",\"offset\":\"32768\","
	"\"size\":\"258048\",\"encryption\":\"aes-xts-plain64\",\"key_size\":64},"
	"\"kdf\":{\"type\":\"pbkdf2\",\"hash\":\"sha256\",\"iterations\":1000,\"salt\":\"q83v\"}}},"
	"\"tokens\":{\"0\":{\"type\":\"systemd-tpm2\",\"keyslots\":[\"1\"],"
	"\"tpm2-blob\":\"AJ4AIOegwN3q\\/mvX5nZ+VEKDg9O==\",\"tpm2-pcrs\":[7],"
	"\"tpm2-pcr-bank\":\"sha256\",\"tpm2-primary-alg\":\"ecc\","
	"\"tpm2-policy-hash\":\"8b5682d81b29435d\",\"tpm2-pin\":false},"
	"\"1\":{\"type\":\"clevis\",\"keyslots\":[\"2\"],\"jwe\":{\"ciphertext\":\"\","
	"\"protected\":\"eyJhbGciOiJkaXIifQ\"}}},"
	"\"segments\":{\"0\":{\"type\":\"crypt\",\"offset\":\"16777216\",\"size\":\"dynamic\","
	"\"iv_tweak\":\"0\",\"encryption\":\"aes-xts-plain64\",\"sector_size\":512}},"
	"\"digests\":{\"0\":{\"type\":\"pbkdf2\",\"keyslots\":[\"0\",\"1\"],\"segments\":[\"0\"],"
	"\"hash\":\"sha256\",\"iterations\":1000,\"salt\":\"x\",\"digest\":\"y\"}},"
	"\"config\":{\"json_size\":\"12288\",\"keyslots_size\":\"16744448\"}}";

static void systemd_and_clevis_tokens(void **state)
{
	struct luks2_tokens t;
	const struct luks2_token *tpm, *clevis;

	(void)state;
	assert_int_equal(luks2token_parse_json(enrolled, sizeof(enrolled), &t), 0);
	assert_int_equal(t.n, 2);
	tpm = luks2token_find(&t, "systemd-tpm2");
	assert_non_null(tpm);
	assert_int_equal(tpm->id, 0);
	assert_int_equal(tpm->keyslot, 1);
	assert_int_equal(tpm->tpm2_pcrs, 1u << 7);
	assert_false(tpm->tpm2_pin);
	clevis = luks2token_find(&t, "clevis");
	assert_non_null(clevis);
	assert_int_equal(clevis->id, 1);
	assert_int_equal(clevis->keyslot, 2);
	/* The token's object, for a reader of its other members. */
	assert_int_equal(enrolled[clevis->json_off], '{');
	assert_int_equal(enrolled[clevis->json_off + clevis->json_len - 1], '}');
	assert_non_null(memmem(enrolled + clevis->json_off, clevis->json_len, "\"jwe\"", 5));
	assert_null(luks2token_find(&t, "systemd-fido2"));
}

static void pin_and_pcrs(void **state)
{
	static const char json[] = "{\"tokens\":{\"3\":{\"tpm2-pin\":true,\"type\":\"systemd-tpm2\","
				   "\"tpm2-pcrs\":[0, 7 ,23],\"keyslots\":[]}}}";
	struct luks2_tokens t;
	char pcrs[32];

	(void)state;
	assert_int_equal(luks2token_parse_json(json, strlen(json), &t), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.t[0].id, 3);
	assert_int_equal(t.t[0].keyslot, -1);
	assert_true(t.t[0].tpm2_pin);
	assert_int_equal(t.t[0].tpm2_pcrs, 1u | 1u << 7 | 1u << 23);
	luks2token_pcrs_format(t.t[0].tpm2_pcrs, pcrs, sizeof(pcrs));
	assert_string_equal(pcrs, "0+7+23");
	luks2token_pcrs_format(0, pcrs, sizeof(pcrs));
	assert_string_equal(pcrs, "");
	luks2token_pcrs_format(t.t[0].tpm2_pcrs, pcrs, 4);
	assert_string_equal(pcrs, "0+7");
}

static void no_tokens(void **state)
{
	struct luks2_tokens t;

	(void)state;
	assert_int_equal(luks2token_parse_json("{}", 2, &t), 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(luks2token_parse_json("{\"tokens\":{}}", 13, &t), 0);
	assert_int_equal(t.n, 0);
	/* The JSON area is padded with NULs after the text. */
	assert_int_equal(luks2token_parse_json("{\"tokens\":{}}\0\0garbage", 22, &t), 0);
}

static void malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{\"tokens\":{\"0\":{\"type\":\"systemd-tpm2\"}}",        /* unclosed */
		"{\"tokens\":{\"0\":{\"type\":\"systemd-tpm2}}}",         /* unterminated string */
		"{\"tokens\":{\"0\":{\"type\":\"a\\qb\"}}}",              /* bad escape */
		"{\"tokens\":{\"0\":{\"type\":\"a\\u12\"}}}",             /* short \u */
		"{\"tokens\":{\"0\":{\"tpm2-pcrs\":[24]}}}",              /* no such PCR */
		"{\"tokens\":{\"0\":{\"tpm2-pcrs\":[-1]}}}",
		"{\"tokens\":{\"0\":{\"tpm2-pin\":1}}}",                  /* not a boolean */
		"{\"tokens\":{\"0\":{\"keyslots\":[1]}}}",                /* slots are strings */
		"{\"tokens\":{\"0\":{\"type\":\"a\",}}}",                 /* trailing comma */
		"{\"tokens\":{\"0\":{\"x\":tru}}}",
		"{\"tokens\":{\"0\":{\"x\":\"a\nb\"}}}",                  /* control character */
		"{\"a\":1 \"b\":2}",
	};
	struct luks2_tokens t;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = luks2token_parse_json(bad[i], strlen(bad[i]), &t);

		if (r != -EBADMSG)
			fail_msg("'%s' gave %d", bad[i], r);
	}
}

/* Nesting deeper than the format has is refused before the stack is. */
static void deep_nesting(void **state)
{
	char json[4096];
	struct luks2_tokens t;
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(json, sizeof(json), "{\"config\":");
	while (n < 3000)
		json[n++] = '[';
	assert_int_equal(luks2token_parse_json(json, n, &t), -EBADMSG);
}

static void too_many_tokens(void **state)
{
	char json[8192];
	struct luks2_tokens t;
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(json + n, sizeof(json) - n, "{\"tokens\":{");
	for (int i = 0; i < LUKS2TOKEN_MAX + 3; i++)
		n += (size_t)snprintf(json + n, sizeof(json) - n, "%s\"%d\":{\"type\":\"t%d\"}",
				      i ? "," : "", i, i);
	n += (size_t)snprintf(json + n, sizeof(json) - n, "}}");
	assert_int_equal(luks2token_parse_json(json, n, &t), -E2BIG);
	assert_int_equal(t.n, LUKS2TOKEN_MAX);
	assert_string_equal(t.t[LUKS2TOKEN_MAX - 1].type, "t31");
}

/* A 16 KiB LUKS2 header: the binary part, then the JSON area. */
static unsigned char *header(size_t *len, unsigned int version, unsigned long long hdr_size)
{
	unsigned char *h = calloc(1, 16384);

	memcpy(h, "LUKS\xba\xbe", 6);
	h[6] = (unsigned char)(version >> 8);
	h[7] = (unsigned char)version;
	for (int i = 0; i < 8; i++)
		h[8 + i] = (unsigned char)(hdr_size >> (56 - 8 * i));
	memcpy(h + 4096, enrolled, sizeof(enrolled));
	*len = 16384;
	return h;
}

static void binary_header(void **state)
{
	struct luks2_tokens t;
	size_t len, off, json_len;
	unsigned char *h = header(&len, 2, 16384);

	(void)state;
	assert_int_equal(luks2token_parse_header(h, len, &t, &off, &json_len), 0);
	assert_int_equal(off, 4096);
	assert_int_equal(json_len, 12288);
	assert_int_equal(t.n, 2);
	/* A header shorter than hdr_size says: only what was read. */
	assert_int_equal(luks2token_parse_header(h, 4096 + sizeof(enrolled), &t, NULL, NULL), 0);
	assert_int_equal(luks2token_parse_header(h, 4095, &t, NULL, NULL), -ENOTTY);
	h[0] = 'X';
	assert_int_equal(luks2token_parse_header(h, len, &t, NULL, NULL), -ENOTTY);
	free(h);
	h = header(&len, 1, 16384);     /* LUKS1: no tokens */
	assert_int_equal(luks2token_parse_header(h, len, &t, NULL, NULL), -ENOTTY);
	free(h);
	h = header(&len, 2, 1ULL << 40);
	assert_int_equal(luks2token_parse_header(h, len, &t, NULL, NULL), -EBADMSG);
	free(h);
	h = header(&len, 2, 100);
	assert_int_equal(luks2token_parse_header(h, len, &t, NULL, NULL), -EBADMSG);
	free(h);
}

static void read_from_file(void **state)
{
	char path[] = "/tmp/lifeboat-luks2token-XXXXXX";
	struct luks2_tokens t;
	const struct luks2_token *clevis;
	size_t len;
	unsigned char *h = header(&len, 2, 16384);
	char *json = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, h, len), (ssize_t)len);
	close(fd);
	free(h);
	assert_int_equal(luks2token_read(path, &t, &json), 0);
	assert_non_null(json);
	clevis = luks2token_find(&t, "clevis");
	assert_non_null(clevis);
	assert_memory_equal(json + clevis->json_off, "{\"type\":\"clevis\"", 16);
	free(json);
	assert_int_equal(luks2token_read("/nonexistent/disk", &t, NULL), -ENOENT);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not luks", 8), 8);
	close(fd);
	assert_int_equal(luks2token_read(path, &t, NULL), -ENOTTY);
	unlink(path);
}

static struct luks_opts opts(const char *text)
{
	struct luks_opts o;

	luks_opts_init(&o);
	luks_opts_parse(text, &o);
	return o;
}

/* tpm2-pcrs= picks the token bound to those PCRs; tpm2-pin=no skips a
 * PIN token, tpm2-pin=yes asks for a PIN the token does not mention. */
static void token_choice(void **state)
{
	static const char json[] = "{\"tokens\":{\"0\":{\"type\":\"clevis\"},"
				   "\"1\":{\"type\":\"systemd-tpm2\",\"tpm2-pcrs\":[7],\"tpm2-pin\":true},"
				   "\"2\":{\"type\":\"systemd-tpm2\",\"tpm2-pcrs\":[0,7]}}}";
	struct luks2_tokens t;
	struct luks_opts o;
	const char *why;
	const struct luks2_token *tok;

	(void)state;
	assert_int_equal(luks2token_parse_json(json, strlen(json), &t), 0);
	o = opts("");
	tok = lukstpm2_pick(&t, &o, &why);
	assert_non_null(tok);
	assert_int_equal(tok->id, 1);
	assert_true(lukstpm2_needs_pin(tok, &o));
	o = opts("tpm2-pcrs=0+7");
	tok = lukstpm2_pick(&t, &o, &why);
	assert_non_null(tok);
	assert_int_equal(tok->id, 2);
	assert_false(lukstpm2_needs_pin(tok, &o));
	o = opts("tpm2-pin=yes,tpm2-pcrs=0+7");
	assert_true(lukstpm2_needs_pin(lukstpm2_pick(&t, &o, &why), &o));
	o = opts("tpm2-pin=no");
	tok = lukstpm2_pick(&t, &o, &why);
	assert_non_null(tok);
	assert_int_equal(tok->id, 2);
	o = opts("tpm2-pcrs=1");
	assert_null(lukstpm2_pick(&t, &o, &why));
	assert_non_null(strstr(why, "tpm2-pcrs="));
	o = opts("tpm2-pin=no");
	t.n = 2;    /* the clevis and the PIN token */
	assert_null(lukstpm2_pick(&t, &o, &why));
	assert_non_null(strstr(why, "tpm2-pin=no"));
	t.n = 1;    /* the clevis token alone */
	assert_null(lukstpm2_pick(&t, &o, &why));
}

/* What cryptsetup 2.6 with systemd 252's plugin says, as measured in the
 * boot tests (tests/boot/cases-tpm.sh), and libtss2's decoded codes. */
static void refusal_reasons(void **state)
{
	(void)state;
	assert_int_equal(lukstpm2_why(1, "Current policy digest does not match stored policy "
				      "digest, cancelling TPM2 authentication attempt.\n"), TPM2_WHY_PCRS);
	assert_int_equal(lukstpm2_why(1, "Failed to unseal HMAC key in TPM: tpm:session(1):the "
				      "authorization HMAC check failed and DA counter incremented"),
			 TPM2_WHY_PIN);
	assert_int_equal(lukstpm2_why(1, "tpm:warn(2.0): authorizations for objects subject to DA "
				      "protection are not allowed at this time because the TPM is in "
				      "DA lockout mode"), TPM2_WHY_LOCKOUT);
	assert_int_equal(lukstpm2_why(1, "Token (type systemd-tpm2) requires additional missing "
				      "resource."), TPM2_WHY_NO_TPM);
	assert_int_equal(lukstpm2_why(-ETIMEDOUT, ""), TPM2_WHY_TIMEOUT);
	assert_int_equal(lukstpm2_why(1, "Device /dev/vda is not a valid LUKS device."),
			 TPM2_WHY_OTHER);
	assert_non_null(strstr(lukstpm2_why_text(TPM2_WHY_TIMEOUT), "within 30 s"));
	for (int w = TPM2_WHY_OTHER; w <= TPM2_WHY_NO_SUPPORT; w++)
		assert_true(strlen(lukstpm2_why_text((enum tpm2_why)w)) > 10);
}

static int device_probes;

static bool fake_device_ready(const char *path)
{
	device_probes++;
	return strcmp(path, "/dev/tpmrm0") == 0;
}

/* An image built without --tpm2 that meets a TPM2 token says that it has
 * no TPM2 support and which option adds it, before it looks for a TPM
 * (whose drivers it does not carry either). */
static void no_tpm2_support_said_first(void **state)
{
	enum tpm2_why why = TPM2_WHY_OTHER;

	(void)state;
	device_probes = 0;
	assert_false(lukstpm2_can_try(false, fake_device_ready, "/dev/tpmrm0", &why));
	assert_int_equal(why, TPM2_WHY_NO_SUPPORT);
	assert_int_equal(device_probes, 0);
	assert_non_null(strstr(lukstpm2_why_text(why), "no TPM2 support"));
	assert_non_null(strstr(lukstpm2_why_text(why), "--tpm2"));
	assert_false(lukstpm2_can_try(true, fake_device_ready, "/dev/tpm9", &why));
	assert_int_equal(why, TPM2_WHY_NO_TPM);
	why = TPM2_WHY_OTHER;
	assert_true(lukstpm2_can_try(true, fake_device_ready, "/dev/tpmrm0", &why));
	assert_int_equal(why, TPM2_WHY_OTHER);
	assert_int_equal(device_probes, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(systemd_and_clevis_tokens),
		cmocka_unit_test(pin_and_pcrs),
		cmocka_unit_test(no_tokens),
		cmocka_unit_test(malformed),
		cmocka_unit_test(deep_nesting),
		cmocka_unit_test(too_many_tokens),
		cmocka_unit_test(binary_header),
		cmocka_unit_test(read_from_file),
		cmocka_unit_test(token_choice),
		cmocka_unit_test(refusal_reasons),
		cmocka_unit_test(no_tpm2_support_said_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
