/* Unit tests: the keyscripts an image's crypttab names, packed by the
 * generator (gen/feature/keyscript_pack.c): a #! script of its own with
 * its interpreter, Debian's with what they call (when the host has
 * cryptsetup's scripts), and the build refused, naming the line, for a
 * keyscript that is missing, that is not a program, or whose interpreter
 * the host lacks. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gen/feature/keyscript_pack.h"
#include "gen/image/image.h"
#include "gen/opts/build_ctx.h"
#include "tests/unit/image_fixture.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"

static char *dir;

/* Pack the keyscripts of a crypttab holding line, with --rescue rescue
 * (NULL: the default); *img gets the image (caller frees). */
static int pack(const char *line, const char *rescue, struct image **img)
{
	char crypttab[PATH_MAX], arg[PATH_MAX + 32];
	struct build_opts o;
	struct build_ctx c = { .opts = &o };
	FILE *f;
	int r;

	snprintf(crypttab, sizeof(crypttab), "%s/crypttab", dir);
	f = fopen(crypttab, "w");
	assert_non_null(f);
	fprintf(f, "# the image's\n%s\n", line);
	fclose(f);
	build_opts_init(&o);
	o.mode = BUILD_GENERIC;
	o.rescue = rescue ? strdup(rescue) : NULL;
	snprintf(arg, sizeof(arg), "%s:/etc/crypttab", crypttab);
	assert_int_equal(strv_push(&o.add_files, arg), 0);
	c.img = image_new();
	r = keyscript_pack_files(&c);
	*img = c.img;
	build_opts_free(&o);
	return r;
}

static void write_program(const char *name, const char *text)
{
	assert_int_equal(fixture_sh("printf '%%s' '%s' > %s/%s && chmod 0755 %s/%s", text, dir, name,
				    dir, name), 0);
}

/* A script of its own: itself, its interpreter (the host's /bin/sh without
 * busybox), askpass when the host has it. */
static void own_script(void **state)
{
	char line[PATH_MAX + 128], path[PATH_MAX];
	struct image *img;

	(void)state;
	write_program("k.sh", "#!/bin/sh\nprintf key\n");
	snprintf(path, sizeof(path), "%s/k.sh", dir);
	snprintf(line, sizeof(line), "lbroot UUID=" U1 " lbarg luks,keyscript=%s", path);
	assert_int_equal(pack(line, "none", &img), 0);
	assert_true(image_has(img, path));
	assert_true(image_has(img, "/bin/sh"));
	assert_int_equal(image_has(img, "/lib/cryptsetup/askpass"),
			 access("/lib/cryptsetup/askpass", X_OK) == 0);
	image_free(img);
	/* Lines without a keyscript pack nothing. */
	assert_int_equal(pack("lbroot UUID=" U1 " /etc/k.key luks", NULL, &img), 0);
	assert_false(image_has(img, "/lib/cryptsetup/askpass"));
	image_free(img);
}

/* Debian's, from the host's cryptsetup package: decrypt_keyctl with keyctl. */
static void debian_keyscript(void **state)
{
	struct image *img;

	(void)state;
	if (access("/lib/cryptsetup/scripts/decrypt_keyctl", X_OK) < 0 ||
	    access("/bin/keyctl", X_OK) < 0)
		skip();
	assert_int_equal(pack("lbroot UUID=" U1 " lbkey luks,keyscript=decrypt_keyctl", "none",
			      &img), 0);
	assert_true(image_has(img, "/lib/cryptsetup/scripts/decrypt_keyctl"));
	assert_true(image_has(img, "/bin/keyctl") || image_has(img, "/usr/bin/keyctl"));
	image_free(img);
}

/* What cannot be packed refuses the image. */
static void refused(void **state)
{
	char line[PATH_MAX + 128];
	struct image *img;

	(void)state;
	assert_int_equal(pack("lbroot UUID=" U1 " none keyscript=/nonexistent/k", NULL, &img),
			 -ENOENT);
	image_free(img);
	write_program("data", "not a program");
	snprintf(line, sizeof(line), "lbroot UUID=" U1 " none keyscript=%s/data", dir);
	assert_int_equal(pack(line, NULL, &img), -ENOENT);
	image_free(img);
	write_program("k.py", "#!/nonexistent/python9\n");
	snprintf(line, sizeof(line), "lbroot UUID=" U1 " none keyscript=%s/k.py", dir);
	assert_int_equal(pack(line, NULL, &img), -ENOENT);
	image_free(img);
}

/* Which --add-files item is the image's crypttab, and its source. */
static void crypttab_item(void **state)
{
	char src[PATH_MAX];

	(void)state;
	assert_true(keyscript_pack_crypttab_src("/srv/ct:/etc/crypttab", src, sizeof(src)));
	assert_string_equal(src, "/srv/ct");
	assert_true(keyscript_pack_crypttab_src("/etc/crypttab", src, sizeof(src)));
	assert_string_equal(src, "/etc/crypttab");
	assert_false(keyscript_pack_crypttab_src("/etc/crypttab:/etc/crypttab.old", src, sizeof(src)));
	assert_false(keyscript_pack_crypttab_src("/etc/crypttab.old", src, sizeof(src)));
	assert_false(keyscript_pack_crypttab_src("/srv/ct:/etc/crypttab/x", src, sizeof(src)));
}

static int setup(void **state)
{
	(void)state;
	dir = fixture_tmpdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fixture_rmrf(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_script),
		cmocka_unit_test(debian_keyscript),
		cmocka_unit_test(refused),
		cmocka_unit_test(crypttab_item),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
