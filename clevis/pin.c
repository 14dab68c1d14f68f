/* pin: the dispatch on a clevis JWE's pin. */
#include "clevis/pin.h"

#include <errno.h>
#include <json-c/json.h>
#include <string.h>

#include "clevis/dirkey.h"
#include "clevis/sss.h"
#include "clevis/tang.h"

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

/* The sss pin's children are recovered through recover_at, one level down. */
struct sss_walk {
	const struct pin_env *env;
	int depth;
	const char *what;
	char used[128];
};

static long sss_child(const struct clevis_jwe *child, size_t index, unsigned char *out,
		      size_t size, void *ctx)
{
	struct sss_walk *w = ctx;
	char what[300], used[128];
	const char *pin = jwe_pin(child);
	long n;

	snprintf(what, sizeof(what), "%s: sss share %zu (%s)", w->what, index + 1,
		 pin && strlen(pin) < 16 ? pin : "?");
	n = recover_at(child, w->env, w->depth + 1, out, size, what, used, sizeof(used));
	if (n >= 0) {
		size_t len = strlen(w->used);

		snprintf(w->used + len, sizeof(w->used) - len, "%s%s", len ? ", " : "", used);
	}
	return n;
}

/* Local pins answer at once; a Tang server that is down costs its timeout. */
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
	struct sss_tally tally;
	long n = sss_recover(jwe, sss_child, sss_local_first, &w, out, size, &tally);

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
