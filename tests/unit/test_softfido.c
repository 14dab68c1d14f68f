/* Unit tests: tests/softfido, the software FIDO2 authenticator of the
 * FIDO2 unlock tests, driven by the real libfido2 in process: libfido2's
 * own I/O functions write its 64-byte reports into softfido's CTAPHID layer
 * and read softfido's reports back, so framing, CBOR, the crypto and the
 * checks libfido2 makes on the answers are all exercised. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fido.h>
#include <fido/es256.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/softfido/ctap2.h"
#include "tests/softfido/ctaphid.h"
#include "tests/softfido/fidocred.h"
#include "tests/softfido/fidocrypto.h"
#include "tests/softfido/fidostate.h"

#define RP "io.systemd.cryptsetup"

/* One authenticator: its state, its CTAP2 and CTAPHID layers, and how the
 * user answers presence requests. */
struct rig {
	struct fidostate state;
	struct ctap2 ctap;
	struct ctaphid hid;
	int touches;		/* presence requests seen */
	uint8_t answer;		/* what presence answers: CTAP2_OK or an error */
	int send_cancel;	/* the host cancels while presence is awaited */
};

static uint8_t presence(void *arg)
{
	struct rig *r = arg;

	r->touches++;
	/* Keepalives first, as a waiting key sends them: libfido2 must skip them. */
	ctaphid_keepalive(&r->hid, CTAPHID_STATUS_UPNEEDED);
	ctaphid_keepalive(&r->hid, CTAPHID_STATUS_UPNEEDED);
	if (r->send_cancel) {
		uint8_t cancel[CTAPHID_REPORT] = { 0 };

		cancel[0] = (uint8_t)(r->hid.busy_cid >> 24);
		cancel[1] = (uint8_t)(r->hid.busy_cid >> 16);
		cancel[2] = (uint8_t)(r->hid.busy_cid >> 8);
		cancel[3] = (uint8_t)r->hid.busy_cid;
		cancel[4] = CTAPHID_CANCEL;
		ctaphid_input(&r->hid, cancel, sizeof(cancel));
		return ctaphid_cancelled(&r->hid) ? CTAP2_ERR_KEEPALIVE_CANCEL : CTAP2_OK;
	}
	return r->answer;
}

static struct rig *rig_new(void)
{
	struct rig *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	assert_int_equal(fidostate_fresh(&r->state), 0);
	assert_int_equal(ctap2_init(&r->ctap, &r->state, presence, r), 0);
	ctaphid_init(&r->hid, ctap2_request, &r->ctap);
	return r;
}

static void rig_free(struct rig *r)
{
	ctap2_free(&r->ctap);
	fidostate_free(&r->state);
	free(r);
}

/* libfido2's I/O: the "path" is the rig's address. */
static void *io_open(const char *path)
{
	void *p = NULL;

	return sscanf(path, "%p", &p) == 1 ? p : NULL;
}

static void io_close(void *handle)
{
	(void)handle;
}

static int io_write(void *handle, const unsigned char *buf, size_t len)
{
	struct rig *r = handle;

	/* libfido2 writes the report ID (0) first, as to hidraw. */
	if (len != CTAPHID_REPORT + 1 || buf[0] != 0)
		return -1;
	ctaphid_input(&r->hid, buf + 1, CTAPHID_REPORT);
	return (int)len;
}

static int io_read(void *handle, unsigned char *buf, size_t len, int ms)
{
	struct rig *r = handle;

	(void)ms;
	if (len != CTAPHID_REPORT || !ctaphid_output(&r->hid, buf))
		return -1;
	return CTAPHID_REPORT;
}

static fido_dev_t *dev_open(struct rig *r)
{
	static const fido_dev_io_t io = { io_open, io_close, io_read, io_write };
	fido_dev_t *dev = fido_dev_new();
	char path[64];

	assert_non_null(dev);
	snprintf(path, sizeof(path), "%p", (void *)r);
	assert_int_equal(fido_dev_set_io_functions(dev, &io), FIDO_OK);
	assert_int_equal(fido_dev_open(dev, path), FIDO_OK);
	return dev;
}

static void dev_close(fido_dev_t *dev)
{
	fido_dev_close(dev);
	fido_dev_free(&dev);
}

static const unsigned char cdh[32] = "client data hash of the tests..";

static int make_cred(fido_dev_t *dev, const char *rp, const char *pin, fido_cred_t **out)
{
	static const unsigned char uid[] = "user";
	fido_cred_t *cred = fido_cred_new();
	int r;

	assert_non_null(cred);
	assert_int_equal(fido_cred_set_type(cred, COSE_ES256), FIDO_OK);
	assert_int_equal(fido_cred_set_clientdata_hash(cred, cdh, sizeof(cdh)), FIDO_OK);
	assert_int_equal(fido_cred_set_rp(cred, rp, "Encrypted Volume"), FIDO_OK);
	assert_int_equal(fido_cred_set_user(cred, uid, sizeof(uid), "root", NULL, NULL), FIDO_OK);
	assert_int_equal(fido_cred_set_extensions(cred, FIDO_EXT_HMAC_SECRET), FIDO_OK);
	r = fido_dev_make_cred(dev, cred, pin);
	*out = cred;
	return r;
}

/* An assertion for cred's ID with an hmac-secret salt; FIDO_OK or the error. */
static int get_assert(fido_dev_t *dev, const fido_cred_t *cred, const char *rp, const unsigned char salt[32],
		      const char *pin, fido_assert_t **out)
{
	fido_assert_t *a = fido_assert_new();

	assert_non_null(a);
	assert_int_equal(fido_assert_set_clientdata_hash(a, cdh, sizeof(cdh)), FIDO_OK);
	assert_int_equal(fido_assert_set_rp(a, rp), FIDO_OK);
	assert_int_equal(fido_assert_allow_cred(a, fido_cred_id_ptr(cred), fido_cred_id_len(cred)), FIDO_OK);
	assert_int_equal(fido_assert_set_extensions(a, FIDO_EXT_HMAC_SECRET), FIDO_OK);
	assert_int_equal(fido_assert_set_hmac_salt(a, salt, 32), FIDO_OK);
	assert_int_equal(fido_assert_set_up(a, FIDO_OPT_TRUE), FIDO_OK);
	*out = a;
	return fido_dev_get_assert(dev, a, pin);
}

static void verify_assert(const fido_assert_t *a, const fido_cred_t *cred)
{
	es256_pk_t *pk = es256_pk_new();

	assert_non_null(pk);
	assert_int_equal(es256_pk_from_ptr(pk, fido_cred_pubkey_ptr(cred), fido_cred_pubkey_len(cred)), FIDO_OK);
	assert_int_equal(fido_assert_count(a), 1);
	assert_int_equal(fido_assert_verify(a, 0, COSE_ES256, pk), FIDO_OK);
	es256_pk_free(&pk);
}

/* getInfo as libfido2 reads it: FIDO_2_0, hmac-secret, PIN protocol 1. */
static void info(void **state)
{
	struct rig *r = rig_new();
	fido_dev_t *dev = dev_open(r);
	fido_cbor_info_t *ci = fido_cbor_info_new();
	char **ext, **opt;
	const bool *val;
	int hmac = 0, up = 0, pin = -1;

	(void)state;
	assert_true(fido_dev_is_fido2(dev));
	assert_int_equal(fido_dev_get_cbor_info(dev, ci), FIDO_OK);
	assert_string_equal(fido_cbor_info_versions_ptr(ci)[0], "FIDO_2_0");
	ext = fido_cbor_info_extensions_ptr(ci);
	for (size_t i = 0; i < fido_cbor_info_extensions_len(ci); i++)
		hmac |= !strcmp(ext[i], "hmac-secret");
	assert_true(hmac);
	assert_memory_equal(fido_cbor_info_aaguid_ptr(ci), "lifeboatsoftfido", 16);
	opt = fido_cbor_info_options_name_ptr(ci);
	val = fido_cbor_info_options_value_ptr(ci);
	for (size_t i = 0; i < fido_cbor_info_options_len(ci); i++) {
		if (!strcmp(opt[i], "up"))
			up = val[i];
		if (!strcmp(opt[i], "clientPin"))
			pin = val[i];
	}
	assert_true(up);
	assert_int_equal(pin, 0);
	assert_int_equal(fido_cbor_info_protocols_len(ci), 1);
	assert_int_equal(fido_cbor_info_protocols_ptr(ci)[0], 1);
	fido_cbor_info_free(&ci);
	dev_close(dev);
	rig_free(r);
}

/* The hmac-secret output is HMAC-SHA-256(CredRandom, salt) with the
 * CredRandom sealed in the credential ID: opened here with the master key. */
static void check_output(struct rig *r, const fido_cred_t *cred, const char *rp, const unsigned char salt[32],
			 const fido_assert_t *a)
{
	struct fidocred c;
	uint8_t rpid_hash[32], want[32];

	fidocrypto_sha256((const uint8_t *)rp, strlen(rp), rpid_hash);
	assert_int_equal(fidocred_open(&c, r->state.master, rpid_hash, fido_cred_id_ptr(cred),
				       fido_cred_id_len(cred)), 0);
	fidocrypto_hmac(c.cred_random, 32, salt, 32, want);
	fidocred_free(&c);
	assert_int_equal(fido_assert_hmac_secret_len(a, 0), 32);
	assert_memory_equal(fido_assert_hmac_secret_ptr(a, 0), want, 32);
}

/* A credential made with hmac-secret, its self attestation checked by
 * libfido2; assertions verify against its key; the secret is the same for
 * one salt and another for another salt; the counter goes up. */
static void make_and_assert(void **state)
{
	struct rig *r = rig_new();
	fido_dev_t *dev = dev_open(r);
	fido_cred_t *cred;
	fido_assert_t *a1, *a2, *a3;
	unsigned char salt1[32] = "first salt", salt2[32] = "second salt";

	(void)state;
	assert_int_equal(make_cred(dev, RP, NULL, &cred), FIDO_OK);
	assert_int_equal(r->touches, 1);
	assert_string_equal(fido_cred_fmt(cred), "packed");
	assert_int_equal(fido_cred_verify_self(cred), FIDO_OK);
	assert_int_equal(fido_cred_flags(cred) & 0xc5, 0xc1);	/* UP, AT, ED; no UV */
	assert_memory_equal(fido_cred_aaguid_ptr(cred), "lifeboatsoftfido", 16);
	assert_int_equal(get_assert(dev, cred, RP, salt1, NULL, &a1), FIDO_OK);
	assert_int_equal(get_assert(dev, cred, RP, salt1, NULL, &a2), FIDO_OK);
	assert_int_equal(get_assert(dev, cred, RP, salt2, NULL, &a3), FIDO_OK);
	assert_int_equal(r->touches, 4);
	verify_assert(a1, cred);
	verify_assert(a3, cred);
	assert_true(fido_assert_flags(a1, 0) & CTAP2_FLAG_UP);
	assert_true(fido_assert_sigcount(a2, 0) > fido_assert_sigcount(a1, 0));
	assert_memory_equal(fido_assert_hmac_secret_ptr(a1, 0), fido_assert_hmac_secret_ptr(a2, 0), 32);
	assert_memory_not_equal(fido_assert_hmac_secret_ptr(a1, 0), fido_assert_hmac_secret_ptr(a3, 0), 32);
	check_output(r, cred, RP, salt1, a1);
	check_output(r, cred, RP, salt2, a3);
	fido_assert_free(&a1);
	fido_assert_free(&a2);
	fido_assert_free(&a3);
	fido_cred_free(&cred);
	dev_close(dev);
	rig_free(r);
}

/* Another authenticator (another state file), or another RP, does not know
 * the credential; no touch is asked for. */
static void refused(void **state)
{
	struct rig *r = rig_new(), *other = rig_new();
	fido_dev_t *dev = dev_open(r), *odev = dev_open(other);
	fido_cred_t *cred;
	fido_assert_t *a;
	unsigned char salt[32] = "salt";

	(void)state;
	assert_int_equal(make_cred(dev, RP, NULL, &cred), FIDO_OK);
	assert_int_equal(get_assert(odev, cred, RP, salt, NULL, &a), FIDO_ERR_NO_CREDENTIALS);
	fido_assert_free(&a);
	assert_int_equal(other->touches, 0);
	assert_int_equal(get_assert(dev, cred, "other.example", salt, NULL, &a), FIDO_ERR_NO_CREDENTIALS);
	fido_assert_free(&a);
	fido_cred_free(&cred);
	dev_close(dev);
	dev_close(odev);
	rig_free(r);
	rig_free(other);
}

/* No touch: the answer is the user's timeout; CANCEL from the host ends
 * the wait with KEEPALIVE_CANCEL. */
static void presence_errors(void **state)
{
	struct rig *r = rig_new();
	fido_dev_t *dev = dev_open(r);
	fido_cred_t *cred;

	(void)state;
	r->answer = CTAP2_ERR_USER_ACTION_TIMEOUT;
	assert_int_equal(make_cred(dev, RP, NULL, &cred), FIDO_ERR_USER_ACTION_TIMEOUT);
	fido_cred_free(&cred);
	r->answer = CTAP2_OK;
	r->send_cancel = 1;
	assert_int_equal(make_cred(dev, RP, NULL, &cred), FIDO_ERR_KEEPALIVE_CANCEL);
	fido_cred_free(&cred);
	assert_int_equal(r->state.counter, 0);
	dev_close(dev);
	rig_free(r);
}

/* A PIN set through libfido2: a credential needs it; a wrong PIN is
 * PIN_INVALID and costs a retry; the right PIN gives UV and the retries
 * back; changed, the old PIN no longer works. */
static void pin_protocol(void **state)
{
	struct rig *r = rig_new();
	fido_dev_t *dev = dev_open(r);
	fido_cred_t *cred;
	fido_assert_t *a;
	unsigned char salt[32] = "salt";
	int retries = -1;

	(void)state;
	assert_int_equal(fido_dev_get_retry_count(dev, &retries), FIDO_OK);
	assert_int_equal(retries, FIDOSTATE_PIN_RETRIES);
	assert_int_equal(fido_dev_set_pin(dev, "123", NULL), FIDO_ERR_PIN_POLICY_VIOLATION);
	assert_int_equal(fido_dev_set_pin(dev, "4711", NULL), FIDO_OK);
	assert_true(r->state.pin_set);
	dev_close(dev);
	dev = dev_open(r);
	assert_true(fido_dev_has_pin(dev));
	assert_int_equal(make_cred(dev, RP, NULL, &cred), FIDO_ERR_PIN_REQUIRED);
	fido_cred_free(&cred);
	assert_int_equal(make_cred(dev, RP, "4711", &cred), FIDO_OK);
	assert_int_equal(fido_cred_verify_self(cred), FIDO_OK);
	assert_int_equal(get_assert(dev, cred, RP, salt, "0000", &a), FIDO_ERR_PIN_INVALID);
	fido_assert_free(&a);
	assert_int_equal(fido_dev_get_retry_count(dev, &retries), FIDO_OK);
	assert_int_equal(retries, FIDOSTATE_PIN_RETRIES - 1);
	assert_int_equal(get_assert(dev, cred, RP, salt, "4711", &a), FIDO_OK);
	verify_assert(a, cred);
	assert_true(fido_assert_flags(a, 0) & CTAP2_FLAG_UV);
	check_output(r, cred, RP, salt, a);
	fido_assert_free(&a);
	assert_int_equal(fido_dev_get_retry_count(dev, &retries), FIDO_OK);
	assert_int_equal(retries, FIDOSTATE_PIN_RETRIES);
	/* changePIN: the old PIN must be right; then only the new one works. */
	assert_int_equal(fido_dev_set_pin(dev, "654321", "0000"), FIDO_ERR_PIN_INVALID);
	assert_int_equal(fido_dev_set_pin(dev, "654321", "4711"), FIDO_OK);
	assert_int_equal(get_assert(dev, cred, RP, salt, "4711", &a), FIDO_ERR_PIN_INVALID);
	fido_assert_free(&a);
	assert_int_equal(get_assert(dev, cred, RP, salt, "654321", &a), FIDO_OK);
	check_output(r, cred, RP, salt, a);
	fido_assert_free(&a);
	fido_cred_free(&cred);
	dev_close(dev);
	rig_free(r);
}

/* An excludeList naming the credential: CREDENTIAL_EXCLUDED after a touch.
 * Two salts (64 bytes) give both outputs, each HMAC(CredRandom, salt). */
static void exclude_and_two_salts(void **state)
{
	struct rig *r = rig_new();
	fido_dev_t *dev = dev_open(r);
	fido_cred_t *cred, *again;
	fido_assert_t *a;
	unsigned char salts[64] = "salt one", one[32] = "salt one", two[32] = "salt two";
	unsigned char first[32];

	(void)state;
	memcpy(salts + 32, two, 32);
	assert_int_equal(make_cred(dev, RP, NULL, &cred), FIDO_OK);
	again = fido_cred_new();
	assert_int_equal(fido_cred_set_type(again, COSE_ES256), FIDO_OK);
	assert_int_equal(fido_cred_set_clientdata_hash(again, cdh, sizeof(cdh)), FIDO_OK);
	assert_int_equal(fido_cred_set_rp(again, RP, NULL), FIDO_OK);
	assert_int_equal(fido_cred_set_user(again, (const unsigned char *)"u", 1, NULL, NULL, NULL), FIDO_OK);
	assert_int_equal(fido_cred_exclude(again, fido_cred_id_ptr(cred), fido_cred_id_len(cred)), FIDO_OK);
	assert_int_equal(fido_dev_make_cred(dev, again, NULL), FIDO_ERR_CREDENTIAL_EXCLUDED);
	fido_cred_free(&again);
	assert_int_equal(get_assert(dev, cred, RP, one, NULL, &a), FIDO_OK);
	memcpy(first, fido_assert_hmac_secret_ptr(a, 0), 32);
	fido_assert_free(&a);
	a = fido_assert_new();
	assert_int_equal(fido_assert_set_clientdata_hash(a, cdh, sizeof(cdh)), FIDO_OK);
	assert_int_equal(fido_assert_set_rp(a, RP), FIDO_OK);
	assert_int_equal(fido_assert_allow_cred(a, fido_cred_id_ptr(cred), fido_cred_id_len(cred)), FIDO_OK);
	assert_int_equal(fido_assert_set_extensions(a, FIDO_EXT_HMAC_SECRET), FIDO_OK);
	assert_int_equal(fido_assert_set_hmac_salt(a, salts, sizeof(salts)), FIDO_OK);
	assert_int_equal(fido_dev_get_assert(dev, a, NULL), FIDO_OK);
	assert_int_equal(fido_assert_hmac_secret_len(a, 0), 64);
	assert_memory_equal(fido_assert_hmac_secret_ptr(a, 0), first, 32);
	fido_assert_free(&a);
	assert_int_equal(get_assert(dev, cred, RP, two, NULL, &a), FIDO_OK);
	fido_assert_free(&a);
	fido_cred_free(&cred);
	dev_close(dev);
	rig_free(r);
}

/* Requests that are not CBOR maps, or whose containers claim more items
 * than there are bytes (libcbor would allocate them all first): refused
 * before libcbor builds anything. */
static void bad_cbor(void **state)
{
	static const uint8_t huge_array[] = { CTAP2_GET_ASSERTION, 0xa1, 0x03, 0x9a, 0x9a, 0x9a, 0x9a, 0x9a };
	static const uint8_t huge_map[] = { CTAP2_MAKE_CREDENTIAL, 0xbb, 0, 0, 0, 1, 0, 0, 0, 0 };
	static const uint8_t nested[] = { CTAP2_CLIENT_PIN, 0xa1, 0x01, 0x83, 0x82, 0x01, 0x02, 0x01 };
	static const uint8_t not_map[] = { CTAP2_CLIENT_PIN, 0x83, 0x01, 0x02, 0x03 };
	static const uint8_t trailing[] = { CTAP2_CLIENT_PIN, 0xa0, 0x00 };
	struct rig *r = rig_new();
	uint8_t resp[64];

	(void)state;
	assert_int_equal(ctap2_request(&r->ctap, huge_array, sizeof(huge_array), resp, sizeof(resp)), 1);
	assert_int_equal(resp[0], CTAP2_ERR_INVALID_CBOR);
	assert_int_equal(ctap2_request(&r->ctap, huge_map, sizeof(huge_map), resp, sizeof(resp)), 1);
	assert_int_equal(resp[0], CTAP2_ERR_INVALID_CBOR);
	assert_int_equal(ctap2_request(&r->ctap, nested, sizeof(nested), resp, sizeof(resp)), 1);
	assert_int_equal(resp[0], CTAP2_ERR_INVALID_CBOR);
	assert_int_equal(ctap2_request(&r->ctap, not_map, sizeof(not_map), resp, sizeof(resp)), 1);
	assert_int_equal(resp[0], CTAP2_ERR_CBOR_UNEXPECTED_TYPE);
	assert_int_equal(ctap2_request(&r->ctap, trailing, sizeof(trailing), resp, sizeof(resp)), 1);
	assert_int_equal(resp[0], CTAP2_ERR_INVALID_CBOR);
	rig_free(r);
}

/* Three wrong PINs in a row block until power-up (PIN_AUTH_BLOCKED); the
 * eighth wrong one in all, counted in the state across power-ups, blocks
 * the PIN for good, the right one included. */
static void pin_blocked(void **state)
{
	static const int want[] = { FIDO_ERR_PIN_INVALID, FIDO_ERR_PIN_INVALID, FIDO_ERR_PIN_AUTH_BLOCKED };
	struct rig *r = rig_new();
	fido_dev_t *dev = dev_open(r);
	fido_cred_t *cred;
	fido_assert_t *a;
	unsigned char salt[32] = "salt";
	int tries = 0;

	(void)state;
	assert_int_equal(fido_dev_set_pin(dev, "4711", NULL), FIDO_OK);
	assert_int_equal(make_cred(dev, RP, "4711", &cred), FIDO_OK);
	while (tries < FIDOSTATE_PIN_RETRIES - 1) {
		assert_int_equal(get_assert(dev, cred, RP, salt, "0000", &a), want[tries % 3]);
		fido_assert_free(&a);
		if (++tries % 3 == 0) {	/* unplugged and plugged in again */
			dev_close(dev);
			ctap2_free(&r->ctap);
			assert_int_equal(ctap2_init(&r->ctap, &r->state, presence, r), 0);
			dev = dev_open(r);
		}
	}
	assert_int_equal(r->state.pin_retries, 1);
	assert_int_equal(get_assert(dev, cred, RP, salt, "0000", &a), FIDO_ERR_PIN_BLOCKED);
	fido_assert_free(&a);
	assert_int_equal(get_assert(dev, cred, RP, salt, "4711", &a), FIDO_ERR_PIN_BLOCKED);
	fido_assert_free(&a);
	fido_cred_free(&cred);
	dev_close(dev);
	rig_free(r);
}

/* A request straight into the CTAPHID layer: one initialization packet. */
static void hid_send(struct rig *r, uint32_t cid, uint8_t cmd, size_t bcnt, const uint8_t *data, size_t len)
{
	uint8_t p[CTAPHID_REPORT] = { (uint8_t)(cid >> 24), (uint8_t)(cid >> 16), (uint8_t)(cid >> 8),
				      (uint8_t)cid, cmd, (uint8_t)(bcnt >> 8), (uint8_t)bcnt };

	memcpy(p + 7, data, len);
	ctaphid_input(&r->hid, p, sizeof(p));
}

static void hid_cont(struct rig *r, uint32_t cid, uint8_t seq, const uint8_t *data, size_t len)
{
	uint8_t p[CTAPHID_REPORT] = { (uint8_t)(cid >> 24), (uint8_t)(cid >> 16), (uint8_t)(cid >> 8),
				      (uint8_t)cid, seq };

	memcpy(p + 5, data, len);
	ctaphid_input(&r->hid, p, sizeof(p));
}

/* The next report is an ERROR with code on cid. */
static void expect_error(struct rig *r, uint32_t cid, uint8_t code)
{
	uint8_t p[CTAPHID_REPORT];

	assert_true(ctaphid_output(&r->hid, p));
	assert_int_equal((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3], cid);
	assert_int_equal(p[4], CTAPHID_ERROR);
	assert_int_equal(p[6], 1);
	assert_int_equal(p[7], code);
}

/* CTAPHID on its own: INIT gives new channels and echoes the nonce; a PING
 * over three packets comes back whole; wrong sequence numbers, lengths,
 * channels and a second channel while one is assembling are errors; short
 * reports and stray continuations are dropped. */
static void framing(void **state)
{
	struct rig *r = rig_new();
	uint8_t nonce[8] = "nonce!!", p[CTAPHID_REPORT], ping[150], back[150];
	uint32_t cid;
	size_t got;

	(void)state;
	hid_send(r, CTAPHID_BROADCAST, CTAPHID_INIT, 8, nonce, 8);
	assert_true(ctaphid_output(&r->hid, p));
	assert_int_equal(p[4], CTAPHID_INIT);
	assert_int_equal(p[6], 17);
	assert_memory_equal(p + 7, nonce, 8);
	cid = (uint32_t)p[15] << 24 | (uint32_t)p[16] << 16 | (uint32_t)p[17] << 8 | p[18];
	assert_true(cid != 0 && cid != CTAPHID_BROADCAST);
	assert_int_equal(p[23] & 0x04, 0x04);		/* CBOR capability */
	for (size_t i = 0; i < sizeof(ping); i++)
		ping[i] = (uint8_t)i;
	hid_send(r, cid, CTAPHID_PING, sizeof(ping), ping, 57);
	hid_cont(r, cid, 0, ping + 57, 59);
	assert_false(ctaphid_output(&r->hid, p));	/* not whole yet */
	hid_cont(r, cid, 1, ping + 116, 34);
	assert_true(ctaphid_output(&r->hid, p));
	assert_int_equal(p[4], CTAPHID_PING);
	assert_int_equal(p[5] << 8 | p[6], sizeof(ping));
	memcpy(back, p + 7, 57);
	for (got = 57; got < sizeof(ping); got += 59) {
		assert_true(ctaphid_output(&r->hid, p));
		assert_int_equal(p[4], (got - 57) / 59);
		memcpy(back + got, p + 5, sizeof(ping) - got < 59 ? sizeof(ping) - got : 59);
	}
	assert_memory_equal(back, ping, sizeof(ping));
	hid_send(r, cid, CTAPHID_PING, 100, ping, 57);
	hid_cont(r, cid, 1, ping, 43);
	expect_error(r, cid, CTAPHID_ERR_INVALID_SEQ);
	hid_send(r, cid, CTAPHID_PING, 100, ping, 57);
	hid_send(r, cid + 7, CTAPHID_PING, 1, ping, 1);
	expect_error(r, cid + 7, CTAPHID_ERR_CHANNEL_BUSY);
	hid_cont(r, cid, 0, ping, 43);
	assert_true(ctaphid_output(&r->hid, p));
	assert_int_equal(p[4], CTAPHID_PING);
	assert_true(ctaphid_output(&r->hid, p));
	hid_send(r, cid, CTAPHID_PING, CTAPHID_MSG_MAX + 1, ping, 57);
	expect_error(r, cid, CTAPHID_ERR_INVALID_LEN);
	hid_send(r, cid + 7, CTAPHID_PING, 1, ping, 1);
	expect_error(r, cid + 7, CTAPHID_ERR_INVALID_CHANNEL);
	hid_send(r, cid, 0xa5, 0, ping, 0);
	expect_error(r, cid, CTAPHID_ERR_INVALID_CMD);
	hid_cont(r, cid, 0, ping, 59);
	ctaphid_input(&r->hid, p, 63);
	assert_false(ctaphid_output(&r->hid, p));
	rig_free(r);
}

/* The state file: made when missing, read back the same, refused when it
 * is something else. */
static void state_file(void **state)
{
	char dir[] = "/tmp/softfido-XXXXXX", path[64];
	struct fidostate a, b;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	assert_int_equal(fidostate_load(&a, path), 0);
	a.counter = 41;
	a.pin_set = 1;
	memset(a.pin_hash, 0x5a, sizeof(a.pin_hash));
	a.pin_retries = 3;
	assert_int_equal(fidostate_save(&a), 0);
	assert_int_equal(fidostate_load(&b, path), 0);
	assert_memory_equal(a.master, b.master, sizeof(a.master));
	assert_memory_equal(a.pin_hash, b.pin_hash, sizeof(a.pin_hash));
	assert_int_equal(b.counter, 41);
	assert_int_equal(b.pin_retries, 3);
	assert_true(b.pin_set);
	fidostate_free(&a);
	fidostate_free(&b);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("master 00\n", f);
	fclose(f);
	assert_int_equal(fidostate_load(&a, path), -1);
	fidostate_free(&a);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(info),
		cmocka_unit_test(make_and_assert),
		cmocka_unit_test(refused),
		cmocka_unit_test(presence_errors),
		cmocka_unit_test(pin_protocol),
		cmocka_unit_test(pin_blocked),
		cmocka_unit_test(exclude_and_two_salts),
		cmocka_unit_test(bad_cbor),
		cmocka_unit_test(framing),
		cmocka_unit_test(state_file),
	};

	fido_init(getenv("SOFTFIDO_DEBUG") ? FIDO_DEBUG : 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
