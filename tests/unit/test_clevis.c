/* Unit tests: lifeboat-clevis's parts (clevis/): a Tang server's URLs
 * and refusals, and the Tang exchange end to end with the real tools:
 * tangd-keygen's keys, a JWE made by `clevis encrypt tang` from tangd's
 * advertisement (offline), answered by the real tangd on the loopback
 * through the image's HTTP client, and a LUKS2 container bound by
 * `clevis luks bind`. */
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

#include "bootlib/clock.h"
#include "clevis/jwe.h"
#include "clevis/mr.h"
#include "clevis/token.h"
#include "common/base64.h"
#include "gen/host/tanghost.h"
#include "tests/unit/clevis_fixture.h"
#include "tests/unit/image_fixture.h"

#define SECRET "lifeboat-tang-secret"

/* A binding's URL, as clevis takes it (with or without http://, a path,
 * a trailing '/'), and the request's path appended. */
static void url_build(void **state)
{
	char url[64];

	(void)state;
	assert_int_equal(tang_url("http://198.51.100.1", "/adv", url, sizeof(url)), 0);
	assert_string_equal(url, "http://198.51.100.1/adv");
	assert_int_equal(tang_url("http://tang.example:8080/tang/", "/rec/k", url, sizeof(url)), 0);
	assert_string_equal(url, "http://tang.example:8080/tang/rec/k");
	assert_int_equal(tang_url("[2001:db8::1]:7500", "/adv", url, sizeof(url)), 0);
	assert_string_equal(url, "http://[2001:db8::1]:7500/adv");
	assert_int_equal(tang_url("https://tang.example", "/adv", url, sizeof(url)), -EINVAL);
	assert_int_equal(tang_url("file:///etc/passwd", "/adv", url, sizeof(url)), -EINVAL);
	assert_int_equal(tang_url("http://", "/adv", url, sizeof(url)), -EINVAL);
	assert_int_equal(tang_url("", "/adv", url, sizeof(url)), -EINVAL);
	assert_int_equal(tang_url("http://host/a b", "/adv", url, sizeof(url)), -EINVAL);
	assert_int_equal(tang_url("http://host/a\r\nX: y", "/adv", url, sizeof(url)), -EINVAL);
	assert_int_equal(tang_url("http://tang.example.org:7500/a-long-path", "/adv", url, 32),
			 -ENAMETOOLONG);
}

/* A key id that is not base64url never reaches a URL; a server that
 * refuses says so at once. */
static void exchange_refusals(void **state)
{
	char url[64], reply[64];
	struct tang_server s = { .url = url, .timeout_ms = 5000 };

	(void)state;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", http_server_closed_port());
	assert_int_equal(tang_exchange("a/../adv", "{}", reply, sizeof(reply), &s), -EINVAL);
	assert_string_equal(s.why, "the binding's key id is not a thumbprint");
	assert_int_equal(tang_exchange("abc-_", "{}", reply, sizeof(reply), &s), -ECONNREFUSED);
	assert_string_equal(s.why, "connection refused (nothing listens on its port)");
	s.url = "https://127.0.0.1";
	assert_int_equal(tang_exchange("abc", "{}", reply, sizeof(reply), &s), -EINVAL);
	assert_string_equal(s.why, "the URL is not http://HOST[:PORT][/PATH]");
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

/* GET /adv: what tangd advertises, as the fixture read it from tangd
 * (the signature differs each time: ECDSA signs with a random nonce). */
static void tang_advertisement(void **state)
{
	struct tang_fixture *f = *state;
	char url[64], adv[8192], expected[8192], path[200];
	struct tang_server s = { .url = url, .timeout_ms = 10000 };
	pid_t pid = tangd_once(f->db, url, sizeof(url));

	snprintf(path, sizeof(path), "%s/adv.jws", f->dir);
	read_whole(path, expected, sizeof(expected));
	assert_int_equal(tang_adv(&s, adv, sizeof(adv)), 0);
	tangd_end(pid);
	assert_int_equal(s.status, 200);
	assert_non_null(strstr(adv, "\"signature\""));
	*strstr(adv, "\"signature\"") = '\0';
	assert_non_null(strstr(expected, "\"signature\""));
	*strstr(expected, "\"signature\"") = '\0';
	assert_string_equal(adv, expected);
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

/* The build's lifeboat-clevis, beside this test's directory. */
static void own_clevis(char *path, size_t size)
{
	char exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(path, size, "%s/lifeboat-clevis", exe);
}

/* Two tang tokens on one container, the first one's server taking the
 * request and never answering: the second opens it at once (asked one
 * after another, the first cost its whole 5 s). */
static void tang_tokens_together(void **state)
{
	struct tang_fixture *f = *state;
	struct http_server silent;
	char img[128], live[64], clevis[600], err[4096];
	pid_t pid = tangd_once(f->db, live, sizeof(live));
	uint64_t start;
	int status;

	assert_int_equal(http_server_start(&silent), 0);
	http_server_set(&silent, NULL, 0, 0, true);
	snprintf(img, sizeof(img), "%s/two.img", f->dir);
	run_shell("truncate -s 20M %s && printf pw > %s/pw && cryptsetup luksFormat -q --type luks2 "
		  "--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file=%s/pw %s && "
		  "clevis luks bind -y -k %s/pw -d %s tang '{\"url\":\"%s\",\"adv\":\"%s/adv.jws\"}' "
		  ">/dev/null 2>&1 && clevis luks bind -y -k %s/pw -d %s tang "
		  "'{\"url\":\"http://%s\",\"adv\":\"%s/adv.jws\"}' >/dev/null 2>&1",
		  img, f->dir, f->dir, img, f->dir, img, silent.url, f->dir, f->dir, img, live, f->dir);
	own_clevis(clevis, sizeof(clevis));
	start = clock_now_ms();
	status = fixture_sh("%s %s 5 /sbin/cryptsetup open --test-passphrase --key-file=- %s 2>%s/err",
			       clevis, img, img, f->dir);
	assert_true(clock_now_ms() - start < 3000);
	tangd_end(pid);
	http_server_stop(&silent);
	assert_int_equal(status, 0);
	snprintf(img, sizeof(img), "%s/err", f->dir);
	read_whole(img, err, sizeof(err));
	assert_non_null(strstr(err, "clevis-used: tang\n"));
	assert_null(strstr(err, "clevis token 0"));
	/* Which binding opened it: the second token, by its server. */
	snprintf(img, sizeof(img), "clevis-binding: token 1, tang server http://%s\n", live);
	assert_non_null(strstr(err, img));
}

/* The init ends a binding tried behind the prompt with a SIGTERM to its
 * process group once a passphrase was typed (blockstack/lukstang_retry.c).
 * When the container is already opening, the command is let finish (it
 * has a process group of its own) and lifeboat-clevis exits with its
 * status; cut off, it would leave a half-made device-mapper table. */
static void sigterm_lets_the_opening_finish(void **state)
{
	struct tang_fixture *f = *state;
	char img[128], live[64], clevis[600], started[160], done[160], cmd[400];
	pid_t tangd = tangd_once(f->db, live, sizeof(live)), pid;
	int status, null;

	snprintf(img, sizeof(img), "%s/term.img", f->dir);
	run_shell("truncate -s 20M %s && printf pw > %s/pw && cryptsetup luksFormat -q --type luks2 "
		  "--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file=%s/pw %s && "
		  "clevis luks bind -y -k %s/pw -d %s tang '{\"url\":\"http://%s\",\"adv\":\"%s/adv.jws\"}' "
		  ">/dev/null 2>&1", img, f->dir, f->dir, img, f->dir, img, live, f->dir);
	own_clevis(clevis, sizeof(clevis));
	snprintf(started, sizeof(started), "%s/started", f->dir);
	snprintf(done, sizeof(done), "%s/done", f->dir);
	snprintf(cmd, sizeof(cmd), "cat >/dev/null; touch %s; sleep 1; touch %s", started, done);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		execl(clevis, clevis, img, "5", "/bin/sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	for (int i = 0; i < 1000 && access(started, F_OK) != 0; i++)
		usleep(10 * 1000);
	assert_int_equal(access(started, F_OK), 0);
	kill(-pid, SIGTERM);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	tangd_end(tangd);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(access(done, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(url_build),
		cmocka_unit_test(exchange_refusals),
		cmocka_unit_test(host_list_output),
		cmocka_unit_test(tang_recovers_the_secret),
		cmocka_unit_test(tang_other_keys_refuse),
		cmocka_unit_test(tang_advertisement),
		cmocka_unit_test(jwe_malformed),
		cmocka_unit_test(luks2_clevis_token),
		cmocka_unit_test(tang_tokens_together),
		cmocka_unit_test(sigterm_lets_the_opening_finish),
	};

	return cmocka_run_group_tests(tests, tang_setup, tang_teardown);
}
