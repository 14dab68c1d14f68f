/* pin: the dispatch on a clevis JWE's pin. */
#include "clevis/pin.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "clevis/dirkey.h"
#include "clevis/sss.h"
#include "clevis/tang.h"
#include "clevis/tang_shares.h"

#define WHY_MAX 512

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

static long recover_at(const struct clevis_jwe *jwe, const struct pin_env *env, int depth,
		       unsigned char *out, size_t size, const char *what, char *used,
		       size_t used_size);

/* The sss pin's children are recovered through recover_at, one level
 * down; its Tang children after the local ones all at once
 * (clevis/tang_shares.c), their answers kept here by child index until the
 * walk asks for them. */
struct sss_walk {
	const struct pin_env *env;
	int depth;
	const char *what;
	char used[128];
	struct tang_share *fetched;  /* SSS_CHILDREN_MAX of them, or NULL */
	bool have[SSS_CHILDREN_MAX];
};

static bool is_tang(const struct clevis_jwe *jwe)
{
	const char *pin = jwe_pin(jwe);

	return pin && strcmp(pin, "tang") == 0;
}

/* sss_prefetch_fn: the Tang children not asked yet, their servers at once. */
static void sss_tang_together(const struct clevis_jwe *const *children, const size_t *index,
			      size_t n, size_t needed, void *ctx)
{
	struct sss_walk *w = ctx;
	struct tang_share shares[SSS_CHILDREN_MAX];
	size_t at[SSS_CHILDREN_MAX], k = 0;

	/* A test's own exchanger is asked one share at a time. */
	if (w->env->exchange)
		return;
	for (size_t i = 0; i < n; i++)
		if (is_tang(children[i])) {
			shares[k].jwe = children[i];
			at[k++] = index[i];
		}
	if (k == 0 || !(w->fetched = calloc(SSS_CHILDREN_MAX, sizeof(*w->fetched))))
		return;
	tang_shares_recover(shares, k, needed, w->env->timeout_ms);
	for (size_t j = 0; j < k; j++) {
		w->fetched[at[j]] = shares[j];
		w->fetched[at[j]].jwe = NULL;   /* the walk parses the child again */
		w->have[at[j]] = true;
	}
	explicit_bzero(shares, sizeof(shares));
}

/* A Tang child's answer as sss_tang_together kept it. */
static long sss_fetched(struct sss_walk *w, const struct clevis_jwe *child, size_t index,
			unsigned char *out, size_t size, const char *what)
{
	const struct tang_share *s = &w->fetched[index];

	/* Not waited for: enough others answered; nothing failed. */
	if (s->n == -ECANCELED)
		return s->n;
	if (s->n < 0) {
		fprintf(w->env->report, "%s: tang server %s: %s\n", what, jwe_tang_url(child), s->why);
		return s->n;
	}
	if ((size_t)s->n > size)
		return -ENOSPC;
	memcpy(out, s->plain, (size_t)s->n);
	return s->n;
}

static long sss_child(const struct clevis_jwe *child, size_t index, unsigned char *out,
		      size_t size, void *ctx)
{
	struct sss_walk *w = ctx;
	char what[300], used[128] = "tang";
	const char *pin = jwe_pin(child);
	long n;

	snprintf(what, sizeof(what), "%s: sss share %zu (%s)", w->what, index + 1,
		 pin && strlen(pin) < 16 ? pin : "?");
	if (index < SSS_CHILDREN_MAX && w->have[index] && is_tang(child))
		n = sss_fetched(w, child, index, out, size, what);
	else
		n = recover_at(child, w->env, w->depth + 1, out, size, what, used, sizeof(used));
	if (n >= 0) {
		size_t len = strlen(w->used);

		snprintf(w->used + len, sizeof(w->used) - len, "%s%s", len ? ", " : "", used);
	}
	return n;
}

/* Local pins answer at once: asked first, a Tang server is asked only if
 * they are not enough. */
static bool sss_local_first(const struct clevis_jwe *child, void *ctx)
{
	const char *pin = jwe_pin(child);

	(void)ctx;
	return pin && (strcmp(pin, "tpm2") == 0 || strcmp(pin, "null") == 0);
}

static long sss_pin_recover(const struct clevis_jwe *jwe, const struct pin_env *env, int depth,
			    unsigned char *out, size_t size, const char *what, char *used,
			    size_t used_size)
{
	struct sss_walk w = { .env = env, .depth = depth, .what = what };
	const struct sss_asker asker = { .child = sss_child, .first = sss_local_first,
					 .prefetch = sss_tang_together, .ctx = &w };
	struct sss_tally tally;
	long n = sss_recover(jwe, &asker, out, size, &tally);

	if (w.fetched) {
		explicit_bzero(w.fetched, SSS_CHILDREN_MAX * sizeof(*w.fetched));
		free(w.fetched);
	}

	if (n == -EINVAL)
		fprintf(env->report, "%s: sss: the header is not clevis's sss (p, t, jwe)\n", what);
	else if (n == -ENOKEY)
		fprintf(env->report, "%s: sss: %zu of its %zu shares recovered, %d needed\n", what,
			tally.answered, tally.n, tally.t);
	else if (n < 0)
		fprintf(env->report, "%s: sss: the %d shares do not decrypt it\n", what, tally.t);
	else
		snprintf(used, used_size, "sss (%s)", w.used);
	return n;
}

static long recover_at(const struct clevis_jwe *jwe, const struct pin_env *env, int depth,
		       unsigned char *out, size_t size, const char *what, char *used,
		       size_t used_size)
{
	const char *pin = jwe_pin(jwe);
	long n;

	if (depth > JWE_DEPTH_MAX) {
		fprintf(env->report, "%s: sss nested more than %d deep\n", what, JWE_DEPTH_MAX);
		return -ELOOP;
	}
	if (!pin_known(pin)) {
		fprintf(env->report, "%s: the pin %.32s is not one lifeboat knows\n", what,
			pin ? pin : "(none)");
		return -EOPNOTSUPP;
	}
	if (strcmp(pin, "sss") == 0)
		return sss_pin_recover(jwe, env, depth, out, size, what, used, used_size);
	if (strcmp(pin, "tang") == 0)
		n = tang_recover(jwe, env, out, size, what);
	else if (strcmp(pin, "tpm2") == 0)
		n = tpm2_recover(jwe, env, out, size, what);
	else
		n = null_recover(jwe, env, out, size, what);
	if (n >= 0)
		snprintf(used, used_size, "%s", pin);
	return n;
}

long pin_recover(const struct clevis_jwe *jwe, const struct pin_env *env, unsigned char *out,
		 size_t size, char *used, size_t used_size)
{
	used[0] = '\0';
	return recover_at(jwe, env, 0, out, size, env->what, used, used_size);
}
