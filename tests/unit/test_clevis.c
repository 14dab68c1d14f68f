/* Unit tests: lifeboat-clevis's parts (clevis/): the HTTP
 * client's URL and response handling, and the Tang exchange end to end
 * with the real tools: tangd-keygen's keys, a JWE made by `clevis encrypt
 * tang` from tangd's advertisement (offline), answered by the real tangd
 * over a socket pair, and a LUKS2 container bound by `clevis luks bind`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clevis/http.h"
#include "clevis/jwe.h"
#include "clevis/mr.h"
#include "clevis/token.h"
#include "common/base64.h"
#include "gen/host/tanghost.h"
#include "tests/unit/clevis_fixture.h"

#define SECRET "lifeboat-tang-secret"

static void url_parse(void **state)
{
	struct http_url u;

	(void)state;
	assert_int_equal(http_url_parse("http://198.51.100.1", &u), 0);
	assert_string_equal(u.host, "198.51.100.1");
	assert_string_equal(u.port, "80");
	assert_string_equal(u.path, "");
	assert_int_equal(http_url_parse("http://tang.example:8080/tang/", &u), 0);
	assert_string_equal(u.host, "tang.example");
	assert_string_equal(u.port, "8080");
	assert_string_equal(u.path, "/tang");
	assert_int_equal(http_url_parse("[2001:db8::1]:7500", &u), 0);
	assert_string_equal(u.host, "2001:db8::1");
	assert_string_equal(u.port, "7500");
	assert_int_equal(http_url_parse("https://tang.example", &u), -EINVAL);
	assert_int_equal(http_url_parse("http://", &u), -EINVAL);
	assert_int_equal(http_url_parse("http://host:", &u), -EINVAL);
	assert_int_equal(http_url_parse("http://host:80x", &u), -EINVAL);
	assert_int_equal(http_url_parse("http://[2001:db8::1", &u), -EINVAL);
	assert_int_equal(http_url_parse("http://host/a b", &u), -EINVAL);
}

static void responses(void **state)
{
	const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: application/jwk+json\r\n"
			  "content-length: 4\r\n\r\n{\"a\"";
	const char *body;
	size_t len;

	(void)state;
	assert_int_equal(http_response_body(ok, strlen(ok), &body, &len), 200);
	assert_int_equal(len, 4);
	assert_true(http_response_complete(ok, strlen(ok)));
	/* A body still short of Content-Length, headers not yet ended, none. */
	assert_false(http_response_complete(ok, strlen(ok) - 1));
	assert_false(http_response_complete(ok, 20));
	assert_false(http_response_complete("HTTP/1.1 200 OK\r\n\r\nabc", 22));
	assert_int_equal(http_response_body("HTTP/1.0 404 Not Found\r\n\r\n", 26, &body, &len), 404);
	assert_int_equal(http_response_body("SSH-2.0-OpenSSH\r\n\r\n", 19, &body, &len), -EBADMSG);
	assert_int_equal(http_response_body("HTTP/1.1 200 OK\r\n", 17, &body, &len), -EBADMSG);
}

/* A server that takes the request and never answers: the deadline ends
 * the wait; one that closes without a word: not an HTTP response. */
static void server_silent_or_gone(void **state)
{
	struct http_url u;
	char out[64];
	int sv[2], status;

	(void)state;
	assert_int_equal(http_url_parse("http://198.51.100.1:7500", &u), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(http_post_fd(sv[0], &u, "/rec/k", "application/jwk+json", "{}", out,
				      sizeof(out), 300, &status), -ETIMEDOUT);
	close(sv[1]);
	assert_int_equal(http_post_fd(sv[0], &u, "/rec/k", "application/jwk+json", "{}", out,
				      sizeof(out), 300, &status), -EPIPE);
	close(sv[0]);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(write(sv[1], "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 45), 45);
	assert_int_equal(http_post_fd(sv[0], &u, "/rec/k", "application/jwk+json", "{}", out,
				      sizeof(out), 300, &status), -EPROTO);
	assert_int_equal(status, 404);
	close(sv[1]);
	assert_int_equal(http_post_fd(sv[0], &u, "/rec/k", "application/jwk+json", "{}", out,
				      sizeof(out), 300, &status), -EPIPE);
	close(sv[0]);
}

/* The generator reads `lifeboat-clevis --list`: the first tang binding
 * with a URL counts; other pins and "-" URLs do not. */
static void host_list_output(void **state)
{
	char url[64];

	(void)state;
	assert_true(tanghost_list_parse("0 tpm2 -\n1 tang http://198.51.100.1:7500\n", url, sizeof(url)));
	assert_string_equal(url, "http://198.51.100.1:7500");
	assert_false(tanghost_list_parse("0 tpm2 -\n1 tang -\n2 sss -\n", url, sizeof(url)));
	assert_false(tanghost_list_parse("", url, sizeof(url)));
	/* An sss binding's first tang share counts; tpm2 alone wants no network. */
	assert_true(tanghost_list_parse("0 sss http://tang.example:7500\n", url, sizeof(url)));
	assert_string_equal(url, "http://tang.example:7500");
	assert_false(tanghost_list_parse("0 sss -\n1 tpm2 -\n", url, sizeof(url)));
	assert_true(tanghost_list_any_pin("0 sss -\n"));
	assert_true(tanghost_list_any_pin("garbage\n3 tpm2 -\n"));
	assert_false(tanghost_list_any_pin("0 - -\n1 yubikey -\n"));
	assert_false(tanghost_list_any_pin(""));
	/* libtss2 for tpm2 and sss bindings (sss may have a tpm2 share). */
	assert_true(tanghost_list_may_use_tpm("0 tang http://x\n1 tpm2 -\n"));
	assert_true(tanghost_list_may_use_tpm("0 sss http://x\n"));
	assert_false(tanghost_list_may_use_tpm("0 tang http://x\n"));
	assert_false(tanghost_list_parse("garbage\n0 tang\n", url, sizeof(url)));
	/* A URL longer than url is cut, still a binding. */
	assert_true(tanghost_list_parse("3 tang http://tang.example.invalid:7500/a/very/long/path/indeed/x",
					url, 16));
	assert_int_equal(strlen(url), 15);
}

/* A scratch directory with a tang key database and its advertisement. */
struct tang_fixture {
	char dir[64];
	char db[128];
	char jwe[8192];
	size_t jwe_len;
};

static int tang_setup(void **state)
{
	struct tang_fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/lifeboat-tang-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->db, sizeof(f->db), "%s/db", f->dir);
	tang_keys(f->dir, f->db);
	run_shell("printf %%s " SECRET " | clevis encrypt tang "
		  "'{\"url\":\"http://198.51.100.1:7500\",\"adv\":\"%s/adv.jws\"}' > %s/jwe",
		  f->dir, f->dir);
	snprintf(f->jwe, sizeof(f->jwe), "%s/jwe", f->dir);
	f->jwe_len = read_whole(f->jwe, f->jwe, sizeof(f->jwe));
	*state = f;
	return 0;
}

static int tang_teardown(void **state)
{
	struct tang_fixture *f = *state;

	run_shell("rm -rf %s", f->dir);
	free(f);
	return 0;
}

static void tang_recovers_the_secret(void **state)
{
	struct tang_fixture *f = *state;
	struct tangd_link t = { .db = f->db };
	struct clevis_jwe jwe;
	unsigned char out[256];
	char why[256];
	long n;

	assert_int_equal(jwe_parse_compact(f->jwe, f->jwe_len, &jwe), 0);
	assert_string_equal(jwe_pin(&jwe), "tang");
	assert_string_equal(jwe_tang_url(&jwe), "http://198.51.100.1:7500");
	n = mr_recover(&jwe, exchange_tangd, &t, out, sizeof(out), why, sizeof(why));
	assert_int_equal(n, strlen(SECRET));
	assert_memory_equal(out, SECRET, strlen(SECRET));
	assert_int_equal(t.status, 200);
	/* A changed ciphertext byte: the tag no longer matches. */
	jwe.ciphertext[0] ^= 1;
	n = mr_recover(&jwe, exchange_tangd, &t, out, sizeof(out), why, sizeof(why));
	assert_int_equal(n, -EBADMSG);
	assert_non_null(strstr(why, "does not decrypt"));
	jwe_free(&jwe);
}

/* A server that has other keys (rotated, or another server) answers 404. */
static void tang_other_keys_refuse(void **state)
{
	struct tang_fixture *f = *state;
	char other[160];
	struct tangd_link t = { .db = other };
	struct clevis_jwe jwe;
	unsigned char out[256];
	char why[256];

	snprintf(other, sizeof(other), "%s/other", f->dir);
	run_shell("mkdir -p %s && /usr/libexec/tangd-keygen %s", other, other);
	assert_int_equal(jwe_parse_compact(f->jwe, f->jwe_len, &jwe), 0);
	assert_int_equal(mr_recover(&jwe, exchange_tangd, &t, out, sizeof(out), why, sizeof(why)),
			 -EPROTO);
	assert_int_equal(t.status, 404);
	jwe_free(&jwe);
}

static void jwe_malformed(void **state)
{
	struct tang_fixture *f = *state;
	struct clevis_jwe jwe;
	char copy[8192];

	/* Four parts, six parts, a non-empty encrypted key, a bad character. */
	assert_int_equal(jwe_parse_compact("a.b.c.d", 7, &jwe), -EINVAL);
	assert_int_equal(jwe_parse_compact("eyJ9.a.b.c.d.e", 14, &jwe), -EINVAL);
	memcpy(copy, f->jwe, f->jwe_len + 1);
	*strchr(copy, '.') = '\0';
	strcat(copy, ".QUFB");
	strcat(copy, strchr(f->jwe, '.') + 1);
	assert_int_equal(jwe_parse_compact(copy, strlen(copy), &jwe), -EINVAL);
	memcpy(copy, f->jwe, f->jwe_len + 1);
	copy[f->jwe_len - 3] = '*';
	assert_int_equal(jwe_parse_compact(copy, strlen(copy), &jwe), -EINVAL);
	/* A header that is not JSON. */
	assert_int_equal(jwe_parse_compact("bm90IGpzb24..QUFB.QUFB.QUFBQUFBQUFBQUFBQUFBQQ", 44, &jwe),
			 -EINVAL);
}

struct seen_tokens {
	int count;
	int id;
	char url[128];
};

static int note_token(int id, const struct clevis_jwe *jwe, void *ctx)
{
	struct seen_tokens *s = ctx;

	s->count++;
	s->id = id;
	snprintf(s->url, sizeof(s->url), "%s", jwe_tang_url(jwe) ? jwe_tang_url(jwe) : "");
	return 0;
}

/* The generator's detection with the build's own lifeboat-clevis (beside
 * this test's directory: BUILD/tests/ and BUILD/lifeboat-clevis). */
static void host_detects_binding(const char *img)
{
	char exe[512], clevis[600];
	struct host_facts h;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(clevis, sizeof(clevis), "%s/lifeboat-clevis", exe);
	memset(&h, 0, sizeof(h));
	h.stack.n_luks = 2;
	/* The first is not LUKS2: skipped; the second, "/dev/" + "../" + img. */
	strcpy(h.stack.luks[0].dev, "null");
	snprintf(h.stack.luks[1].dev, sizeof(h.stack.luks[1].dev), "..%s", img);
	tanghost_detect(&h, clevis);
	assert_true(h.root_tang);
	assert_true(h.root_clevis);
	assert_string_equal(h.tang_url, "http://198.51.100.1:7500");
}

/* A LUKS2 container bound by `clevis luks bind`: its token is found in
 * the primary header, and in the secondary when the primary is damaged. */
static void luks2_clevis_token(void **state)
{
	struct tang_fixture *f = *state;
	struct seen_tokens s = { 0 };
	char img[128], *json;
	size_t len;
	int fd;

	snprintf(img, sizeof(img), "%s/luks.img", f->dir);
	run_shell("truncate -s 20M %s && printf pw > %s/pw && cryptsetup luksFormat -q --type luks2 "
		  "--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file=%s/pw %s && "
		  "clevis luks bind -y -k %s/pw -d %s tang "
		  "'{\"url\":\"http://198.51.100.1:7500\",\"adv\":\"%s/adv.jws\"}' >/dev/null 2>&1",
		  img, f->dir, f->dir, img, f->dir, img, f->dir);
	assert_int_equal(token_read_json(img, &json, &len), 0);
	assert_int_equal(token_foreach_clevis(json, len, note_token, &s), 0);
	free(json);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.id, 0);
	assert_string_equal(s.url, "http://198.51.100.1:7500");
	host_detects_binding(img);
	/* Damage the primary's JSON: its checksum fails, the secondary is read. */
	fd = open(img, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "X", 1, 4100), 1);
	close(fd);
	s.count = 0;
	assert_int_equal(token_read_json(img, &json, &len), 0);
	assert_int_equal(token_foreach_clevis(json, len, note_token, &s), 0);
	free(json);
	assert_int_equal(s.count, 1);
	/* Not LUKS2 at all. */
	assert_int_equal(token_read_json("/dev/null", &json, &len), -EINVAL);
	assert_int_equal(token_foreach_clevis("{\"tokens\":[]}", 13, note_token, &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(url_parse),
		cmocka_unit_test(responses),
		cmocka_unit_test(server_silent_or_gone),
		cmocka_unit_test(host_list_output),
		cmocka_unit_test(tang_recovers_the_secret),
		cmocka_unit_test(tang_other_keys_refuse),
		cmocka_unit_test(jwe_malformed),
		cmocka_unit_test(luks2_clevis_token),
	};

	return cmocka_run_group_tests(tests, tang_setup, tang_teardown);
}
