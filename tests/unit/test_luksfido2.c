/* Unit tests: the systemd-fido2 token (blockstack/luksfido2.c): its
 * members as systemd-cryptenroll 252 writes them (common/luks2token.c),
 * with the defaults of tokens that lack them; which key is a FIDO key
 * (HID report descriptors, a fake /sys/class/hidraw); the reading of
 * cryptsetup's words; and the kinds' table (blockstack/lukstoken.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockstack/luksfido2.h"
#include "blockstack/lukstoken.h"
#include "blockstack/lukstpm2.h"
#include "common/layout.h"
#include "common/luks2token.h"
#include "common/luksopts.h"

/* The tokens object of a container enrolled with systemd-cryptenroll 252
 * --fido2-device=auto --fido2-with-client-pin=no (credential and salt
 * shortened), a TPM2 token beside it. */
static const char enrolled[] =
	"{\"tokens\":{\"0\":{\"type\":\"systemd-tpm2\",\"keyslots\":[\"2\"],\"tpm2-pcrs\":[7],"
	"\"tpm2-pin\":false},"
	"\"1\":{\"type\":\"systemd-fido2\",\"keyslots\":[\"1\"],"
	"\"fido2-credential\":\"rvP6dc1fQ0M=\",\"fido2-salt\":\"Ufs+Rw==\","
	"\"fido2-rp\":\"io.systemd.cryptsetup\",\"fido2-clientPin-required\":false,"
	"\"fido2-up-required\":true,\"fido2-uv-required\":false}},\"config\":{}}";

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
	tok = luksfido2_pick(&t, &o, &why);
	assert_non_null(tok);
	assert_string_equal(tok->type, "systemd-fido2");
	assert_int_equal(tok->id, 1);
	assert_int_equal(tok->keyslot, 1);
	assert_false(tok->fido2_pin);
	assert_true(tok->fido2_up);
	assert_false(tok->fido2_uv);
	assert_false(luksfido2_needs_pin(tok, &o));
	assert_true(luksfido2_kind.needs_touch(tok));
	/* The TPM2 kind picks its own token from the same header. */
	assert_string_equal(lukstpm2_pick(&t, &o, &why)->type, "systemd-tpm2");
}

/* A token of systemd 248 wrote no *-required members: systemd asks the
 * key for a PIN and a touch then, and so does the init. */
static void defaults_and_flags(void **state)
{
	static const char old[] = "{\"tokens\":{\"0\":{\"type\":\"systemd-fido2\",\"keyslots\":[\"1\"],"
				  "\"fido2-credential\":\"AA==\",\"fido2-salt\":\"AA==\"}}}";
	static const char pin_uv[] = "{\"tokens\":{\"0\":{\"fido2-uv-required\":true,"
				     "\"fido2-clientPin-required\":true,\"fido2-up-required\":false,"
				     "\"type\":\"systemd-fido2\"}}}";
	static const char bad[] = "{\"tokens\":{\"0\":{\"type\":\"systemd-fido2\","
				  "\"fido2-up-required\":\"yes\"}}}";
	struct luks2_tokens t;
	struct luks_opts o;
	const char *why;

	(void)state;
	luks_opts_init(&o);
	assert_int_equal(luks2token_parse_json(old, sizeof(old), &t), 0);
	assert_true(t.t[0].fido2_pin);
	assert_true(t.t[0].fido2_up);
	assert_false(t.t[0].fido2_uv);
	assert_true(luksfido2_needs_pin(luksfido2_pick(&t, &o, &why), &o));
	assert_int_equal(luks2token_parse_json(pin_uv, sizeof(pin_uv), &t), 0);
	assert_true(t.t[0].fido2_pin);
	assert_false(t.t[0].fido2_up);
	assert_true(t.t[0].fido2_uv);
	assert_false(luksfido2_kind.needs_touch(&t.t[0]));
	/* Not a boolean: the header is not one systemd wrote. */
	assert_int_equal(luks2token_parse_json(bad, sizeof(bad), &t), -EBADMSG);
	assert_int_equal(luks2token_parse_json("{\"tokens\":{}}", 13, &t), 0);
	assert_null(luksfido2_pick(&t, &o, &why));
	assert_non_null(strstr(why, "systemd-fido2"));
}

/* The descriptor of softfido (tests/softfido) and of a FIDO key
 * (Usage Page 0xF1D0 as a 2-byte global item), a keyboard's, and cut ones. */
static void descriptors(void **state)
{
	static const unsigned char fido[] = {
		0x06, 0xd0, 0xf1, 0x09, 0x01, 0xa1, 0x01, 0x09, 0x20, 0x15, 0x00, 0x26, 0xff, 0x00,
		0x75, 0x08, 0x95, 0x40, 0x81, 0x02, 0x09, 0x21, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75,
		0x08, 0x95, 0x40, 0x91, 0x02, 0xc0,
	};
	static const unsigned char keyboard[] = {
		0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00,
		0x25, 0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0xc0,
	};
	/* 0xF1D0 inside another item's data, and a long item that hides it. */
	static const unsigned char hidden[] = { 0x27, 0x06, 0xd0, 0xf1, 0x00, 0xfe, 0x03, 0x00,
						0x06, 0xd0, 0xf1 };
	/* A 4-byte usage page item. */
	static const unsigned char four[] = { 0x07, 0xd0, 0xf1, 0x00, 0x00 };

	(void)state;
	assert_true(luksfido2_descriptor_is_fido(fido, sizeof(fido)));
	assert_false(luksfido2_descriptor_is_fido(keyboard, sizeof(keyboard)));
	assert_false(luksfido2_descriptor_is_fido(hidden, sizeof(hidden)));
	assert_true(luksfido2_descriptor_is_fido(four, sizeof(four)));
	for (size_t n = 0; n < 3; n++)
		assert_false(luksfido2_descriptor_is_fido(fido, n));
	assert_false(luksfido2_descriptor_is_fido(hidden, 6));
}

static void write_descriptor(const char *dir, const char *name, const unsigned char *d, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/device", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/device/report_descriptor", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	fclose(f);
}

static void find_key(void **state)
{
	static const unsigned char fido[] = { 0x06, 0xd0, 0xf1, 0x09, 0x01, 0xa1, 0x01, 0xc0 };
	static const unsigned char mouse[] = { 0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0xc0 };
	char dir[] = "/tmp/test_luksfido2.XXXXXX", path[64] = "";
	char cmd[128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(luksfido2_find_key(dir, path, sizeof(path)), -ENOENT);
	write_descriptor(dir, "hidraw0", mouse, sizeof(mouse));
	assert_int_equal(luksfido2_find_key(dir, path, sizeof(path)), -ENOENT);
	write_descriptor(dir, "hidraw1", fido, sizeof(fido));
	assert_int_equal(luksfido2_find_key(dir, path, sizeof(path)), 0);
	assert_string_equal(path, "/dev/hidraw1");
	assert_int_equal(luksfido2_find_key("/nonexistent/hidraw", path, sizeof(path)), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* cryptsetup's words with systemd 252's plugin and libfido2 1.12. */
static void refusal_reasons(void **state)
{
	(void)state;
	assert_int_equal(luksfido2_why(1, "No FIDO2 devices found.\n"), FIDO2_WHY_NO_KEY);
	assert_int_equal(luksfido2_why(2, "Failed to ask token for assertion: FIDO_ERR_PIN_INVALID"),
			 FIDO2_WHY_PIN);
	assert_int_equal(luksfido2_why(2, "FIDO_ERR_PIN_AUTH_BLOCKED"), FIDO2_WHY_BLOCKED);
	assert_int_equal(luksfido2_why(2, "FIDO_ERR_PIN_BLOCKED"), FIDO2_WHY_BLOCKED);
	assert_int_equal(luksfido2_why(2, "Wrong security token; needed credentials not present "
				       "on token."), FIDO2_WHY_OTHER_KEY);
	assert_int_equal(luksfido2_why(2, "FIDO_ERR_ACTION_TIMEOUT"), FIDO2_WHY_TIMEOUT);
	assert_int_equal(luksfido2_why(-ETIMEDOUT, ""), FIDO2_WHY_TIMEOUT);
	assert_int_equal(luksfido2_why(1, "Device /dev/vda is not a valid LUKS device."),
			 FIDO2_WHY_OTHER);
	assert_non_null(strstr(luksfido2_why_text(FIDO2_WHY_TIMEOUT), "within 30 s"));
	assert_non_null(strstr(luksfido2_why_text(FIDO2_WHY_NO_SUPPORT), "--fido2"));
	assert_non_null(strstr(luksfido2_why_text(FIDO2_WHY_NO_KEY), "plug in"));
	for (int w = FIDO2_WHY_OTHER; w <= FIDO2_WHY_NO_SUPPORT; w++) {
		const char *text = luksfido2_why_text((enum fido2_why)w);

		/* One line each: the console says it in one. */
		assert_true(strlen(text) > 10);
		assert_null(strchr(text, '\n'));
	}
}

/* The table: TPM2 first (as before), then FIDO2, each with its own mark
 * and texts; the touch line names the device and the bound. */
static void kinds(void **state)
{
	struct luks_opts o;
	struct luks_container c = { "vda", "1b2c3d4e-0201", "luks-x", &o, 0, false };
	char line[300];
	bool pin_wrong = false;

	(void)state;
	luks_opts_init(&o);
	assert_ptr_equal(lukstoken_kinds[0], &lukstpm2_kind);
	assert_ptr_equal(lukstoken_kinds[1], &luksfido2_kind);
	/* PKCS#11 after them (tests/unit/test_lukspkcs11.c). */
	assert_non_null(lukstoken_kinds[2]);
	assert_null(lukstoken_kinds[3]);
	assert_string_equal(luksfido2_kind.mark, LAYOUT_FIDO2_MARK);
	assert_string_equal(lukstpm2_kind.mark, LAYOUT_TPM2_MARK);
	assert_non_null(strstr(luksfido2_kind.no_support, "--fido2"));
	assert_non_null(strstr(lukstpm2_kind.no_support, "--tpm2"));
	(void)luksfido2_kind.refusal(2, "FIDO_ERR_PIN_INVALID", &pin_wrong);
	assert_true(pin_wrong);
	(void)luksfido2_kind.refusal(1, "No FIDO2 devices found.", &pin_wrong);
	assert_false(pin_wrong);
	(void)lukstpm2_kind.refusal(1, "authorization HMAC check failed", &pin_wrong);
	assert_true(pin_wrong);
	lukstoken_touch_line(&c, &luksfido2_kind, line, sizeof(line));
	assert_non_null(strstr(line, "touch your FIDO2 security key"));
	assert_non_null(strstr(line, "/dev/vda (LUKS UUID=1b2c3d4e-0201)"));
	assert_non_null(strstr(line, "30 s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enrolled_token),
		cmocka_unit_test(defaults_and_flags),
		cmocka_unit_test(descriptors),
		cmocka_unit_test(find_key),
		cmocka_unit_test(refusal_reasons),
		cmocka_unit_test(kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
