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

/* The header's clevis.sss: p, t and the children. */
struct sss_params {
	unsigned char p[SSS_P_MAX];
	size_t p_len;
	int t;
	struct json_object *children;
};

static struct json_object *member(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

static int params_read(const struct clevis_jwe *jwe, struct sss_params *s)
{
	struct json_object *clevis = member(jwe->header, "clevis", json_type_object);
	struct json_object *sss = member(clevis, "sss", json_type_object);
	struct json_object *p = member(sss, "p", json_type_string), *t = member(sss, "t", json_type_int);
	long n;

	s->children = member(sss, "jwe", json_type_array);
	if (!dirkey_header_ok(jwe) || !p || !t || !s->children)
		return -EINVAL;
	n = base64_decode(BASE64_URL, json_object_get_string(p), (size_t)json_object_get_string_len(p), s->p,
			  sizeof(s->p));
	if (n <= 0)
		return -EINVAL;
	s->p_len = (size_t)n;
	s->t = json_object_get_int(t);
	if (s->t < 1 || (size_t)s->t > json_object_array_length(s->children) ||
	    json_object_array_length(s->children) > SSS_CHILDREN_MAX)
		return -EINVAL;
	return 0;
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

struct gather {
	const struct sss_params *s;
	const struct sss_asker *asker;
	unsigned char points[SSS_CHILDREN_MAX * 2 * SSS_P_MAX];   /* x || y, packed */
	bool asked[SSS_CHILDREN_MAX];
	struct sss_tally *tally;
};

/* Child i's JWE, parsed into jwe; false when it is not one. */
static bool child_parse(const struct gather *g, size_t i, struct clevis_jwe *jwe)
{
	const char *text = json_object_get_string(json_object_array_get_idx(g->s->children, i));

	return text && jwe_parse_compact(text, strlen(text), jwe) == 0;
}

/* Ask child i once; a point of the right size counts. */
static void ask(struct gather *g, size_t i)
{
	unsigned char plain[4 * SSS_P_MAX];
	struct clevis_jwe child;
	long n;

	g->asked[i] = true;
	if (!child_parse(g, i, &child)) {
		g->tally->malformed++;
		return;
	}
	n = g->asker->child(&child, i, plain, sizeof(plain), g->asker->ctx);
	jwe_free(&child);
	if (n == (long)(2 * g->s->p_len))
		memcpy(g->points + g->tally->answered++ * (size_t)n, plain, (size_t)n);
	else if (n >= 0)
		g->tally->malformed++;
	explicit_bzero(plain, sizeof(plain));
}

/* The children not asked yet, handed to prefetch() at once. */
static void prefetch(struct gather *g)
{
	struct clevis_jwe jwes[SSS_CHILDREN_MAX];
	const struct clevis_jwe *children[SSS_CHILDREN_MAX];
	size_t index[SSS_CHILDREN_MAX], n = 0;

	for (size_t i = 0; i < g->tally->n; i++)
		if (!g->asked[i] && child_parse(g, i, &jwes[n])) {
			children[n] = &jwes[n];
			index[n++] = i;
		}
	if (n)
		g->asker->prefetch(children, index, n, (size_t)g->tally->t - g->tally->answered,
				   g->asker->ctx);
	for (size_t k = 0; k < n; k++)
		jwe_free(&jwes[k]);
}

static void gather_points(struct gather *g)
{
	const struct sss_asker *a = g->asker;

	/* Round 0 asks the children first() picks, round 1 the rest. */
	for (int round = a->first ? 0 : 1; round < 2; round++) {
		if (round == 1 && a->prefetch && g->tally->answered < (size_t)g->tally->t)
			prefetch(g);
		for (size_t i = 0; i < g->tally->n && g->tally->answered < (size_t)g->tally->t; i++) {
			struct clevis_jwe probe;
			bool pick = true;

			if (g->asked[i])
				continue;
			if (round == 0) {
				pick = child_parse(g, i, &probe);
				if (pick) {
					pick = a->first(&probe, a->ctx);
					jwe_free(&probe);
				}
			}
			if (pick)
				ask(g, i);
		}
	}
}

long sss_recover(const struct clevis_jwe *jwe, const struct sss_asker *asker, unsigned char *out,
		 size_t size, struct sss_tally *tally)
{
	struct sss_params s;
	struct gather *g;
	unsigned char key[SSS_P_MAX];
	long r;

	memset(tally, 0, sizeof(*tally));
	if (params_read(jwe, &s) < 0)
		return -EINVAL;
	tally->t = s.t;
	tally->n = json_object_array_length(s.children);
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	*g = (struct gather){ .s = &s, .asker = asker, .tally = tally };
	gather_points(g);
	if (tally->answered < (size_t)s.t)
		r = -ENOKEY;
	else if (sss_combine(s.p, s.p_len, g->points, (size_t)s.t, key) < 0)
		r = -EBADMSG;
	else
		r = dirkey_decrypt(jwe, key, s.p_len, out, size);
	explicit_bzero(g, sizeof(*g));
	explicit_bzero(key, sizeof(key));
	free(g);
	return r;
}
