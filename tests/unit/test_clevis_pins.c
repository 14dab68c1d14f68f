/* Unit tests: the clevis pins beyond tang (clevis/sss.c, clevis/tpm2pin.c,
 * clevis/pin.c) on JWEs made by the real `clevis encrypt` at test time:
 * tpm2 bindings sealed by clevis with tpm2-tools into a software TPM
 * (swtpm), unsealed here from the same TPM; sss bindings of tang (the real
 * tangd answering over a socket pair), tpm2 and null shares, with the
 * threshold met and not. swtpm listens on the loopback of a network
 * namespace this test makes for itself (it runs as root, as `make test`
 * does), never on the host's network. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tss2/tss2_tcti_swtpm.h>
#include <unistd.h>

#include "clevis/jwe.h"
#include "clevis/pin.h"
#include "clevis/sss.h"
#include "clevis/tpm2pin.h"
#include "common/base64.h"
#include "tests/unit/clevis_fixture.h"

#define SECRET "lifeboat-pin-secret"
#define SWTPM_PORT "2321"
#define TCTI_CONF "host=127.0.0.1,port=" SWTPM_PORT
#define TANG_URL "http://198.51.100.1:7500"

struct pins_fixture {
	char dir[64];
	char db[128];
	pid_t swtpm;
};

static struct pins_fixture *fx;

/* The JWE clevis wrote into dir/NAME. */
static void jwe_load(const char *name, struct clevis_jwe *jwe)
{
	char path[160], text[65536];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", fx->dir, name);
	len = read_whole(path, text, sizeof(text));
	assert_int_equal(jwe_parse_compact(text, len, jwe), 0);
}

/* `clevis encrypt PIN CONFIG` of SECRET into dir/NAME, against the swtpm. */
static void encrypt(const char *name, const char *pin, const char *config)
{
	run_shell("cd %s && printf %%s " SECRET " | TPM2TOOLS_TCTI=swtpm:" TCTI_CONF
		  " clevis encrypt %s '%s' -y > %s 2>%s.err", fx->dir, pin, config, name, name);
}

static void tpm_shell(const char *cmd)
{
	run_shell("TPM2TOOLS_TCTI=swtpm:" TCTI_CONF " %s", cmd);
}

/* tpm2pin_tcti_fn: the test's swtpm over TCP on the namespace's loopback. */
static int tcti_swtpm(TSS2_TCTI_CONTEXT **tcti, void *ctx)
{
	size_t size = 0;

	(void)ctx;
	if (Tss2_Tcti_Swtpm_Init(NULL, &size, TCTI_CONF) != TSS2_RC_SUCCESS)
		return -EINVAL;
	*tcti = calloc(1, size);
	if (!*tcti || Tss2_Tcti_Swtpm_Init(*tcti, &size, TCTI_CONF) != TSS2_RC_SUCCESS) {
		free(*tcti);
		return -ENODEV;
	}
	return 0;
}

static int tcti_none(TSS2_TCTI_CONTEXT **tcti, void *ctx)
{
	(void)tcti;
	(void)ctx;
	return -ENOENT;
}

/* An exchanger for a Tang server that refuses, counting the attempts. */
static int exchange_refused(const char *kid, const char *request, char *reply, size_t size,
			    void *ctx)
{
	(void)kid;
	(void)request;
	(void)reply;
	(void)size;
	(*(int *)ctx)++;
	return -ECONNREFUSED;
}

static void swtpm_start(void)
{
	char state[128];

	snprintf(state, sizeof(state), "%s/tpmstate", fx->dir);
	run_shell("mkdir %s && swtpm_setup --tpm2 --tpmstate %s --createek >%s/setup.log 2>&1",
		  state, state, fx->dir);
	fx->swtpm = fork();
	assert_true(fx->swtpm >= 0);
	if (fx->swtpm == 0) {
		char dir_arg[160];

		snprintf(dir_arg, sizeof(dir_arg), "dir=%s", state);
		execlp("swtpm", "swtpm", "socket", "--tpm2", "--tpmstate", dir_arg, "--server",
		       "type=tcp,port=" SWTPM_PORT ",bindaddr=127.0.0.1", "--ctrl",
		       "type=tcp,port=2322,bindaddr=127.0.0.1", "--flags",
		       "not-need-init,startup-clear", (char *)NULL);
		_exit(127);
	}
	/* Ready when it answers a command. */
	for (int i = 0; i < 100; i++) {
		if (system("TPM2TOOLS_TCTI=swtpm:" TCTI_CONF " tpm2_getrandom 4 >/dev/null 2>&1") == 0)
			return;
		usleep(100 * 1000);
	}
	fail_msg("swtpm did not start (swtpm and tpm2-tools must be installed: make deps)");
}

static int pins_setup(void **state)
{
	fx = calloc(1, sizeof(*fx));
	assert_non_null(fx);
	if (unshare(CLONE_NEWNET) < 0)
		fail_msg("unshare(CLONE_NEWNET): %s (the test runs as root, as make test does)",
			 strerror(errno));
	run_shell("ip link set lo up");
	strcpy(fx->dir, "/tmp/lifeboat-pins-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->db, sizeof(fx->db), "%s/db", fx->dir);
	tang_keys(fx->dir, fx->db);
	swtpm_start();
	encrypt("tpm", "tpm2", "{}");
	encrypt("tpm-pcr", "tpm2", "{\"pcr_bank\":\"sha256\",\"pcr_ids\":\"16,23\"}");
	encrypt("tpm-rsa", "tpm2", "{\"key\":\"rsa\",\"hash\":\"sha256\"}");
	encrypt("sss-t1", "sss", "{\"t\":1,\"pins\":{\"tang\":[{\"url\":\"" TANG_URL "\",\"adv\":\"adv.jws\"}],"
		"\"tpm2\":{}}}");
	encrypt("sss-t2", "sss", "{\"t\":2,\"pins\":{\"tang\":[{\"url\":\"" TANG_URL "\",\"adv\":\"adv.jws\"}],"
		"\"tpm2\":{}}}");
	encrypt("sss-nested", "sss", "{\"t\":2,\"pins\":{\"null\":{},\"sss\":{\"t\":1,\"pins\":"
		"{\"null\":[{},{}]}}}}");
	*state = fx;
	return 0;
}

static int pins_teardown(void **state)
{
	(void)state;
	if (fx->swtpm > 0) {
		kill(fx->swtpm, SIGTERM);
		waitpid(fx->swtpm, NULL, 0);
	}
	run_shell("rm -rf %s", fx->dir);
	free(fx);
	return 0;
}

/* Recover dir/NAME with env, expecting SECRET and what opened it. */
static void recovers(const char *name, const struct pin_env *env, const char *used_expected)
{
	struct clevis_jwe jwe;
	unsigned char out[256];
	char used[160];
	long n;

	jwe_load(name, &jwe);
	n = pin_recover(&jwe, env, out, sizeof(out), used, sizeof(used));
	assert_int_equal(n, strlen(SECRET));
	assert_memory_equal(out, SECRET, strlen(SECRET));
	assert_string_equal(used, used_expected);
	jwe_free(&jwe);
}

static void tpm2_unseals(void **state)
{
	struct pin_env env = { .what = "t", .report = stderr, .open_tcti = tcti_swtpm };
	struct tpm2pin_binding b;
	struct clevis_jwe jwe;
	char why[256];

	(void)state;
	recovers("tpm", &env, "tpm2");
	recovers("tpm-rsa", &env, "tpm2");
	recovers("tpm-pcr", &env, "tpm2");
	jwe_load("tpm-pcr", &jwe);
	assert_int_equal(tpm2pin_parse(&jwe, &b, why, sizeof(why)), 0);
	assert_int_equal(b.hash, TPM2_ALG_SHA256);
	assert_int_equal(b.key, TPM2_ALG_ECC);
	assert_int_equal(b.pcr_bank, TPM2_ALG_SHA256);
	assert_int_equal(b.pcrs, (1u << 16) | (1u << 23));
	jwe_free(&jwe);
}

/* PCR 23 extended: the TPM refuses the policy, said as changed PCRs;
 * reset, it unseals again. */
static void tpm2_pcr_changed(void **state)
{
	struct clevis_jwe jwe;
	unsigned char out[256];
	char why[256];

	(void)state;
	jwe_load("tpm-pcr", &jwe);
	tpm_shell("tpm2_pcrextend 23:sha256=0000000000000000000000000000000000000000000000000000000000000001");
	assert_int_equal(tpm2pin_recover(&jwe, tcti_swtpm, NULL, out, sizeof(out), why, sizeof(why)),
			 -EACCES);
	assert_non_null(strstr(why, "the PCRs the binding is bound to have changed"));
	tpm_shell("tpm2_pcrreset 23");
	assert_int_equal(tpm2pin_recover(&jwe, tcti_swtpm, NULL, out, sizeof(out), why, sizeof(why)),
			 (long)strlen(SECRET));
	/* No TPM at all. */
	assert_int_equal(tpm2pin_recover(&jwe, tcti_none, NULL, out, sizeof(out), why, sizeof(why)),
			 -ENODEV);
	assert_non_null(strstr(why, "no TPM2 device"));
	jwe_free(&jwe);
}

/* A JWE with the given protected header and dummy parts. */
static void jwe_with_header(const char *header, struct clevis_jwe *jwe)
{
	char b64[1024], compact[1200];
	long n = base64_encode(BASE64_URL, (const unsigned char *)header, strlen(header), b64, sizeof(b64));

	assert_true(n > 0);
	snprintf(compact, sizeof(compact), "%s..QUFBQUFBQUFBQUFB.QUFB.QUFBQUFBQUFBQUFBQUFBQQ", b64);
	assert_int_equal(jwe_parse_compact(compact, strlen(compact), jwe), 0);
}

/* Headers the tpm2 pin cannot use, each said. */
static void tpm2_header_malformed(void **state)
{
	static const char *const bad[] = {
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"tpm2\",\"tpm2\":{\"hash\":\"md5\",\"key\":\"ecc\"}}}",
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"tpm2\",\"tpm2\":{\"hash\":\"sha256\",\"key\":\"ecc\",\"jwk_pub\":\"AAAA\",\"jwk_priv\":\"AAAA\"}}}",
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"tpm2\",\"tpm2\":{\"hash\":\"sha256\",\"key\":\"ecc\",\"pcr_bank\":\"sha256\",\"pcr_ids\":\"7,24\"}}}",
		"{\"alg\":\"ECDH-ES\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"tpm2\",\"tpm2\":{}}}",
	};
	struct tpm2pin_binding b;
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct clevis_jwe jwe;

		jwe_with_header(bad[i], &jwe);
		why[0] = '\0';
		assert_int_equal(tpm2pin_parse(&jwe, &b, why, sizeof(why)), -EINVAL);
		assert_true(why[0] != '\0');
		jwe_free(&jwe);
	}
}

/* t=1 of {tang, tpm2}: the TPM's share is asked first and suffices; the
 * Tang server (down) is never contacted. */
static void sss_t1_tpm_first(void **state)
{
	int tang_calls = 0;
	struct pin_env env = { .what = "t", .report = stderr, .open_tcti = tcti_swtpm,
			       .exchange = exchange_refused, .exchange_ctx = &tang_calls };

	(void)state;
	recovers("sss-t1", &env, "sss (tpm2)");
	assert_int_equal(tang_calls, 0);
	/* Without a TPM the tang share is asked: tangd answers. */
	{
		struct tangd_link t = { .db = fx->db };
		struct pin_env tang = { .what = "t", .report = stderr, .open_tcti = tcti_none,
					.exchange = exchange_tangd, .exchange_ctx = &t };

		recovers("sss-t1", &tang, "sss (tang)");
		assert_int_equal(t.status, 200);
	}
}

/* t=2 of {tang, tpm2}: both shares needed; with the server down the
 * threshold is not met, which is said with the server's failure. */
static void sss_t2_needs_both(void **state)
{
	struct tangd_link t = { .db = fx->db };
	struct pin_env env = { .what = "t", .report = stderr, .open_tcti = tcti_swtpm,
			       .exchange = exchange_tangd, .exchange_ctx = &t };
	int tang_calls = 0;
	char report[2048] = "";
	FILE *f = fmemopen(report, sizeof(report), "w");
	struct pin_env down = { .what = "clevis token 0 on /dev/vda", .report = f,
				.open_tcti = tcti_swtpm, .exchange = exchange_refused,
				.exchange_ctx = &tang_calls };
	struct clevis_jwe jwe;
	unsigned char out[256];
	char used[160];

	(void)state;
	recovers("sss-t2", &env, "sss (tpm2, tang)");
	jwe_load("sss-t2", &jwe);
	assert_int_equal(pin_recover(&jwe, &down, out, sizeof(out), used, sizeof(used)), -ENOKEY);
	fclose(f);
	assert_int_equal(tang_calls, 1);
	assert_non_null(strstr(report, "clevis token 0 on /dev/vda: sss share 1 (tang): tang server " TANG_URL));
	assert_non_null(strstr(report, "clevis token 0 on /dev/vda: sss: 1 of its 2 shares recovered, 2 needed"));
	jwe_free(&jwe);
}

static void sss_nested_null(void **state)
{
	struct pin_env env = { .what = "t", .report = stderr };

	(void)state;
	recovers("sss-nested", &env, "sss (null, sss (null))");
}

/* Lagrange at 0 by hand: f(x) = 3 + 2x over GF(7); f(1) = 5, f(2) = 0. */
static void sss_combine_small(void **state)
{
	const unsigned char p[] = { 7 };
	const unsigned char two[] = { 1, 5, 2, 0 }, same_x[] = { 1, 5, 1, 5 }, big[] = { 1, 9, 2, 0 };
	unsigned char secret[1];

	(void)state;
	assert_int_equal(sss_combine(p, 1, two, 2, secret), 0);
	assert_int_equal(secret[0], 3);
	/* One point of a constant polynomial is the secret. */
	assert_int_equal(sss_combine(p, 1, two, 1, secret), 0);
	assert_int_equal(secret[0], 5);
	assert_int_equal(sss_combine(p, 1, same_x, 2, secret), -EINVAL);
	assert_int_equal(sss_combine(p, 1, big, 2, secret), -EINVAL);
}

/* The threshold and shares as the header gives them. */
static void sss_header_malformed(void **state)
{
	static const char *const bad[] = {
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"sss\",\"sss\":{\"p\":\"Bw\",\"t\":2,\"jwe\":[\"a.b.c.d.e\"]}}}",
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"sss\",\"sss\":{\"p\":\"Bw\",\"t\":0,\"jwe\":[]}}}",
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"sss\",\"sss\":{\"t\":1,\"jwe\":[\"x\"]}}}",
		"{\"alg\":\"dir\",\"enc\":\"A256GCM\",\"clevis\":{\"pin\":\"sss\",\"sss\":{\"p\":\"Bw\",\"t\":1,\"jwe\":[\"x\"]}}}",
	};
	const long expected[] = { -EINVAL, -EINVAL, -EINVAL, -ENOKEY };
	struct pin_env env = { .what = "t", .report = stderr };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char used[64];
		unsigned char out[64];
		struct clevis_jwe jwe;

		jwe_with_header(bad[i], &jwe);
		assert_int_equal(pin_recover(&jwe, &env, out, sizeof(out), used, sizeof(used)),
				 expected[i]);
		jwe_free(&jwe);
	}
}

/* The generator's view: the first tang server of an sss binding. */
static void sss_first_tang_url(void **state)
{
	struct clevis_jwe jwe;
	char url[256];

	(void)state;
	jwe_load("sss-t1", &jwe);
	assert_string_equal(jwe_first_tang_url(&jwe, url, sizeof(url)), TANG_URL);
	jwe_free(&jwe);
	jwe_load("tpm", &jwe);
	assert_null(jwe_first_tang_url(&jwe, url, sizeof(url)));
	jwe_free(&jwe);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tpm2_unseals),
		cmocka_unit_test(tpm2_pcr_changed),
		cmocka_unit_test(tpm2_header_malformed),
		cmocka_unit_test(sss_t1_tpm_first),
		cmocka_unit_test(sss_t2_needs_both),
		cmocka_unit_test(sss_nested_null),
		cmocka_unit_test(sss_combine_small),
		cmocka_unit_test(sss_header_malformed),
		cmocka_unit_test(sss_first_tang_url),
	};

	return cmocka_run_group_tests(tests, pins_setup, pins_teardown);
}
