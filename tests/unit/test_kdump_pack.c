/* test_kdump_pack: what `lifeboat build --kdump` puts into the image for
 * each target's own files (copies under per-target names, their modes, the
 * copies' paths in kdump.conf) and what it refuses. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gen/opts/build_opts.h"
#include "gen/feature/kdump_pack.h"
#include "gen/image/image_entry.h"
#include "tests/unit/image_fixture.h"

static const struct image_entry *entry(const struct image *img, const char *path)
{
	for (size_t i = 0; i < img->len; i++)
		if (!img->entries[i].dead && strcmp(img->entries[i].path, path) == 0)
			return &img->entries[i];
	return NULL;
}

/* Whether a file given as content holds text (its data is not
 * NUL-terminated: the length is its size). */
static bool conf_has(const struct image_entry *e, const char *text)
{
	return memmem(e->data, (size_t)e->size, text, strlen(text)) != NULL;
}

/* Build with these targets and options; returns kdump_pack's result. */
static int pack(struct image *img, const char *const *targets, const char *options)
{
	struct build_opts o;
	char init[] = "/bin/true";
	int r;

	build_opts_init(&o);
	o.kdump = true;
	for (; *targets; targets++)
		assert_int_equal(strv_push(&o.kdump_targets, *targets), 0);
	if (options)
		assert_int_equal(strv_split_append(&o.kdump_options, options, ","), 0);
	r = kdump_pack(&o, img, init);
	build_opts_free(&o);
	return r;
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

/* LZO pages, the default, need liblzo2 in the image for the capture's
 * dlopen(); zlib pages (the init links zlib) do not. */
static void lzo_library(void **state)
{
	struct image *img = image_new();
	const struct image_entry *conf;

	(void)state;
	assert_int_equal(pack(img, (const char *const[]){ "LABEL=x", NULL }, NULL), 0);
	assert_true(has_library(img, "liblzo2.so.2"));
	image_free(img);
	img = image_new();
	assert_int_equal(pack(img, (const char *const[]){ "LABEL=x", NULL }, "compress=zlib"), 0);
	assert_false(has_library(img, "liblzo2.so.2"));
	assert_non_null(conf = entry(img, "etc/lifeboat/kdump.conf"));
	assert_true(conf_has(conf, "\ncompress zlib\n"));
	image_free(img);
	img = image_new();
	assert_int_equal(pack(img, (const char *const[]){ "LABEL=x", NULL }, "compress=snappy"), -EINVAL);
	image_free(img);
}

static void write_file(const char *dir, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	assert_int_equal(fixture_sh("echo '%s' > '%s'", name, path), 0);
}

static void files_per_target(void **state)
{
	char *dir = fixture_tmpdir(), ca[256], other[256], key[256], kh[256];
	char t1[600], t2[600], t3[900], opts[300];
	struct image *img = image_new();
	const struct image_entry *conf, *e;

	(void)state;
	write_file(dir, "ca.pem", ca, sizeof(ca));
	write_file(dir, "other.pem", other, sizeof(other));
	write_file(dir, "id", key, sizeof(key));
	write_file(dir, "known_hosts", kh, sizeof(kh));
	snprintf(t1, sizeof(t1), "https://198.51.100.1/a/;cafile=%s", ca);
	snprintf(t2, sizeof(t2), "https://198.51.100.1/b/");
	snprintf(t3, sizeof(t3), "sftp://kd@198.51.100.1/c/;knownhosts=%s;sshkey=%s", kh, key);
	snprintf(opts, sizeof(opts), "cafile=%s,action=poweroff", other);
	assert_int_equal(pack(img, (const char *const[]){ t1, t2, "LABEL=x", t3, NULL }, opts), 0);

	assert_non_null(e = entry(img, "etc/lifeboat/kdump-target1.cafile"));
	assert_string_equal(e->src, ca);
	/* The global cafile= goes to the https target without its own. */
	assert_non_null(e = entry(img, "etc/lifeboat/kdump-target2.cafile"));
	assert_string_equal(e->src, other);
	assert_int_equal(e->mode & 07777, 0644);
	assert_non_null(e = entry(img, "etc/lifeboat/kdump-target4.sshkey"));
	assert_string_equal(e->src, key);
	assert_int_equal(e->mode & 07777, 0600);
	assert_non_null(e = entry(img, "etc/lifeboat/kdump-target4.knownhosts"));
	assert_null(entry(img, "etc/lifeboat/kdump-target3.cafile"));

	assert_non_null(conf = entry(img, "etc/lifeboat/kdump.conf"));
	assert_int_equal(conf->mode & 07777, 0600);
	assert_non_null(conf_has(conf,
			       "\ntarget https://198.51.100.1/a/;cafile=/etc/lifeboat/kdump-target1.cafile\n"
			       "target https://198.51.100.1/b/;cafile=/etc/lifeboat/kdump-target2.cafile\n"
			       "target LABEL=x\n"
			       "target sftp://kd@198.51.100.1/c/;sshkey=/etc/lifeboat/kdump-target4.sshkey;"
			       "knownhosts=/etc/lifeboat/kdump-target4.knownhosts\n"));
	assert_false(conf_has(conf, dir));
	image_free(img);
	fixture_rmrf(dir);
}

static void files_refused(void **state)
{
	char *dir = fixture_tmpdir(), ca[256], t[600], opts[300];
	struct image *img;

	(void)state;
	write_file(dir, "ca.pem", ca, sizeof(ca));
	snprintf(t, sizeof(t), "http://198.51.100.1/a/;cafile=%s", ca);
	img = image_new();
	assert_int_equal(pack(img, (const char *const[]){ t, NULL }, NULL), -EINVAL);
	image_free(img);

	snprintf(t, sizeof(t), "https://198.51.100.1/a/;cafile=%s/missing.pem", dir);
	img = image_new();
	assert_int_equal(pack(img, (const char *const[]){ t, NULL }, NULL), -ENOENT);
	image_free(img);

	/* A global CA that no https target would use is a mistake to report. */
	snprintf(opts, sizeof(opts), "cafile=%s", ca);
	img = image_new();
	assert_int_equal(pack(img, (const char *const[]){ "http://198.51.100.1/a/", NULL }, opts), -EINVAL);
	image_free(img);

	img = image_new();
	assert_int_equal(pack(img, (const char *const[]){ "ftp://kd:secret@198.51.100.1/a/", NULL }, NULL),
			 -EINVAL);
	image_free(img);
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(files_per_target),
		cmocka_unit_test(lzo_library),
		cmocka_unit_test(files_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
