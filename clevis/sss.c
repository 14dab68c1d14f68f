/* sss: Shamir's secret sharing as clevis's sss pin uses it, with
 * OpenSSL's big numbers. */
#include "clevis/sss.h"

#include <errno.h>
#include <json-c/json.h>
#include <openssl/bn.h>
#include <stdlib.h>
#include <string.h>

#include "clevis/dirkey.h"
#include "common/base64.h"

static struct json_object *member(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

int sss_header_read(const struct clevis_jwe *jwe, struct sss_header *h)
{
	struct json_object *clevis = member(jwe->header, "clevis", json_type_object);
	struct json_object *sss = member(clevis, "sss", json_type_object);
	struct json_object *p = member(sss, "p", json_type_string), *t = member(sss, "t", json_type_int);
	long n;

	h->children = member(sss, "jwe", json_type_array);
	if (!dirkey_header_ok(jwe) || !p || !t || !h->children)
		return -EINVAL;
	n = base64_decode(BASE64_URL, json_object_get_string(p), (size_t)json_object_get_string_len(p), h->p,
			  sizeof(h->p));
	if (n <= 0)
		return -EINVAL;
	h->p_len = (size_t)n;
	h->t = json_object_get_int(t);
	h->n = json_object_array_length(h->children);
	if (h->t < 1 || (size_t)h->t > h->n || h->n > SSS_CHILDREN_MAX)
		return -EINVAL;
	return 0;
}

int sss_header_child(const struct sss_header *h, size_t i, struct clevis_jwe *child)
{
	const char *text = json_object_get_string(json_object_array_get_idx(h->children, i));

	memset(child, 0, sizeof(*child));
	return text && jwe_parse_compact(text, strlen(text), child) == 0 ? 0 : -EINVAL;
}

/* One Lagrange term y_j * prod_{m != j} x_m / (x_m - x_j), added to sum. */
static int add_term(const BIGNUM *p, BIGNUM *const *x, BIGNUM *const *y, size_t n, size_t j,
		    BIGNUM *sum, BN_CTX *bn)
{
	BIGNUM *num = BN_new(), *den = BN_new(), *diff = BN_new(), *inv = NULL;
	int ok = num && den && diff && BN_one(num) && BN_one(den);

	for (size_t m = 0; ok && m < n; m++) {
		if (m == j)
			continue;
		ok = BN_mod_mul(num, num, x[m], p, bn) && BN_mod_sub(diff, x[m], x[j], p, bn) &&
		     BN_mod_mul(den, den, diff, p, bn);
	}
	/* A zero denominator (two equal x) has no inverse. */
	ok = ok && (inv = BN_mod_inverse(NULL, den, p, bn)) != NULL &&
	     BN_mod_mul(num, num, inv, p, bn) && BN_mod_mul(num, num, y[j], p, bn) &&
	     BN_mod_add(sum, sum, num, p, bn);
	BN_clear_free(num);
	BN_free(den);
	BN_free(diff);
	BN_free(inv);
	return ok ? 0 : -EINVAL;
}

int sss_combine(const unsigned char *p_bytes, size_t p_len, const unsigned char *points, size_t n,
		unsigned char *secret)
{
	BIGNUM *x[SSS_CHILDREN_MAX] = { NULL }, *y[SSS_CHILDREN_MAX] = { NULL };
	BIGNUM *p = BN_bin2bn(p_bytes, (int)p_len, NULL), *sum = BN_new();
	BN_CTX *bn = BN_CTX_new();
	int r = p && sum && bn;   /* BN_new starts at zero */

	r = r && n <= SSS_CHILDREN_MAX && p_len <= SSS_P_MAX && BN_cmp(p, BN_value_one()) > 0 ?
		    0 : -EINVAL;
	for (size_t i = 0; r == 0 && i < n; i++) {
		x[i] = BN_bin2bn(points + 2 * i * p_len, (int)p_len, NULL);
		y[i] = BN_bin2bn(points + (2 * i + 1) * p_len, (int)p_len, NULL);
		if (!x[i] || !y[i] || BN_cmp(x[i], p) >= 0 || BN_cmp(y[i], p) >= 0)
			r = -EINVAL;
	}
	for (size_t j = 0; r == 0 && j < n; j++)
		r = add_term(p, x, y, n, j, sum, bn);
	if (r == 0 && BN_bn2binpad(sum, secret, (int)p_len) != (int)p_len)
		r = -EINVAL;
	for (size_t i = 0; i < n; i++) {
		BN_clear_free(x[i]);
		BN_clear_free(y[i]);
	}
	BN_clear_free(sum);
	BN_free(p);
	BN_CTX_free(bn);
	return r;
}

long sss_open(const struct clevis_jwe *jwe, const struct sss_header *h, const unsigned char *points,
	      unsigned char *out, size_t size)
{
	unsigned char key[SSS_P_MAX];
	long r = -EBADMSG;

	if (sss_combine(h->p, h->p_len, points, (size_t)h->t, key) == 0)
		r = dirkey_decrypt(jwe, key, h->p_len, out, size);
	explicit_bzero(key, sizeof(key));
	return r;
}
