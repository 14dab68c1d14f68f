/* pin: the dispatch on a clevis JWE's pin. */
#include "clevis/pin.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "clevis/dirkey.h"
#include "clevis/sss_tree.h"
#include "clevis/tang.h"
#include "clevis/tang_shares.h"

#define WHY_MAX 512
#define WHAT_MAX 512

static const char *const known[] = { "tang", "tpm2", "sss", "null" };

bool pin_known(const char *pin)
{
	for (size_t i = 0; pin && i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(pin, known[i]) == 0)
			return true;
	return false;
}

static long tang_recover(const struct clevis_jwe *jwe, const struct pin_env *env,
			 unsigned char *out, size_t size, const char *what)
{
	struct tang_server t = { .url = jwe_tang_url(jwe), .timeout_ms = env->timeout_ms };
	char why[WHY_MAX];
	long n;

	if (!t.url) {
		fprintf(env->report, "%s: its tang binding names no server\n", what);
		return -EINVAL;
	}
	n = env->exchange ? mr_recover(jwe, env->exchange, env->exchange_ctx, out, size, why, sizeof(why))
			  : mr_recover(jwe, tang_exchange, &t, out, size, why, sizeof(why));
	if (n < 0)
		fprintf(env->report, "%s: tang server %s: %s\n", what, t.url, t.why[0] ? t.why : why);
	return n;
}

static long tpm2_recover(const struct clevis_jwe *jwe, const struct pin_env *env,
			 unsigned char *out, size_t size, const char *what)
{
	char why[WHY_MAX];
	long n = env->open_tcti ? tpm2pin_recover(jwe, env->open_tcti, env->tcti_ctx, out, size, why,
						  sizeof(why))
				: tpm2pin_recover(jwe, tpm2pin_tcti_device, NULL, out, size, why,
						  sizeof(why));

	if (n < 0)
		fprintf(env->report, "%s: tpm2: %s\n", what, why);
	return n;
}

/* clevis's null pin: the key is the header's clevis.null.jwk. */
static long null_recover(const struct clevis_jwe *jwe, const struct pin_env *env,
			 unsigned char *out, size_t size, const char *what)
{
	struct json_object *clevis, *null, *jwk;
	long n = -EINVAL;

	if (dirkey_header_ok(jwe) && json_object_object_get_ex(jwe->header, "clevis", &clevis) &&
	    json_object_object_get_ex(clevis, "null", &null) &&
	    json_object_object_get_ex(null, "jwk", &jwk)) {
		const char *text = json_object_to_json_string(jwk);

		n = dirkey_decrypt_jwk(jwe, text, strlen(text), out, size);
	}
	if (n < 0)
		fprintf(env->report, "%s: null: its key does not decrypt it\n", what);
	return n;
}

/* A share that is not sss: a Tang server (one, on its own), the TPM, the
 * null pin; one too deep or of a pin lifeboat does not know fails here.
 * Each failure is said. */
static long leaf_recover(const struct clevis_jwe *jwe, const struct pin_env *env, int depth,
			 unsigned char *out, size_t size, const char *what)
{
	const char *pin = jwe_pin(jwe);

	if (depth > JWE_DEPTH_MAX) {
		fprintf(env->report, "%s: sss nested more than %d deep\n", what, JWE_DEPTH_MAX);
		return -ELOOP;
	}
	if (!pin_known(pin)) {
		fprintf(env->report, "%s: the pin %.32s is not one lifeboat knows\n", what,
			pin ? pin : "(none)");
		return -EOPNOTSUPP;
	}
	if (strcmp(pin, "tang") == 0)
		return tang_recover(jwe, env, out, size, what);
	if (strcmp(pin, "tpm2") == 0)
		return tpm2_recover(jwe, env, out, size, what);
	return null_recover(jwe, env, out, size, what);
}

/* The tree's leaves of one kind, one after another, each while still
 * wanted: the local ones; the Tang ones when a test's own exchanger
 * answers (asked one share at a time). */
static void ask_each(struct sss_tree *t, const struct pin_env *env, enum sss_tree_kind kind)
{
	for (size_t i = 0; i < t->n && !sss_tree_decided(t); i++) {
		unsigned char plain[SSS_TREE_PLAIN_MAX];
		char what[WHAT_MAX];
		long n;

		if (t->nodes[i].kind != kind || !sss_tree_wanted(t, i))
			continue;
		sss_tree_what(t, i, what, sizeof(what));
		n = leaf_recover(t->nodes[i].jwe, env, t->nodes[i].depth, plain, sizeof(plain), what);
		sss_tree_record(t, i, n, plain);
		explicit_bzero(plain, sizeof(plain));
	}
}

/* The Tang leaves of a tree asked in one batch: shares[j] is node at[j]. */
struct tang_batch {
	struct sss_tree *tree;
	struct tang_share *shares;
	size_t *at;
};

/* tang_shares_enough_fn: each answer recorded on its leaf as it comes;
 * enough once the tree is decided. */
static bool batch_enough(size_t j, void *ctx)
{
	struct tang_batch *b = ctx;

	sss_tree_record(b->tree, b->at[j], b->shares[j].n, b->shares[j].plain);
	return sss_tree_decided(b->tree);
}

/* Every Tang leaf of the tree still wanted, at every depth, in one batch
 * with one deadline: a server down costs nothing when the others open the
 * tree. Each that failed is said after, the abandoned ones not. */
static void ask_tang_together(struct sss_tree *t, const struct pin_env *env)
{
	struct tang_batch b = { .tree = t };
	size_t k = 0;

	b.shares = calloc(t->n, sizeof(*b.shares));
	b.at = calloc(t->n, sizeof(*b.at));
	for (size_t i = 0; b.shares && b.at && i < t->n; i++)
		if (t->nodes[i].kind == SSS_TREE_TANG && sss_tree_wanted(t, i)) {
			b.shares[k].jwe = t->nodes[i].jwe;
			b.at[k++] = i;
		}
	if (k && tang_shares_run(b.shares, k, batch_enough, &b, env->timeout_ms) < 0)
		k = 0;
	for (size_t j = 0; j < k; j++) {
		const char *url = jwe_tang_url(b.shares[j].jwe);
		char what[WHAT_MAX];

		if (b.shares[j].n >= 0 || b.shares[j].n == -ECANCELED)
			continue;
		sss_tree_what(t, b.at[j], what, sizeof(what));
		fprintf(env->report, "%s: %s%s%s%s\n", what, url ? "tang server " : "", url ? url : "",
			url ? ": " : "", b.shares[j].why);
	}
	if (b.shares)
		explicit_bzero(b.shares, t->n * sizeof(*b.shares));
	free(b.shares);
	free(b.at);
}

/* An sss binding, its whole tree at once: first the shares that need no
 * network (a TPM answers in a moment), then, if they do not open it, every
 * Tang share of every level in one batch that stops as soon as the tree is
 * decided (clevis/sss_tree.h); no share is asked twice. */
static long sss_pin_recover(const struct clevis_jwe *jwe, const struct pin_env *env,
			    unsigned char *out, size_t size, char *used, size_t used_size)
{
	struct sss_tree t;
	long n = sss_tree_build(&t, jwe, env->what, out, size);

	if (n < 0) {
		fprintf(env->report, "%s: sss: out of memory\n", env->what);
		return n;
	}
	ask_each(&t, env, SSS_TREE_LOCAL);
	if (env->exchange)
		ask_each(&t, env, SSS_TREE_TANG);
	else if (!sss_tree_decided(&t))
		ask_tang_together(&t, env);
	n = sss_tree_result(&t, env->report, used, used_size);
	sss_tree_free(&t);
	return n;
}

long pin_recover(const struct clevis_jwe *jwe, const struct pin_env *env, unsigned char *out,
		 size_t size, char *used, size_t used_size)
{
	const char *pin = jwe_pin(jwe);
	long n;

	used[0] = '\0';
	if (pin && strcmp(pin, "sss") == 0)
		return sss_pin_recover(jwe, env, out, size, used, used_size);
	n = leaf_recover(jwe, env, 0, out, size, env->what);
	if (n >= 0)
		snprintf(used, used_size, "%s", pin);
	return n;
}
