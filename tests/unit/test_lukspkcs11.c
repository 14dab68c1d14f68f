/* Unit tests: the systemd-pkcs11 token (blockstack/lukspkcs11.c): its
 * members as systemd-cryptenroll 252 writes them (common/luks2token.c);
 * the reading of cryptsetup's words as systemd 252's plugin, p11-kit
 * 0.24 and softhsm2 2.6 made them (tests/boot/cases-pkcs11.sh meets the
 * same); the probe for the token; the line that names a missing token;
 * and its place in the kinds' table (blockstack/lukstoken.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/lukspkcs11.h"
#include "blockstack/lukstoken.h"
#include "common/layout.h"
#include "common/luks2token.h"
#include "common/luksopts.h"

/* The tokens of a container enrolled with systemd-cryptenroll 252
 * --pkcs11-token-uri=pkcs11:token=lifeboat-test (the key shortened), a
 * FIDO2 token beside it. */
static const char enrolled[] =
	"{\"tokens\":{\"0\":{\"type\":\"systemd-fido2\",\"keyslots\":[\"2\"]},"
	"\"1\":{\"type\":\"systemd-pkcs11\",\"keyslots\":[\"1\"],"
	"\"pkcs11-uri\":\"pkcs11:token=lifeboat-test\","
	"\"pkcs11-key\":\"Djxfkee6W1bXRBBC6TQfnvxGSH0RUzMdXe95Q8FOOhZy\\/uuPbs3F4oUWNZPR==\"}}}";

static void enrolled_token(void **state)
{
	struct luks2_tokens t;
	struct luks_opts o;
	const struct luks2_token *tok;
	const char *why = NULL;

	(void)state;
	luks_opts_init(&o);
	assert_int_equal(luks2token_parse_json(enrolled, sizeof(enrolled), &t), 0);
	assert_int_equal(t.n, 2);
	tok = lukspkcs11_pick(&t, &o, &why);
	assert_non_null(tok);
	assert_int_equal(tok->id, 1);
	assert_int_equal(tok->keyslot, 1);
	assert_string_equal(tok->pkcs11_uri, "pkcs11:token=lifeboat-test");
	assert_true(lukspkcs11_needs_pin(tok, &o));
	assert_string_equal(t.t[0].pkcs11_uri, "");
	assert_int_equal(luks2token_parse_json("{\"tokens\":{}}", 13, &t), 0);
	assert_null(lukspkcs11_pick(&t, &o, &why));
	assert_non_null(strstr(why, "systemd-pkcs11"));
}

/* A URI longer than the field is cut, terminated; one that is not a
 * string makes the header not one systemd wrote. */
static void long_and_bad_uri(void **state)
{
	char json[1024];
	struct luks2_tokens t;

	(void)state;
	snprintf(json, sizeof(json), "{\"tokens\":{\"0\":{\"type\":\"systemd-pkcs11\","
		 "\"pkcs11-uri\":\"pkcs11:token=%0400d\"}}}", 7);
	assert_int_equal(luks2token_parse_json(json, strlen(json), &t), 0);
	assert_int_equal(strlen(t.t[0].pkcs11_uri), LUKS2TOKEN_URI_MAX - 1);
	snprintf(json, sizeof(json), "{\"tokens\":{\"0\":{\"pkcs11-uri\":7}}}");
	assert_int_equal(luks2token_parse_json(json, strlen(json), &t), -EBADMSG);
}

/* cryptsetup 2.6.1's words with systemd 252's plugin, each seen running
 * against softhsm2 (tests/boot/cases-pkcs11.sh), or, for the locked PIN,
 * the plugin's and p11-kit's own strings. */
static void refusal_reasons(void **state)
{
	(void)state;
	assert_int_equal(lukspkcs11_why(1, "PIN for token 'lifeboat-test' is incorrect, please "
					"try again.\nPIN has been entered incorrectly previously, "
					"please enter correct PIN for security token "
					"'lifeboat-test' in order to unlock it.\n"), PKCS11_WHY_PIN);
	assert_int_equal(lukspkcs11_why(1, "PIN has been locked, please reset PIN of security "
					"token 'x'."), PKCS11_WHY_LOCKED);
	assert_int_equal(lukspkcs11_why(1, "Failed to log into security token 'x': The password "
					"or PIN is locked"), PKCS11_WHY_LOCKED);
	assert_int_equal(lukspkcs11_why(1, "Successfully logged into security token "
					"'lifeboat-test'.\nFailed to find selected private key "
					"suitable for decryption on token.\n"), PKCS11_WHY_OTHER_KEY);
	assert_int_equal(lukspkcs11_why(1, "Failed to decrypt key on security token: Internal "
					"error"), PKCS11_WHY_OTHER_KEY);
	assert_int_equal(lukspkcs11_why(1, "Token (type systemd-pkcs11) requires additional "
					"missing resource."), PKCS11_WHY_NO_TOKEN);
	assert_int_equal(lukspkcs11_why(-ETIMEDOUT, ""), PKCS11_WHY_TIMEOUT);
	/* A notice before a login that may work is no reason. */
	assert_int_equal(lukspkcs11_why(1, "Please enter correct PIN for security token 'x' in "
					"order to unlock it (final try)."), PKCS11_WHY_OTHER);
	assert_int_equal(lukspkcs11_why(1, ""), PKCS11_WHY_OTHER);
	assert_non_null(strstr(lukspkcs11_why_text(PKCS11_WHY_NO_SUPPORT), "--pkcs11"));
	assert_non_null(strstr(lukspkcs11_why_text(PKCS11_WHY_TIMEOUT), "within 30 s"));
	for (int w = PKCS11_WHY_OTHER; w <= PKCS11_WHY_NO_SUPPORT; w++) {
		const char *text = lukspkcs11_why_text((enum pkcs11_why)w);

		assert_true(strlen(text) > 10);
		assert_null(strchr(text, '\n'));
	}
}

/* The probe without a PIN: the plugin asks for one once it has the
 * token; without one, cryptsetup -v says a resource is missing. */
static void probe(void **state)
{
	(void)state;
	assert_true(lukspkcs11_probe_found(1, "Nothing to read on input.\nToken (type "
					   "systemd-pkcs11) requires PIN.\nCommand failed with "
					   "code -1 (wrong or missing parameters).\n"));
	assert_false(lukspkcs11_probe_found(1, "Token (type systemd-pkcs11) requires additional "
					    "missing resource.\nCommand failed with code -1 "
					    "(wrong or missing parameters).\n"));
	/* With --token-id (as the init runs it), the token's number. */
	assert_true(lukspkcs11_probe_found(1, "Nothing to read on input.\nToken 0 requires PIN.\n"));
	assert_false(lukspkcs11_probe_found(1, "Token 0 requires additional missing resource.\n"));
	assert_true(lukspkcs11_probe_found(0, ""));
}

/* The URI comes from the disk: a newline or an escape in it is shown
 * escaped, the line stays one line. */
static void missing_line(void **state)
{
	struct luks2_token tok;
	char line[1024];

	(void)state;
	memset(&tok, 0, sizeof(tok));
	snprintf(tok.pkcs11_uri, sizeof(tok.pkcs11_uri), "pkcs11:token=lifeboat-test");
	lukspkcs11_missing_line(&tok, line, sizeof(line));
	assert_non_null(strstr(line, "no PKCS#11 token matching pkcs11:token=lifeboat-test"));
	snprintf(tok.pkcs11_uri, sizeof(tok.pkcs11_uri), "pkcs11:token=a\nlifeboat: forged\x1b[2J");
	lukspkcs11_missing_line(&tok, line, sizeof(line));
	assert_null(strchr(line, '\n'));
	assert_null(strchr(line, '\x1b'));
	assert_non_null(strstr(line, "a\\nlifeboat"));
	tok.pkcs11_uri[0] = '\0';
	lukspkcs11_missing_line(&tok, line, sizeof(line));
	assert_non_null(strstr(line, "matching its URI"));
}

/* Third in the table, after TPM2 and FIDO2, with its own mark and texts;
 * a wrong PIN is asked again, nothing else is. */
static void kind(void **state)
{
	bool pin_wrong = false;

	(void)state;
	assert_ptr_equal(lukstoken_kinds[2], &lukspkcs11_kind);
	assert_null(lukstoken_kinds[3]);
	assert_string_equal(lukspkcs11_kind.type, "systemd-pkcs11");
	assert_string_equal(lukspkcs11_kind.mark, LAYOUT_PKCS11_MARK);
	assert_non_null(strstr(lukspkcs11_kind.no_support, "--pkcs11"));
	assert_null(lukspkcs11_kind.needs_touch);
	(void)lukspkcs11_kind.refusal(1, "PIN for token 'x' is incorrect, please try again.",
				      &pin_wrong);
	assert_true(pin_wrong);
	(void)lukspkcs11_kind.refusal(1, "PIN has been locked, please reset PIN of security "
				      "token 'x'.", &pin_wrong);
	assert_false(pin_wrong);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enrolled_token),
		cmocka_unit_test(long_and_bad_uri),
		cmocka_unit_test(refusal_reasons),
		cmocka_unit_test(probe),
		cmocka_unit_test(missing_line),
		cmocka_unit_test(kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
