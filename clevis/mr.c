/* mr: Tang's McCallum-Relyea recovery with OpenSSL's elliptic curves, the
 * Concat KDF of RFC 7518 section 4.6.2 and AES-256-GCM (the library comes
 * with cryptsetup in the image). */
#include "clevis/mr.h"

#include <errno.h>
#include <json-c/json.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clevis/dirkey.h"
#include "common/base64.h"

#define MR_COORD_MAX 66   /* P-521's field size in bytes */
#define MR_JWK_MAX 512
#define MR_CEK_LEN DIRKEY_CEK_LEN

struct mr_ctx {
	EC_GROUP *group;
	BN_CTX *bn;
	const char *crv;
	char *why;
	size_t why_size;
};

static const struct { const char *crv; int nid; } curves[] = {
	{ "P-256", NID_X9_62_prime256v1 },
	{ "P-384", NID_secp384r1 },
	{ "P-521", NID_secp521r1 },
};

static int fail(struct mr_ctx *m, int err, const char *what)
{
	snprintf(m->why, m->why_size, "%s", what);
	return err;
}

static const char *str_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static size_t field_bytes(const struct mr_ctx *m)
{
	return ((size_t)EC_GROUP_get_degree(m->group) + 7) / 8;
}

/* A JWK's point on the curve, or NULL (not EC, another curve, off it). */
static EC_POINT *jwk_point(struct mr_ctx *m, struct json_object *jwk)
{
	unsigned char x[MR_COORD_MAX], y[MR_COORD_MAX];
	const char *kty = str_member(jwk, "kty"), *crv = str_member(jwk, "crv");
	const char *xs = str_member(jwk, "x"), *ys = str_member(jwk, "y");
	long xl, yl;
	BIGNUM *bx, *by;
	EC_POINT *p = NULL;

	if (!kty || !crv || !xs || !ys || strcmp(kty, "EC") != 0 || strcmp(crv, m->crv) != 0)
		return NULL;
	xl = base64_decode(BASE64_URL, xs, strlen(xs), x, sizeof(x));
	yl = base64_decode(BASE64_URL, ys, strlen(ys), y, sizeof(y));
	if (xl != (long)field_bytes(m) || yl != xl)
		return NULL;
	bx = BN_bin2bn(x, (int)xl, NULL);
	by = BN_bin2bn(y, (int)yl, NULL);
	p = EC_POINT_new(m->group);
	if (!bx || !by || !p || !EC_POINT_set_affine_coordinates(m->group, p, bx, by, m->bn) ||
	    EC_POINT_is_on_curve(m->group, p, m->bn) != 1) {
		EC_POINT_free(p);
		p = NULL;
	}
	BN_free(bx);
	BN_free(by);
	return p;
}

/* The JWK text of a point, as the server takes it. */
static int point_jwk(struct mr_ctx *m, const EC_POINT *p, char *out, size_t size)
{
	unsigned char x[MR_COORD_MAX], y[MR_COORD_MAX];
	char xs[MR_COORD_MAX * 2], ys[MR_COORD_MAX * 2];
	size_t n = field_bytes(m);
	BIGNUM *bx = BN_new(), *by = BN_new();
	int ok = bx && by && EC_POINT_get_affine_coordinates(m->group, p, bx, by, m->bn) &&
		 BN_bn2binpad(bx, x, (int)n) == (int)n && BN_bn2binpad(by, y, (int)n) == (int)n &&
		 base64_encode(BASE64_URL, x, n, xs, sizeof(xs)) > 0 && base64_encode(BASE64_URL, y, n, ys, sizeof(ys)) > 0;

	BN_free(bx);
	BN_free(by);
	if (!ok)
		return -ENOMEM;
	return snprintf(out, size, "{\"kty\":\"EC\",\"crv\":\"%s\",\"x\":\"%s\",\"y\":\"%s\"}",
			m->crv, xs, ys) < (int)size ? 0 : -ENOSPC;
}

/* RFC 7638's SHA-256 thumbprint of an EC JWK, base64url: what "kid" is. */
static int thumbprint(struct json_object *jwk, const char *crv, char *out, size_t size)
{
	char canon[MR_JWK_MAX];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len;
	const char *x = str_member(jwk, "x"), *y = str_member(jwk, "y");

	if (!x || !y || snprintf(canon, sizeof(canon), "{\"crv\":\"%s\",\"kty\":\"EC\",\"x\":\"%s\","
				 "\"y\":\"%s\"}", crv, x, y) >= (int)sizeof(canon))
		return -EINVAL;
	if (!EVP_Digest(canon, strlen(canon), md, &md_len, EVP_sha256(), NULL))
		return -ENOMEM;
	return base64_encode(BASE64_URL, md, md_len, out, size) < 0 ? -ENOSPC : 0;
}

/* The advertised exchange key ("ECMR", deriveKey) whose thumbprint is kid. */
static EC_POINT *server_key(struct mr_ctx *m, struct json_object *header, const char *kid)
{
	struct json_object *clevis, *tang, *adv, *keys;

	if (!json_object_object_get_ex(header, "clevis", &clevis) ||
	    !json_object_object_get_ex(clevis, "tang", &tang) ||
	    !json_object_object_get_ex(tang, "adv", &adv) ||
	    !json_object_object_get_ex(adv, "keys", &keys) ||
	    !json_object_is_type(keys, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(keys); i++) {
		struct json_object *k = json_object_array_get_idx(keys, i);
		const char *alg = str_member(k, "alg");
		char tp[64];

		if (alg && strcmp(alg, "ECMR") == 0 && thumbprint(k, m->crv, tp, sizeof(tp)) == 0 &&
		    strcmp(tp, kid) == 0)
			return jwk_point(m, k);
	}
	return NULL;
}

/* Concat KDF (one SHA-256 round: a 256-bit key) over Z with "A256GCM" and
 * the header's apu/apv. */
static int concat_kdf(struct json_object *header, const unsigned char *z, size_t z_len,
		      unsigned char cek[MR_CEK_LEN])
{
	static const char enc[] = "A256GCM";
	unsigned char info[4 + sizeof(enc) + 2 * (4 + 256) + 4], party[256];
	const char *names[2] = { "apu", "apv" };
	unsigned char counter[4] = { 0, 0, 0, 1 };
	unsigned int md_len;
	size_t n = 0;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok;

	info[n++] = 0, info[n++] = 0, info[n++] = 0, info[n++] = sizeof(enc) - 1;
	memcpy(info + n, enc, sizeof(enc) - 1);
	n += sizeof(enc) - 1;
	for (size_t i = 0; i < 2; i++) {
		const char *v = str_member(header, names[i]);
		long len = v ? base64_decode(BASE64_URL, v, strlen(v), party, sizeof(party)) : 0;

		if (len < 0) {
			EVP_MD_CTX_free(md);
			return -EINVAL;
		}
		info[n++] = 0, info[n++] = 0, info[n++] = (unsigned char)(len >> 8);
		info[n++] = (unsigned char)len;
		memcpy(info + n, party, (size_t)len);
		n += (size_t)len;
	}
	info[n++] = 0, info[n++] = 0, info[n++] = 1, info[n++] = 0;   /* 256 bits */
	ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
	     EVP_DigestUpdate(md, counter, sizeof(counter)) && EVP_DigestUpdate(md, z, z_len) &&
	     EVP_DigestUpdate(md, info, n) && EVP_DigestFinal_ex(md, cek, &md_len);
	EVP_MD_CTX_free(md);
	return ok && md_len == MR_CEK_LEN ? 0 : -ENOMEM;
}

/* The curve named by the header's epk; 0 when it is none of Tang's. */
static int curve_set(struct mr_ctx *m, struct json_object *epk)
{
	const char *crv = str_member(epk, "crv");

	for (size_t i = 0; crv && i < sizeof(curves) / sizeof(curves[0]); i++)
		if (strcmp(crv, curves[i].crv) == 0) {
			m->crv = curves[i].crv;
			m->group = EC_GROUP_new_by_curve_name(curves[i].nid);
			return m->group ? 0 : -ENOMEM;
		}
	return -EINVAL;
}

/* K = Y - eS, as the x coordinate padded to the field size (ECDH's Z). */
static int shared_secret(struct mr_ctx *m, const EC_POINT *y, const EC_POINT *s,
			 const BIGNUM *e, unsigned char *z)
{
	EC_POINT *t = EC_POINT_new(m->group);
	BIGNUM *kx = BN_new();
	int n = (int)field_bytes(m);
	int ok = t && kx && EC_POINT_mul(m->group, t, NULL, s, e, m->bn) &&
		 EC_POINT_invert(m->group, t, m->bn) && EC_POINT_add(m->group, t, t, y, m->bn) &&
		 EC_POINT_get_affine_coordinates(m->group, t, kx, NULL, m->bn) &&
		 BN_bn2binpad(kx, z, n) == n;

	EC_POINT_free(t);
	BN_clear_free(kx);
	return ok ? n : -EBADMSG;
}

/* A random scalar in [1, order). */
static BIGNUM *random_scalar(const struct mr_ctx *m)
{
	const BIGNUM *order = EC_GROUP_get0_order(m->group);
	BIGNUM *e = BN_new();

	do {
		if (!e || !BN_rand_range(e, order)) {
			BN_free(e);
			return NULL;
		}
	} while (BN_is_zero(e));
	return e;
}

/* The header must be clevis's: ECDH-ES, A256GCM, an epk and a kid. */
static int header_check(struct mr_ctx *m, struct json_object *h, struct json_object **epk,
			const char **kid)
{
	const char *alg = str_member(h, "alg"), *enc = str_member(h, "enc");

	*kid = str_member(h, "kid");
	if (!alg || strcmp(alg, "ECDH-ES") != 0 || !enc || strcmp(enc, "A256GCM") != 0)
		return fail(m, -EINVAL, "the JWE is not ECDH-ES with A256GCM, as clevis's tang pin makes it");
	if (!json_object_object_get_ex(h, "epk", epk) || !*kid)
		return fail(m, -EINVAL, "the JWE header has no epk or no kid");
	if (curve_set(m, *epk) < 0)
		return fail(m, -EINVAL, "the JWE's key is not on P-256, P-384 or P-521");
	return 0;
}

/* What the second half of the exchange needs: the curve, the server's
 * key S and the blinding scalar e (secret: cleared when freed). */
struct mr_pending {
	struct mr_ctx m;
	const struct clevis_jwe *jwe;
	EC_POINT *s;
	BIGNUM *e;
	const char *kid;
	char request[MR_JWK_MAX];
};

void mr_pending_free(struct mr_pending *p)
{
	if (!p)
		return;
	BN_clear_free(p->e);
	EC_POINT_free(p->s);
	EC_GROUP_free(p->m.group);
	BN_CTX_free(p->m.bn);
	explicit_bzero(p, sizeof(*p));
	free(p);
}

/* The request: X = C + eG, as a JWK. */
static int blind(struct mr_pending *p, const EC_POINT *c)
{
	EC_POINT *x = EC_POINT_new(p->m.group);
	int r = x && EC_POINT_mul(p->m.group, x, p->e, NULL, NULL, p->m.bn) &&
			EC_POINT_add(p->m.group, x, x, c, p->m.bn)
		? point_jwk(&p->m, x, p->request, sizeof(p->request))
		: -ENOMEM;

	EC_POINT_free(x);
	return r < 0 ? -ENOMEM : 0;
}

static int begin_with(struct mr_pending *p)
{
	struct json_object *epk;
	EC_POINT *c;
	int r = header_check(&p->m, p->jwe->header, &epk, &p->kid);

	if (r < 0)
		return r;
	c = jwk_point(&p->m, epk);
	p->s = server_key(&p->m, p->jwe->header, p->kid);
	if (!c || !p->s)
		r = fail(&p->m, -EINVAL, !c ? "the JWE's epk is not a point of its curve"
					    : "the advertisement in the JWE has no exchange key with its kid");
	else if (!(p->e = random_scalar(&p->m)))
		r = -ENOMEM;
	else
		r = blind(p, c);
	EC_POINT_free(c);
	return r;
}

int mr_begin(const struct clevis_jwe *jwe, struct mr_pending **out, char *why, size_t why_size)
{
	struct mr_pending *p = calloc(1, sizeof(*p));
	int r;

	*out = NULL;
	why[0] = '\0';
	if (!p)
		return -ENOMEM;
	*p = (struct mr_pending){ .m = { .why = why, .why_size = why_size }, .jwe = jwe };
	p->m.bn = BN_CTX_new();
	r = p->m.bn ? begin_with(p) : -ENOMEM;
	if (r < 0) {
		mr_pending_free(p);
		return r;
	}
	*out = p;
	return 0;
}

const char *mr_pending_kid(const struct mr_pending *p)
{
	return p->kid;
}

const char *mr_pending_request(const struct mr_pending *p)
{
	return p->request;
}

long mr_finish(struct mr_pending *p, const char *reply, unsigned char *out, size_t size)
{
	struct json_object *jwk = json_tokener_parse(reply);
	EC_POINT *y = jwk ? jwk_point(&p->m, jwk) : NULL;
	unsigned char z[MR_COORD_MAX], cek[MR_CEK_LEN];
	long r;

	p->m.why[0] = '\0';
	if (jwk)
		json_object_put(jwk);
	if (!y)
		return fail(&p->m, -EBADMSG, "the server's answer is not a key on the binding's curve");
	r = shared_secret(&p->m, y, p->s, p->e, z);
	if (r > 0 && (r = concat_kdf(p->jwe->header, z, (size_t)r, cek)) == 0)
		r = dirkey_decrypt(p->jwe, cek, sizeof(cek), out, size);
	if (r == -EBADMSG && !p->m.why[0])
		fail(&p->m, (int)r, "the server's answer does not decrypt the binding (the server's keys "
				    "changed since `clevis luks bind`?)");
	explicit_bzero(z, sizeof(z));
	explicit_bzero(cek, sizeof(cek));
	EC_POINT_free(y);
	return r;
}

long mr_recover(const struct clevis_jwe *jwe, mr_exchange_fn exchange, void *ctx,
		unsigned char *out, size_t size, char *why, size_t why_size)
{
	struct mr_pending *p;
	char reply[MR_REPLY_MAX];
	long r = mr_begin(jwe, &p, why, why_size);

	if (r < 0)
		return r;
	r = exchange(p->kid, p->request, reply, sizeof(reply), ctx);
	if (r == 0)
		r = mr_finish(p, reply, out, size);
	mr_pending_free(p);
	return r;
}
