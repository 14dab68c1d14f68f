/* Unit tests: an sss binding's Tang shares asked side by side, at every
 * level of a nested binding together (clevis/sss_tree.c and
 * clevis/tang_shares.c through clevis/pin.c), with JWEs made by the real
 * `clevis encrypt sss` and answered by the real tangd on the loopback
 * (tests/unit/clevis_fixture.h): a server that refuses and one that never
 * answers cost nothing when another answers, whatever their depth; with
 * every server down the report names each once, and the silent ones cost
 * the deadline once in all. */
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
	struct http_server silent, silent2;   /* take the request, never answer */
	char silent_url[64], silent2_url[64];
};

static struct sss_fixture *fx;

/* The tang pins of the servers at urls (without http://), as an sss
 * config lists them: [{"url":...,"adv":...},...], the fixture's
 * advertisement given so that the encryption is offline. */
static const char *tang_pins(const char *const *urls, size_t n, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "[");

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s{\"url\":\"http://%s\",\"adv\":\"adv.jws\"}",
					i ? "," : "", urls[i]);
	snprintf(buf + len, size - len, "]");
	return buf;
}

/* `clevis encrypt sss CONFIG` of SECRET, parsed into jwe. */
static void encrypt_config(const char *config, struct clevis_jwe *jwe)
{
	char path[160], text[65536];
	size_t len;

	run_shell("cd %s && printf %%s " SECRET " | clevis encrypt sss '%s' -y > sss.jwe", fx->dir,
		  config);
	snprintf(path, sizeof(path), "%s/sss.jwe", fx->dir);
	len = read_whole(path, text, sizeof(text));
	assert_int_equal(jwe_parse_compact(text, len, jwe), 0);
}

/* sss, t of the tang servers at urls. */
static void encrypt_sss(int t, const char *const *urls, size_t n, struct clevis_jwe *jwe)
{
	char config[1024], pins[900];

	snprintf(config, sizeof(config), "{\"t\":%d,\"pins\":{\"tang\":%s}}", t,
		 tang_pins(urls, n, pins, sizeof(pins)));
	encrypt_config(config, jwe);
}

/* sss, t of {the tang servers at urls, sss nested_t of the tang servers at
 * nested}: clevis lists the tang shares first, the nested sss last. */
static void encrypt_nested(int t, const char *const *urls, size_t n, int nested_t,
			   const char *const *nested, size_t nested_n, struct clevis_jwe *jwe)
{
	char config[2048], pins[900], inner[900];

	snprintf(config, sizeof(config),
		 "{\"t\":%d,\"pins\":{\"tang\":%s,\"sss\":{\"t\":%d,\"pins\":{\"tang\":%s}}}}", t,
		 tang_pins(urls, n, pins, sizeof(pins)), nested_t,
		 tang_pins(nested, nested_n, inner, sizeof(inner)));
	encrypt_config(config, jwe);
}

/* How many times needle is in text. */
static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
		n++;
	return n;
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

/* t=1 of {silent, sss t=1 of {live}}: the nested server is asked with the
 * top one, not after its deadline. Level by level, the silent server cost
 * its 5 s first. */
static void nested_silent_top(void **state)
{
	char live[64], report[2048] = "";
	const char *top[1] = { fx->silent_url }, *nested[1] = { live };
	pid_t pid = tangd_once(fx->db, live, sizeof(live));
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	encrypt_nested(1, top, 1, 1, nested, 1, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), strlen(SECRET));
	tangd_end(pid);
	printf("nested t=1 of {silent, sss t=1 of {live}}: opened in %llu ms\n", (unsigned long long)took);
	assert_true(took < 2000);
	/* The silent one was not waited for: nothing to say. */
	assert_string_equal(report, "");
	jwe_free(&jwe);
}

/* t=2 of {live, sss t=1 of {silent, live2}}: the top share and the nested
 * one's live server together. */
static void nested_t2_silent_below(void **state)
{
	char live1[64], live2[64], report[2048] = "";
	const char *top[1] = { live1 }, *nested[2] = { fx->silent_url, live2 };
	pid_t p1 = tangd_once(fx->db, live1, sizeof(live1)), p2 = tangd_once(fx->db, live2, sizeof(live2));
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	encrypt_nested(2, top, 1, 1, nested, 2, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), strlen(SECRET));
	tangd_end(p1);
	tangd_end(p2);
	printf("nested t=2 of {live, sss t=1 of {silent, live2}}: opened in %llu ms\n",
	       (unsigned long long)took);
	assert_true(took < 2000);
	assert_string_equal(report, "");
	jwe_free(&jwe);
}

/* t=2 of {silent, live, sss t=1 of {live2}}: the two it needs are at two
 * levels; level by level, the top one waited for the silent server. */
static void nested_t2_silent_top(void **state)
{
	char live1[64], live2[64], report[2048] = "";
	const char *top[2] = { fx->silent_url, live1 }, *nested[1] = { live2 };
	pid_t p1 = tangd_once(fx->db, live1, sizeof(live1)), p2 = tangd_once(fx->db, live2, sizeof(live2));
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	encrypt_nested(2, top, 2, 1, nested, 1, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), strlen(SECRET));
	tangd_end(p1);
	tangd_end(p2);
	printf("nested t=2 of {silent, live, sss t=1 of {live2}}: opened in %llu ms\n",
	       (unsigned long long)took);
	assert_true(took < 2000);
	assert_string_equal(report, "");
	jwe_free(&jwe);
}

/* t=1 of {silent, sss t=1 of {refused, silent2}}, every server down:
 * each failure said once, the nested sss's count and the top's after; the
 * two silent ones cost one deadline together, not one each. */
static void nested_all_down(void **state)
{
	char refused[64], report[4096] = "", line[256];
	const char *top[1] = { fx->silent_url }, *nested[2] = { refused, fx->silent2_url };
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	closed_url(refused, sizeof(refused));
	encrypt_nested(1, top, 1, 1, nested, 2, &jwe);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), -ENOKEY);
	printf("nested, every server down: failed in %llu ms\n", (unsigned long long)took);
	assert_true(took >= 4500 && took < 7000);
	snprintf(line, sizeof(line), "/dev/vda: sss share 1 (tang): tang server http://%s: no answer within 5 s\n",
		 fx->silent_url);
	assert_int_equal(count(report, line), 1);
	snprintf(line, sizeof(line),
		 "/dev/vda: sss share 2 (sss): sss share 1 (tang): tang server http://%s: connection refused", refused);
	assert_int_equal(count(report, line), 1);
	snprintf(line, sizeof(line),
		 "/dev/vda: sss share 2 (sss): sss share 2 (tang): tang server http://%s: no answer within 5 s\n",
		 fx->silent2_url);
	assert_int_equal(count(report, line), 1);
	assert_int_equal(count(report, "/dev/vda: sss share 2 (sss): sss: 0 of its 2 shares recovered, 1 needed\n"), 1);
	assert_int_equal(count(report, "/dev/vda: sss: 0 of its 2 shares recovered, 1 needed\n"), 1);
	/* Five lines: nothing else, nothing twice. */
	assert_int_equal(count(report, "\n"), 5);
	jwe_free(&jwe);
}

/* t=1 of {silent, silent2, sss t=1 of {refused, live}}: four servers,
 * the protected header as `clevis encrypt sss` writes it is 8.8 KB of
 * base64, past a binary part's bound (JWE_PART_MAX): still parsed, and
 * opened by the live one without waiting for the silent two. */
static void nested_four_servers(void **state)
{
	char live[64], refused[64], report[2048] = "";
	const char *top[2] = { fx->silent_url, fx->silent2_url }, *nested[2] = { refused, live };
	pid_t pid = tangd_once(fx->db, live, sizeof(live));
	struct clevis_jwe jwe;
	uint64_t took;

	(void)state;
	closed_url(refused, sizeof(refused));
	encrypt_nested(1, top, 2, 1, nested, 2, &jwe);
	assert_true(strlen(jwe.protected_b64) > 2 * JWE_PART_MAX);
	assert_int_equal(recover(&jwe, report, sizeof(report), &took), strlen(SECRET));
	tangd_end(pid);
	assert_true(took < 2000);
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
	assert_int_equal(http_server_start(&fx->silent2), 0);
	http_server_set(&fx->silent2, NULL, 0, 0, true);
	snprintf(fx->silent2_url, sizeof(fx->silent2_url), "127.0.0.1:%d", fx->silent2.port);
	*state = fx;
	return 0;
}

static int sss_teardown(void **state)
{
	(void)state;
	http_server_stop(&fx->silent);
	http_server_stop(&fx->silent2);
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
		cmocka_unit_test(nested_silent_top),
		cmocka_unit_test(nested_t2_silent_below),
		cmocka_unit_test(nested_t2_silent_top),
		cmocka_unit_test(nested_all_down),
		cmocka_unit_test(nested_four_servers),
	};

	return cmocka_run_group_tests(tests, sss_setup, sss_teardown);
}
