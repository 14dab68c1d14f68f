/* Unit tests: a live image's SHA-256 by libcrypto opened at run time
 * (net/live/live_hash.c): FIPS 180-2's examples, whole and in the pieces a
 * transfer brings, a hash started over, a library that is missing or is
 * not libcrypto; the --live image carrying libcrypto for it
 * (gen/feature/live_pack.c), and the init linking none. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/layout.h"
#include "gen/elf/elf.h"
#include "gen/feature/feature.h"
#include "gen/image/image.h"
#include "gen/image/image_entry.h"
#include "gen/opts/build_ctx.h"
#include "gen/opts/build_opts.h"
#include "net/live/live_hash.h"
#include "net/live/live_sum.h"

#define EMPTY_SUM "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define ABC_SUM "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define TWO_BLOCK_SUM "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
#define MILLION_A_SUM "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"

/* len bytes of data hashed chunk bytes at a time, as hexadecimal. */
static void hex_of(const void *data, size_t len, size_t chunk, char out[LIVE_SUM_HEX])
{
	struct live_hash h;
	uint8_t sum[SHA256_LEN];
	const char *p = data;
	char why[256];

	assert_int_equal(live_hash_start(&h, LAYOUT_LIBCRYPTO, why, sizeof(why)), 0);
	for (size_t done = 0; done < len; done += chunk)
		live_hash_update(&h, p + done, len - done < chunk ? len - done : chunk);
	assert_int_equal(live_hash_final(&h, sum), 0);
	live_hash_free(&h);
	live_sum_to_hex(sum, out);
}

/* FIPS 180-2, appendix B: one block, two blocks, a million 'a's. */
static void fips_examples(void **state)
{
	static char million[1000000];
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[LIVE_SUM_HEX];

	(void)state;
	hex_of("", 0, 1, hex);
	assert_string_equal(hex, EMPTY_SUM);
	hex_of("abc", 3, 3, hex);
	assert_string_equal(hex, ABC_SUM);
	/* 448 bits: the padding needs a second block. */
	assert_int_equal(strlen(two), 56);
	hex_of(two, strlen(two), 56, hex);
	assert_string_equal(hex, TWO_BLOCK_SUM);
	memset(million, 'a', sizeof(million));
	hex_of(million, sizeof(million), sizeof(million), hex);
	assert_string_equal(hex, MILLION_A_SUM);
	/* In pieces that straddle the blocks, as a transfer brings them. */
	hex_of(million, sizeof(million), 7, hex);
	assert_string_equal(hex, MILLION_A_SUM);
	hex_of(million, sizeof(million), 65536, hex);
	assert_string_equal(hex, MILLION_A_SUM);
}

/* A transfer that starts over: what came before is forgotten. */
static void restart_forgets(void **state)
{
	struct live_hash h;
	uint8_t sum[SHA256_LEN];
	char why[256], hex[LIVE_SUM_HEX];

	(void)state;
	assert_int_equal(live_hash_start(&h, LAYOUT_LIBCRYPTO, why, sizeof(why)), 0);
	live_hash_update(&h, "half of another image", 21);
	live_hash_restart(&h);
	live_hash_update(&h, "ab", 2);
	live_hash_update(&h, "c", 1);
	assert_int_equal(live_hash_final(&h, sum), 0);
	live_hash_free(&h);
	live_sum_to_hex(sum, hex);
	assert_string_equal(hex, ABC_SUM);
}

/* No such library, or one that is not libcrypto: -ELIBACC, the reason
 * naming the file; freeing what did not start is safe. */
static void missing_library_is_said(void **state)
{
	struct live_hash h;
	char why[256];

	(void)state;
	assert_int_equal(live_hash_start(&h, "liblifeboat-no-such-library.so.0", why, sizeof(why)), -ELIBACC);
	assert_non_null(strstr(why, "liblifeboat-no-such-library.so.0"));
	live_hash_free(&h);
	assert_int_equal(live_hash_start(&h, "libz.so.1", why, sizeof(why)), -ELIBACC);
	assert_string_equal(why, "libz.so.1 has no EVP_MD_CTX_new");
	live_hash_free(&h);
	assert_null(h.ctx);
}

static const struct feature *feature_named(const char *name)
{
	for (const struct feature *const *f = feature_table; *f; f++)
		if (strcmp((*f)->name, name) == 0)
			return *f;
	fail_msg("no feature named %s", name);
	return NULL;
}

/* Whether the image holds a file of that base name, under any directory. */
static bool has_library(const struct image *img, const char *name)
{
	for (size_t i = 0; i < img->len; i++) {
		const char *slash = strrchr(img->entries[i].path, '/');

		if (!img->entries[i].dead && strcmp(slash ? slash + 1 : img->entries[i].path, name) == 0)
			return true;
	}
	return false;
}

/* --live puts both libraries the init opens into the image. */
static void live_image_has_libcrypto(void **state)
{
	const struct feature *live = feature_named("live");
	struct build_opts o;
	struct build_ctx c = { .opts = &o, .init = "/bin/true" };

	(void)state;
	build_opts_init(&o);
	o.live = true;
	c.img = image_new();
	assert_non_null(c.img);
	assert_true(live->wanted(&c));
	assert_false(has_library(c.img, LAYOUT_LIBCRYPTO));
	assert_int_equal(live->add_files(&c), 0);
	assert_true(has_library(c.img, LAYOUT_LIBCURL));
	assert_true(has_library(c.img, LAYOUT_LIBCRYPTO));
	image_free(c.img);
	build_opts_free(&o);
}

/* The init beside this test (make unit-build builds it) opens libcrypto;
 * it does not need it to start. */
static void init_does_not_link_libcrypto(void **state)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct elf_deps d;
	char *slash;

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	assert_non_null(slash);
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/../lifeboat-init", exe);
	if (access(path, R_OK) < 0)
		fail_msg("%s not built: make unit-build builds it", path);
	assert_int_equal(elf_read_file(path, &d), 0);
	assert_true(d.needed.len > 0);
	for (size_t j = 0; j < d.needed.len; j++)
		if (strncmp(d.needed.items[j], "libcrypto", 9) == 0 || strncmp(d.needed.items[j], "libssl", 6) == 0)
			fail_msg("lifeboat-init links %s", d.needed.items[j]);
	elf_deps_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fips_examples),
		cmocka_unit_test(restart_forgets),
		cmocka_unit_test(missing_library_is_said),
		cmocka_unit_test(live_image_has_libcrypto),
		cmocka_unit_test(init_does_not_link_libcrypto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
