/* Unit tests: an sss binding's Tang shares asked side by side
 * (clevis/tang_shares.c through clevis/pin.c), with JWEs made by the real
 * `clevis encrypt sss` and answered by the real tangd on the loopback
 * (tests/unit/clevis_fixture.h): a server that refuses and one that never
 * answers cost nothing when another answers; with every server down the
 * report names each, and the silent one costs the deadline once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "clevis/jwe.h"
#include "clevis/pin.h"
#include "tests/unit/clevis_fixture.h"

#define SECRET "lifeboat-sss-tang-secret"

struct sss_fixture {
	char dir[64];
	char db[128];
	struct http_server silent;   /* takes the request, never answers */
	char silent_url[64];
};

static struct sss_fixture *fx;

/* `clevis encrypt sss` of SECRET, t of the tang servers at urls (without
 * http://), offline from the fixture's advertisement; parsed into jwe. */
static void encrypt_sss(int t, const char *const *urls, size_t n, struct clevis_jwe *jwe)
{
	char config[1024], path[160], text[65536];
	size_t len = (size_t)snprintf(config, sizeof(config), "{\"t\":%d,\"pins\":{\"tang\":[", t);

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(config + len, sizeof(config) - len,
					"%s{\"url\":\"http://%s\",\"adv\":\"adv.jws\"}", i ? "," : "", urls[i]);
	snprintf(config + len, sizeof(config) - len, "]}}");
	run_shell("cd %s && printf %%s " SECRET " | clevis encrypt sss '%s' -y > sss.jwe", fx->dir,
		  config);
	snprintf(path, sizeof(path), "%s/sss.jwe", fx->dir);
	len = read_whole(path, text, sizeof(text));
	assert_int_equal(jwe_parse_compact(text, len, jwe), 0);
}

/* Recover jwe with a 5 s deadline per server; the report into report. */
static long recover(const struct clevis_jwe *jwe, char *report, size_t size, uint64_t *took)
{
	FILE *f = fmemopen(report, size, "w");
	struct pin_env env = { .what = "clevis token 0 on /dev/vda", .report = f, .timeout_ms = 5000 };
	unsigned char out[256];
	char used[160];
	uint64_t start = clock_now_ms();
	long n = pin_recover(jwe, &env, out, sizeof(out), used, sizeof(used));

	*took = clock_now_ms() - start;
	fclose(f);
	if (n >= 0) {
		assert_int_equal(n, strlen(SECRET));
		assert_memory_equal(out, SECRET, strlen(SECRET));
	}
	return n;
}

static void closed_url(char *url, size_t size)
{
	snprintf(url, size, "127.0.0.1:%d", http_server_closed_port());
}

/* t=1 of {refusing, silent, live}: opened at once by the third. Asked
 * one after another, the silent server cost its 5 s first. */
static void t1_one_live(void **state)
{
	char refused[64], live[64], report[2048] = "";
	const char *urls[3] = { refused, fx->silent_url, live };
	pid_t pid = tangd_once(fx->db, live, sizeof(live));
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	closed_url(refused, sizeof(refused));
	encrypt_sss(1, urls, 3, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), strlen(SECRET));
	tangd_end(pid);
	assert_true(took < 2000);
	assert_non_null(strstr(report, "clevis token 0 on /dev/vda: sss share 1 (tang): tang server http://"));
	assert_non_null(strstr(report, ": connection refused (nothing listens on its port)\n"));
	/* The silent one was not waited for: nothing to say of it. */
	assert_null(strstr(report, "sss share 2"));
	jwe_free(&jwe);
}

/* t=2 of {refusing, live, live}: both live ones answer together. */
static void t2_one_down(void **state)
{
	char refused[64], live1[64], live2[64], report[2048] = "";
	const char *urls[3] = { refused, live1, live2 };
	pid_t p1 = tangd_once(fx->db, live1, sizeof(live1)), p2 = tangd_once(fx->db, live2, sizeof(live2));
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	closed_url(refused, sizeof(refused));
	encrypt_sss(2, urls, 3, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), strlen(SECRET));
	tangd_end(p1);
	tangd_end(p2);
	assert_true(took < 2000);
	jwe_free(&jwe);
}

/* Every server down: each is named, and the silent one costs the deadline
 * once, not once per server. */
static void all_down(void **state)
{
	char refused1[64], refused2[64], report[2048] = "";
	const char *urls[3] = { refused1, fx->silent_url, refused2 };
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	closed_url(refused1, sizeof(refused1));
	closed_url(refused2, sizeof(refused2));
	encrypt_sss(1, urls, 3, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), -ENOKEY);
	assert_true(took >= 4500 && took < 7000);
	assert_non_null(strstr(report, "sss share 1 (tang): tang server"));
	assert_non_null(strstr(report, "sss share 2 (tang): tang server http://127.0.0.1"));
	assert_non_null(strstr(report, ": no answer within 5 s\n"));
	assert_non_null(strstr(report, "sss share 3 (tang): tang server"));
	assert_non_null(strstr(report, "sss: 0 of its 3 shares recovered, 1 needed"));
	jwe_free(&jwe);
}

static int sss_setup(void **state)
{
	fx = calloc(1, sizeof(*fx));
	assert_non_null(fx);
	strcpy(fx->dir, "/tmp/lifeboat-sss-tang-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->db, sizeof(fx->db), "%s/db", fx->dir);
	tang_keys(fx->dir, fx->db);
	assert_int_equal(http_server_start(&fx->silent), 0);
	http_server_set(&fx->silent, NULL, 0, 0, true);
	snprintf(fx->silent_url, sizeof(fx->silent_url), "127.0.0.1:%d", fx->silent.port);
	*state = fx;
	return 0;
}

static int sss_teardown(void **state)
{
	(void)state;
	http_server_stop(&fx->silent);
	run_shell("rm -rf %s", fx->dir);
	free(fx);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t1_one_live),
		cmocka_unit_test(t2_one_down),
		cmocka_unit_test(all_down),
	};

	return cmocka_run_group_tests(tests, sss_setup, sss_teardown);
}
