/* test_clevis_pack: what the clevis unlock puts into an image: libcurl
 * (with what it links) beside lifeboat-clevis when a binding may name a
 * Tang server, not when the host's bindings are tpm2 only; libtss2 when a
 * binding may use the TPM. Uses the build's own lifeboat-clevis (beside
 * this test's directory: BUILD/tests/ and BUILD/lifeboat-clevis). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/layout.h"
#include "gen/feature/feature.h"
#include "gen/image/image_entry.h"
#include "gen/opts/build_ctx.h"
#include "tests/unit/image_fixture.h"

/* Whether the image holds a file of that base name, under any directory. */
static bool has(const struct image *img, const char *name)
{
	for (size_t i = 0; i < img->len; i++) {
		const char *slash = strrchr(img->entries[i].path, '/');

		if (!img->entries[i].dead && strcmp(slash ? slash + 1 : img->entries[i].path, name) == 0)
			return true;
	}
	return false;
}

/* The image clevis_pack makes for these options and host facts. */
static struct image *pack(const struct build_opts *o, const struct host_facts *host)
{
	char exe[PATH_MAX], init[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct build_ctx c = { .opts = o, .host = host, .init = init, .img = image_new() };

	assert_true(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(init, sizeof(init), "%s/lifeboat-init", exe);
	assert_true(clevis_pack_feature.wanted(&c));
	assert_int_equal(clevis_pack_feature.add_files(&c), 0);
	return c.img;
}

static void tang_brings_libcurl(void **state)
{
	struct build_opts o;
	struct host_facts tpm_only = { .root_clevis = true, .root_clevis_tpm = true };
	struct image *img;

	(void)state;
	build_opts_init(&o);
	o.clevis = true;
	img = pack(&o, NULL);
	assert_true(has(img, "lifeboat-clevis"));
	assert_true(has(img, LAYOUT_LIBCURL));
	assert_true(has(img, "clevis-net"));
	assert_true(has(img, LAYOUT_TSS2_ESYS));
	image_free(img);
	o.clevis = false;
	img = pack(&o, &tpm_only);
	assert_true(has(img, "lifeboat-clevis"));
	assert_false(has(img, LAYOUT_LIBCURL));
	assert_false(has(img, "clevis-net"));
	assert_true(has(img, LAYOUT_TSS2_ESYS));
	image_free(img);
	build_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tang_brings_libcurl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
