/* tpm2pin: unsealing a clevis tpm2 binding with libtss2 (ESAPI). */
#include "clevis/tpm2pin.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clevis/dirkey.h"
#include "clevis/tss2fn.h"
#include "common/base64.h"

#define PCR_COUNT 24

static const struct { const char *name; TPM2_ALG_ID alg; } hashes[] = {
	{ "sha1", TPM2_ALG_SHA1 },
	{ "sha256", TPM2_ALG_SHA256 },
	{ "sha384", TPM2_ALG_SHA384 },
	{ "sha512", TPM2_ALG_SHA512 },
};

static TPM2_ALG_ID hash_named(const char *name)
{
	for (size_t i = 0; name && i < sizeof(hashes) / sizeof(hashes[0]); i++)
		if (strcmp(name, hashes[i].name) == 0)
			return hashes[i].alg;
	return TPM2_ALG_NULL;
}

static const char *tpm2_member(const struct clevis_jwe *jwe, const char *key)
{
	struct json_object *clevis, *tpm2, *v;

	if (!json_object_object_get_ex(jwe->header, "clevis", &clevis) ||
	    !json_object_object_get_ex(clevis, "tpm2", &tpm2) ||
	    !json_object_object_get_ex(tpm2, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* "1,7,23" into a bit mask; -EINVAL for anything else. */
static int pcr_mask(const char *ids, uint32_t *mask)
{
	*mask = 0;
	while (*ids) {
		char *end;
		long n = strtol(ids, &end, 10);

		if (end == ids || n < 0 || n >= PCR_COUNT || (*end && *end != ','))
			return -EINVAL;
		*mask |= 1u << n;
		ids = *end ? end + 1 : end;
	}
	return *mask ? 0 : -EINVAL;
}

/* A base64url field holding a marshalled TPM2B. */
static int b64_field(const struct clevis_jwe *jwe, const char *key, unsigned char *buf,
		     size_t size, size_t *len)
{
	const char *text = tpm2_member(jwe, key);
	long n = text ? base64_decode(BASE64_URL, text, strlen(text), buf, size) : -EINVAL;

	if (n <= 0)
		return -EINVAL;
	*len = (size_t)n;
	return 0;
}

static int objects_parse(const struct tss2fn *t, const struct clevis_jwe *jwe,
			 struct tpm2pin_binding *b)
{
	unsigned char buf[sizeof(TPM2B_PUBLIC) + sizeof(TPM2B_PRIVATE)];
	size_t len, off = 0;

	if (b64_field(jwe, "jwk_pub", buf, sizeof(buf), &len) < 0 ||
	    t->public_unmarshal(buf, len, &off, &b->pub) != TSS2_RC_SUCCESS || off != len)
		return -EINVAL;
	off = 0;
	if (b64_field(jwe, "jwk_priv", buf, sizeof(buf), &len) < 0 ||
	    t->private_unmarshal(buf, len, &off, &b->priv) != TSS2_RC_SUCCESS ||
	    off != len)
		return -EINVAL;
	return 0;
}

int tpm2pin_parse(const struct clevis_jwe *jwe, struct tpm2pin_binding *b, char *why,
		  size_t why_size)
{
	const char *key = tpm2_member(jwe, "key"), *ids = tpm2_member(jwe, "pcr_ids");
	const char *problem = NULL;
	const struct tss2fn *t = tss2fn_get(why, why_size);

	memset(b, 0, sizeof(*b));
	b->hash = hash_named(tpm2_member(jwe, "hash"));
	b->key = key && strcmp(key, "ecc") == 0 ? TPM2_ALG_ECC :
		 key && strcmp(key, "rsa") == 0 ? TPM2_ALG_RSA : TPM2_ALG_NULL;
	b->pcr_bank = ids ? hash_named(tpm2_member(jwe, "pcr_bank")) : TPM2_ALG_NULL;
	if (!t)
		return -ENOENT;
	if (!dirkey_header_ok(jwe))
		problem = "the JWE is not \"dir\" with A256GCM, as clevis's tpm2 pin makes it";
	else if (b->hash == TPM2_ALG_NULL || b->key == TPM2_ALG_NULL)
		problem = "its hash or key is not one tpm2-tools makes (sha1/256/384/512, ecc or rsa)";
	else if (ids && (b->pcr_bank == TPM2_ALG_NULL || pcr_mask(ids, &b->pcrs) < 0))
		problem = "its pcr_bank or pcr_ids cannot be read";
	else if (objects_parse(t, jwe, b) < 0)
		problem = "its sealed object (jwk_pub, jwk_priv) cannot be read";
	if (!problem)
		return 0;
	snprintf(why, why_size, "%s", problem);
	return -EINVAL;
}

/* The primary tpm2_createprimary makes by default for -G ecc|rsa -g HASH:
 * a restricted decryption key with AES-128-CFB, the owner's, no unique
 * data. The TPM derives it again the same from the owner seed. */
static void primary_template(const struct tpm2pin_binding *b, TPM2B_PUBLIC *t)
{
	TPMT_PUBLIC *p = &t->publicArea;

	memset(t, 0, sizeof(*t));
	p->type = b->key;
	p->nameAlg = b->hash;
	p->objectAttributes = TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT | TPMA_OBJECT_FIXEDTPM |
			      TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN |
			      TPMA_OBJECT_USERWITHAUTH;
	if (b->key == TPM2_ALG_ECC) {
		p->parameters.eccDetail.symmetric.algorithm = TPM2_ALG_AES;
		p->parameters.eccDetail.symmetric.keyBits.aes = 128;
		p->parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_CFB;
		p->parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
		p->parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
		p->parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
	} else {
		p->parameters.rsaDetail.symmetric.algorithm = TPM2_ALG_AES;
		p->parameters.rsaDetail.symmetric.keyBits.aes = 128;
		p->parameters.rsaDetail.symmetric.mode.aes = TPM2_ALG_CFB;
		p->parameters.rsaDetail.scheme.scheme = TPM2_ALG_NULL;
		p->parameters.rsaDetail.keyBits = 2048;
	}
}

/* A TPM response code in words, and as -errno. */
static int tpm_failed(TSS2_RC rc, const char *step, char *why, size_t why_size)
{
	TSS2_RC code = rc & 0xffff;

	if (code & TPM2_RC_FMT1)
		code &= TPM2_RC_FMT1 | 0x3f;
	if (code == TPM2_RC_POLICY_FAIL || code == TPM2_RC_PCR_CHANGED) {
		snprintf(why, why_size, "the TPM refused: the PCRs the binding is bound to have "
			 "changed since `clevis luks bind` (firmware, boot loader or its settings "
			 "changed); bind it again once booted");
		return -EACCES;
	}
	if (code == TPM2_RC_LOCKOUT) {
		snprintf(why, why_size, "the TPM is in dictionary-attack lockout");
		return -EBUSY;
	}
	if ((rc & 0xffff) == TSS2_BASE_RC_IO_ERROR || (rc & 0xffff) == TSS2_BASE_RC_TRY_AGAIN) {
		snprintf(why, why_size, "the TPM did not answer (%s)", step);
		return -EIO;
	}
	snprintf(why, why_size, "the TPM failed to %s (response code 0x%x)%s", step, rc,
		 code == TPM2_RC_INTEGRITY ? ": the binding was made on another TPM, or the TPM "
					     "was cleared" : "");
	return -EIO;
}

/* A policy session that satisfies the binding's PCR policy now. */
static TSS2_RC pcr_session(const struct tss2fn *t, ESYS_CONTEXT *esys,
			   const struct tpm2pin_binding *b, ESYS_TR *session)
{
	TPMT_SYM_DEF sym = { .algorithm = TPM2_ALG_NULL };
	TPM2B_DIGEST none = { .size = 0 };
	TPML_PCR_SELECTION sel = { .count = 1 };
	TSS2_RC rc;

	sel.pcrSelections[0].hash = b->pcr_bank;
	sel.pcrSelections[0].sizeofSelect = 3;
	for (int i = 0; i < PCR_COUNT; i++)
		if (b->pcrs & (1u << i))
			sel.pcrSelections[0].pcrSelect[i / 8] |= (uint8_t)(1u << (i % 8));
	rc = t->start_auth_session(esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, NULL, TPM2_SE_POLICY, &sym, b->hash, session);
	if (rc == TSS2_RC_SUCCESS)
		rc = t->policy_pcr(esys, *session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &none,
				    &sel);
	return rc;
}

/* Primary, load, (policy), unseal: the sealed JWK into jwk. */
static int unseal(const struct tss2fn *t, ESYS_CONTEXT *esys, const struct tpm2pin_binding *b,
		  TPM2B_SENSITIVE_DATA **jwk, char *why, size_t why_size)
{
	TPM2B_SENSITIVE_CREATE sensitive = { .size = 0 };
	TPM2B_PUBLIC tmpl;
	TPM2B_DATA outside = { .size = 0 };
	TPML_PCR_SELECTION creation = { .count = 0 };
	ESYS_TR primary = ESYS_TR_NONE, object = ESYS_TR_NONE, session = ESYS_TR_NONE;
	const char *step = "make the primary key";
	TSS2_RC rc;

	primary_template(b, &tmpl);
	rc = t->create_primary(esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
				&sensitive, &tmpl, &outside, &creation, &primary, NULL, NULL, NULL,
				NULL);
	if (rc == TSS2_RC_SUCCESS) {
		step = "load the sealed object";
		rc = t->load(esys, primary, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &b->priv,
			       &b->pub, &object);
	}
	if (rc == TSS2_RC_SUCCESS && b->pcr_bank != TPM2_ALG_NULL) {
		step = "start the PCR policy session";
		rc = pcr_session(t, esys, b, &session);
	}
	if (rc == TSS2_RC_SUCCESS) {
		step = "unseal";
		rc = t->unseal(esys, object, session == ESYS_TR_NONE ? ESYS_TR_PASSWORD : session,
				 ESYS_TR_NONE, ESYS_TR_NONE, jwk);
	}
	if (session != ESYS_TR_NONE)
		t->flush_context(esys, session);
	if (object != ESYS_TR_NONE)
		t->flush_context(esys, object);
	if (primary != ESYS_TR_NONE)
		t->flush_context(esys, primary);
	return rc == TSS2_RC_SUCCESS ? 0 : tpm_failed(rc, step, why, why_size);
}

long tpm2pin_recover(const struct clevis_jwe *jwe, tpm2pin_tcti_fn open_tcti, void *ctx,
		     unsigned char *out, size_t size, char *why, size_t why_size)
{
	struct tpm2pin_binding b;
	TSS2_TCTI_CONTEXT *tcti = NULL;
	ESYS_CONTEXT *esys = NULL;
	TPM2B_SENSITIVE_DATA *jwk = NULL;
	long r = tpm2pin_parse(jwe, &b, why, why_size);
	const struct tss2fn *t = tss2fn_get(why, why_size);

	if (r < 0 || !t)
		return r < 0 ? r : -ENOENT;
	r = open_tcti(&tcti, ctx);
	if (r < 0) {
		snprintf(why, why_size, "no TPM2 device (is the TPM turned on in the firmware?)");
		return -ENODEV;
	}
	if (t->initialize(&esys, tcti, NULL) != TSS2_RC_SUCCESS) {
		snprintf(why, why_size, "the TPM cannot be used (ESAPI did not start)");
		r = -EIO;
	} else {
		t->set_timeout(esys, TPM2PIN_TIMEOUT_MS);
		r = unseal(t, esys, &b, &jwk, why, why_size);
	}
	if (r == 0) {
		r = dirkey_decrypt_jwk(jwe, (const char *)jwk->buffer, jwk->size, out, size);
		if (r < 0)
			snprintf(why, why_size, "the key the TPM unsealed does not decrypt the binding");
		explicit_bzero(jwk->buffer, jwk->size);
	}
	if (jwk)
		t->free(jwk);
	if (esys)
		t->finalize(&esys);
	tpm2pin_tcti_free(tcti);
	return r;
}

int tpm2pin_tcti_device(TSS2_TCTI_CONTEXT **tcti, void *ctx)
{
	const char *path = ctx ? ctx : TPM2PIN_DEVICE;
	char why[128];
	const struct tss2fn *t = tss2fn_get(why, sizeof(why));
	size_t size = 0;

	if (!t || t->tcti_device_init(NULL, &size, path) != TSS2_RC_SUCCESS)
		return -EINVAL;
	*tcti = calloc(1, size);
	if (!*tcti)
		return -ENOMEM;
	if (t->tcti_device_init(*tcti, &size, path) != TSS2_RC_SUCCESS) {
		free(*tcti);
		*tcti = NULL;
		return -ENODEV;
	}
	return 0;
}

void tpm2pin_tcti_free(TSS2_TCTI_CONTEXT *tcti)
{
	if (!tcti)
		return;
	Tss2_Tcti_Finalize(tcti);
	free(tcti);
}
