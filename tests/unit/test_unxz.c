/* Unit tests: liblzma only in the images with xz streams for the init to
 * unpack: a host-only image's modules stored plain, a generic image's xz'd
 * (gen/kmod/kmods_emit.c), the feature that adds the library when the
 * image holds such a stream (gen/feature/unxz_pack.c), the library opened
 * at run time (bootlib/lzmafn.c) by programs that no longer link it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/lzmafn.h"
#include "common/layout.h"
#include "common/modtab.h"
#include "gen/elf/elf.h"
#include "gen/elf/libdeps.h"
#include "gen/elf/program.h"
#include "gen/feature/feature.h"
#include "gen/image/image.h"
#include "gen/kmod/kmods.h"
#include "gen/kmod/kmods_int.h"
#include "gen/opts/build_ctx.h"
#include "tests/unit/kernel_fixture.h"

#define BALLOON "kernel/drivers/virtio/virtio_balloon.ko"
#define RING "kernel/drivers/virtio/virtio_ring.ko"

/* Whether img has the module at rel under /lib/modules/KVER, with suffix. */
static bool has_module(const struct image *img, const char *rel, const char *suffix)
{
	char path[1024];

	snprintf(path, sizeof(path), "/lib/modules/%s/%s%s", kver, rel, suffix);
	return image_has(img, path);
}

/* virtio_balloon (not one of modpack_plain's) with its dependencies,
 * emitted as a host-only image (generic false) or a generic one does. */
static struct image *balloon_image(bool generic, struct modtab *t)
{
	struct image *img = image_new();
	struct kmods *k;
	char *text;
	size_t len, bad;

	assert_non_null(img);
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(kmods_add(k, "virtio_balloon", "test"), 0);
	/* What kmods_add_generic marks, without its hundreds of modules. */
	k->generic = generic;
	assert_int_equal(kmods_emit(k, img, "/nonexistent"), 0);
	assert_int_equal(kmods_table(k, &text, &len), 0);
	assert_int_equal(modtab_parse(text, len, t, &bad), 0);
	free(text);
	kmods_free(k);
	return img;
}

/* virtio_balloon stored xz'd or plain, the table naming the same file;
 * virtio_ring (one of modpack_plain's) plain either way. */
static void balloon_stored(bool generic, bool xz)
{
	const char *stored = xz ? ".xz" : "", *other = xz ? "" : ".xz";
	struct modtab t;
	struct image *img;
	char name[64];

	img = balloon_image(generic, &t);
	assert_true(has_module(img, BALLOON, stored));
	assert_false(has_module(img, BALLOON, other));
	assert_true(has_module(img, RING, ""));
	snprintf(name, sizeof(name), "/virtio_balloon.ko%s", stored);
	assert_true(strlen(modtab_find(&t, "virtio_balloon")->path) > strlen(name));
	assert_string_equal(modtab_find(&t, "virtio_balloon")->path +
			    strlen(modtab_find(&t, "virtio_balloon")->path) - strlen(name), name);
	assert_true(image_has_xz(img) == xz);
	modtab_free(&t);
	image_free(img);
}

/* A host-only image's modules are the ones its boots load: all plain,
 * nothing for the init to unpack. */
static void host_only_modules_are_plain(void **state)
{
	(void)state;
	NEED_KERNEL();
	balloon_stored(false, false);
}

/* A generic image xz's the modules few boots load. */
static void generic_modules_are_xz(void **state)
{
	(void)state;
	NEED_KERNEL();
	balloon_stored(true, true);
}

static const struct feature *feature_named(const char *name)
{
	for (const struct feature *const *f = feature_table; *f; f++)
		if (strcmp((*f)->name, name) == 0)
			return *f;
	fail_msg("no feature named %s", name);
	return NULL;
}

/* The library's host path, as the init's loader would find it. */
static void liblzma_path(const char *binary, char *out, size_t size)
{
	struct strv libs = STRV_INIT;

	out[0] = '\0';
	assert_int_equal(libdeps_resolve_dlopen("", binary, LAYOUT_LIBLZMA, &libs), 0);
	for (size_t i = 0; i < libs.len; i++)
		if (strstr(libs.items[i], "/" LAYOUT_LIBLZMA))
			snprintf(out, size, "%s", libs.items[i]);
	strv_free(&libs);
	assert_true(out[0] != '\0');
}

/* liblzma goes in only when the image holds an xz stream (a packed program
 * here, as busybox and the way out are; modules above), found as the
 * init's loader finds it. */
static void liblzma_only_with_xz_streams(void **state)
{
	const struct feature *unxz = feature_named("unxz");
	struct build_opts o;
	struct build_ctx c = { .opts = &o, .init = "/bin/true" };
	char lib[PATH_MAX];

	(void)state;
	build_opts_init(&o);
	c.img = image_new();
	assert_false(unxz->wanted(&c));
	assert_int_equal(image_add_data(c.img, "/etc/x.xz", "x", 1, 0644), 0);
	assert_false(unxz->wanted(&c));
	assert_int_equal(program_add_packed(c.img, "/bin/true", "/usr/lib/lifeboat/true.xz"), 0);
	assert_true(unxz->wanted(&c));
	liblzma_path(c.init, lib, sizeof(lib));
	assert_false(image_has(c.img, lib));
	assert_int_equal(unxz->add_files(&c), 0);
	assert_true(image_has(c.img, lib));
	image_free(c.img);
	build_opts_free(&o);
}

/* It is asked after the features that store xz streams. */
static void unxz_comes_after_the_xz_streams(void **state)
{
	int unxz = -1, last_xz = -1, i = 0;

	(void)state;
	for (const struct feature *const *f = feature_table; *f; f++, i++) {
		if (strcmp((*f)->name, "unxz") == 0)
			unxz = i;
		if (strcmp((*f)->name, "way out") == 0 || strcmp((*f)->name, "rescue") == 0)
			last_xz = i;
	}
	assert_true(last_xz >= 0 && unxz > last_xz);
}

static void opens_the_library(void **state)
{
	struct lzmafn fn;

	(void)state;
	memset(&fn, 0, sizeof(fn));
	assert_int_equal(lzmafn_open(&fn, LAYOUT_LIBLZMA), 0);
	assert_non_null(fn.stream_footer_decode);
	assert_non_null(fn.index_buffer_decode);
	assert_non_null(fn.index_uncompressed_size);
	assert_non_null(fn.index_end);
	assert_non_null(fn.stream_buffer_decode);
}

/* No library, or one without liblzma's functions: -ELIBACC, fn untouched. */
static void missing_library_is_elibacc(void **state)
{
	struct lzmafn fn;

	(void)state;
	memset(&fn, 0, sizeof(fn));
	assert_int_equal(lzmafn_open(&fn, "liblifeboat-no-such-library.so.0"), -ELIBACC);
	assert_int_equal(lzmafn_open(&fn, "libz.so.1"), -ELIBACC);
	assert_null(fn.stream_footer_decode);
	assert_null(fn.stream_buffer_decode);
}

/* The build's programs beside this test (make unit-build builds them too):
 * lifeboat-init and lifeboat-login need no liblzma to start. */
static void programs_do_not_link_liblzma(void **state)
{
	static const char *const programs[] = { "lifeboat-init", "lifeboat-login" };
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	assert_non_null(slash);
	*slash = '\0';
	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		struct elf_deps d;

		snprintf(path, sizeof(path), "%s/../%s", exe, programs[i]);
		if (access(path, R_OK) < 0)
			fail_msg("%s not built: make unit-build builds it", path);
		assert_int_equal(elf_read_file(path, &d), 0);
		assert_true(d.needed.len > 0);
		for (size_t j = 0; j < d.needed.len; j++)
			if (strncmp(d.needed.items[j], "liblzma", 7) == 0)
				fail_msg("%s links %s", programs[i], d.needed.items[j]);
		elf_deps_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_only_modules_are_plain),
		cmocka_unit_test(generic_modules_are_xz),
		cmocka_unit_test(liblzma_only_with_xz_streams),
		cmocka_unit_test(unxz_comes_after_the_xz_streams),
		cmocka_unit_test(opens_the_library),
		cmocka_unit_test(missing_library_is_elibacc),
		cmocka_unit_test(programs_do_not_link_liblzma),
	};

	return cmocka_run_group_tests(tests, kernel_find, NULL);
}
