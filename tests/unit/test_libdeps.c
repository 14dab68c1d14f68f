/* test_libdeps: the library resolver against ldd on the host's binaries, and
 * on a fake aarch64 system tree (sysroot, $ORIGIN, RPATH vs RUNPATH, ld.so.conf). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gen/elf/elf.h"
#include "gen/elf/ldconf.h"
#include "gen/elf/libdeps.h"
#include "gen/elf/rootpath.h"
#include "tests/unit/elf_fixture.h"

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Basenames of what ldd finds (ldd runs the loader: tests only). */
static void ldd_basenames(const char *path, struct strv *out)
{
	char cmd[PATH_MAX + 32], line[4096];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=> ");
		char *lib = arrow ? arrow + 3 : line + strspn(line, " \t");

		lib[strcspn(lib, " \t\n")] = '\0';
		/* The vDSO has no file. */
		if (lib[0] == '/')
			assert_int_equal(strv_push_unique(out, base_of(lib)), 0);
	}
	assert_int_equal(pclose(p), 0);
}

static bool object_unwinds(const char *path)
{
	struct elf_deps d;
	bool unwinds = elf_read_file(path, &d) == 0 && d.unwinds;

	elf_deps_free(&d);
	return unwinds;
}

/* ldd lists what the loader loads at the start; glibc dlopen()s
 * ELF_UNWIND_LIB later, for an object that imports pthread_cancel or
 * pthread_exit: ours must have it then, and theirs gets it. */
static void add_unwind_lib(const char *path, const struct strv *ours, const struct strv *bases,
			   struct strv *theirs)
{
	bool unwinds = object_unwinds(path);

	for (size_t i = 0; i < ours->len; i++)
		unwinds = unwinds || object_unwinds(ours->items[i]);
	if (!unwinds)
		return;
	assert_true(strv_contains(bases, ELF_UNWIND_LIB));
	assert_int_equal(strv_push_unique(theirs, ELF_UNWIND_LIB), 0);
}

static void check_against_ldd(const char *path)
{
	struct strv ours = STRV_INIT, bases = STRV_INIT, theirs = STRV_INIT;

	assert_int_equal(libdeps_resolve("", path, &ours), 0);
	for (size_t i = 0; i < ours.len; i++) {
		assert_int_equal(access(ours.items[i], R_OK), 0);
		assert_int_equal(strv_push_unique(&bases, base_of(ours.items[i])), 0);
	}
	ldd_basenames(path, &theirs);
	add_unwind_lib(path, &ours, &bases, &theirs);
	strv_sort(&bases);
	strv_sort(&theirs);
	assert_int_equal(bases.len, theirs.len);
	for (size_t i = 0; i < bases.len; i++)
		assert_string_equal(bases.items[i], theirs.items[i]);
	strv_free(&ours);
	strv_free(&bases);
	strv_free(&theirs);
}

static void test_ls(void **state)
{
	struct strv out = STRV_INIT;
	bool has_libc = false;

	(void)state;
	assert_int_equal(libdeps_resolve("/", "/bin/ls", &out), 0);
	for (size_t i = 0; i < out.len; i++)
		has_libc = has_libc || strcmp(base_of(out.items[i]), "libc.so.6") == 0;
	assert_true(has_libc);
#if defined(__x86_64__)
	/* The interpreter first, by the path in PT_INTERP. */
	assert_string_equal(out.items[0], "/lib64/ld-linux-x86-64.so.2");
#endif
	strv_free(&out);
	check_against_ldd("/bin/ls");
}

static void test_long_chains(void **state)
{
	static const char *const paths[] = {
		"/usr/bin/qemu-system-x86_64", "/usr/sbin/mkfs.btrfs", "/usr/bin/busctl",
		"/usr/lib/x86_64-linux-gnu/libkmod.so.2", NULL,
	};
	int tested = 0;

	(void)state;
	for (size_t i = 0; paths[i]; i++) {
		if (access(paths[i], R_OK) != 0)
			continue;
		check_against_ldd(paths[i]);
		tested++;
	}
	if (!tested)
		skip();
}

static void test_dedup(void **state)
{
	struct strv out = STRV_INIT;
	size_t once;

	(void)state;
	assert_int_equal(libdeps_resolve("", "/bin/ls", &out), 0);
	once = out.len;
	assert_true(once >= 2);
	assert_int_equal(libdeps_resolve("", "/bin/ls", &out), 0);
	assert_int_equal(out.len, once);
	for (size_t i = 0; i < out.len; i++)
		for (size_t k = i + 1; k < out.len; k++)
			assert_string_not_equal(out.items[i], out.items[k]);
	strv_free(&out);
}

static void test_not_elf(void **state)
{
	struct strv out = STRV_INIT;

	(void)state;
	assert_int_equal(libdeps_resolve("", "/etc/passwd", &out), 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(libdeps_resolve("", "/nonexistent/lifeboat-bin", &out), -ENOENT);
	assert_int_equal(libdeps_resolve("/tmp", "bin/ls", &out), -EINVAL);
	assert_int_equal(out.len, 0);
}

/* On the host, a relative binary is found from the working directory. */
static void test_relative(void **state)
{
	struct strv rel = STRV_INIT, abs = STRV_INIT;
	char cwd[PATH_MAX];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir("/bin"), 0);
	assert_int_equal(libdeps_resolve("", "ls", &rel), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(libdeps_resolve("", "/bin/ls", &abs), 0);
	assert_true(rel.len >= 2);
	assert_int_equal(rel.len, abs.len);
	for (size_t i = 0; i < rel.len; i++)
		assert_string_equal(rel.items[i], abs.items[i]);
	strv_free(&rel);
	strv_free(&abs);
}

/* A fake system tree in a temporary directory. */
struct tree {
	char root[64];
};

static void tree_path(const struct tree *t, const char *path, char *out, size_t size)
{
	assert_true((size_t)snprintf(out, size, "%s%s", t->root, path) < size);
}

static void tree_mkdirs(const struct tree *t, const char *path)
{
	char full[PATH_MAX];

	tree_path(t, path, full, sizeof(full));
	for (char *p = full + strlen(t->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		assert_true(mkdir(full, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
}

static void tree_elf(const struct tree *t, const char *path, const struct fixture *f)
{
	char full[PATH_MAX];

	tree_mkdirs(t, path);
	tree_path(t, path, full, sizeof(full));
	assert_int_equal(fixture_write(f, full), 0);
}

static void tree_text(const struct tree *t, const char *path, const char *text)
{
	char full[PATH_MAX];
	FILE *f;

	tree_mkdirs(t, path);
	tree_path(t, path, full, sizeof(full));
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void tree_link(const struct tree *t, const char *path, const char *target)
{
	char full[PATH_MAX];

	tree_mkdirs(t, path);
	tree_path(t, path, full, sizeof(full));
	assert_int_equal(symlink(target, full), 0);
}

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	snprintf(t->root, sizeof(t->root), "/tmp/lifeboat-libdeps-XXXXXX");
	if (!mkdtemp(t->root))
		return -1;
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	free(t);
	return system(cmd) == 0 ? 0 : -1;
}

#define A64(...) { ELFCLASS64, ELFDATA2LSB, EM_AARCH64, __VA_ARGS__ }

/* An aarch64 system: the host cannot run any of it, so only reading works.
 * /lib is an absolute symlink, which must resolve inside the tree. */
static void tree_populate(const struct tree *t)
{
	const struct fixture prog = A64("/lib/ld-linux-aarch64.so.1", { "libfoo.so.1", "libbar.so.2" },
					NULL, "$ORIGIN/../lib/prog", NULL);
	const struct fixture ld = A64(NULL, { NULL }, NULL, NULL, "ld-linux-aarch64.so.1");
	const struct fixture foo = A64(NULL, { "libbaz.so.3", "ld-linux-aarch64.so.1" }, NULL, NULL, "libfoo.so.1");
	const struct fixture bar = A64(NULL, { "libbaz.so.3" }, NULL, NULL, "libbar.so.2");
	const struct fixture baz = A64(NULL, { NULL }, NULL, NULL, "libbaz.so.3");
	/* Same name, wrong class: first in the search path, must be passed over. */
	const struct fixture bar32 = { ELFCLASS32, ELFDATA2LSB, EM_ARM, NULL, { NULL }, NULL, NULL, "libbar.so.2" };

	tree_link(t, "/lib", "/usr/lib");
	tree_elf(t, "/usr/bin/prog", &prog);
	tree_link(t, "/usr/sbin/prog-link", "../bin/prog");
	tree_elf(t, "/usr/lib/ld-linux-aarch64.so.1", &ld);
	tree_elf(t, "/usr/lib/prog/libfoo.so.1", &foo);
	tree_elf(t, "/usr/lib/prog/libbar.so.2", &bar32);
	tree_elf(t, "/opt/x/lib/libbar.so.2", &bar);
	tree_elf(t, "/usr/lib/libbaz.so.3", &baz);
	/* Found by a search for its name, but the loaded interpreter answers
	 * to it first. */
	tree_elf(t, "/opt/x/lib/ld-linux-aarch64.so.1", &ld);
	tree_text(t, "/etc/ld.so.conf", "# test\ninclude ld.so.conf.d/*.conf\n");
	tree_text(t, "/etc/ld.so.conf.d/x.conf", "/opt/x/lib/  # the x package\n");
}

static void assert_paths(const struct strv *out, const char *const *want)
{
	size_t n = 0;

	for (; want[n]; n++)
		if (!strv_contains(out, want[n]))
			fail_msg("%s is missing from the result", want[n]);
	assert_int_equal(out->len, n);
}

static void test_sysroot(void **state)
{
	const struct tree *t = *state;
	static const char *const want[] = {
		"/lib/ld-linux-aarch64.so.1", "/usr/lib/prog/libfoo.so.1", "/opt/x/lib/libbar.so.2",
		"/lib/libbaz.so.3", NULL,
	};
	struct strv out = STRV_INIT;

	tree_populate(t);
	assert_int_equal(libdeps_resolve(t->root, "/usr/bin/prog", &out), 0);
	assert_paths(&out, want);
	assert_string_equal(out.items[0], "/lib/ld-linux-aarch64.so.1");
	strv_free(&out);
	/* Through a symlink, $ORIGIN is the directory of the real file. */
	assert_int_equal(libdeps_resolve(t->root, "/usr/sbin/prog-link", &out), 0);
	assert_paths(&out, want);
	strv_free(&out);
}

static void test_sysroot_missing(void **state)
{
	const struct tree *t = *state;
	const struct fixture lost = A64("/lib/ld-linux-aarch64.so.1", { "libbaz.so.3", "libgone.so.9" },
					NULL, NULL, NULL);
	const struct fixture no_interp = A64("/lib/ld-nowhere.so.1", { NULL }, NULL, NULL, NULL);
	struct strv out = STRV_INIT;

	tree_populate(t);
	tree_elf(t, "/usr/bin/lost", &lost);
	tree_elf(t, "/usr/bin/nointerp", &no_interp);
	assert_int_equal(libdeps_resolve(t->root, "/usr/bin/lost", &out), -ENOENT);
	strv_free(&out);
	assert_int_equal(libdeps_resolve(t->root, "/usr/bin/nointerp", &out), -ENOENT);
	strv_free(&out);
}

/* DT_RPATH of the binary serves the libraries it loads, unless the library
 * has a DT_RUNPATH of its own. */
static void test_rpath_inherited(void **state)
{
	const struct tree *t = *state;
	const struct fixture prog = A64(NULL, { "liba.so.1" }, "/opt/rp", NULL, NULL);
	const struct fixture a = A64(NULL, { "libb.so.1" }, NULL, NULL, NULL);
	const struct fixture prog2 = A64(NULL, { "liba2.so.1" }, "/opt/rp", NULL, NULL);
	const struct fixture a2 = A64(NULL, { "libb.so.1" }, NULL, "/nowhere", NULL);
	const struct fixture b = A64(NULL, { NULL }, NULL, NULL, NULL);
	/* With both, the loader ignores DT_RPATH, for everything it loads. */
	const struct fixture prog3 = A64(NULL, { "liba.so.1" }, "/opt/rp", "/nowhere", NULL);
	static const char *const want[] = { "/usr/lib/liba.so.1", "/opt/rp/libb.so.1", NULL };
	struct strv out = STRV_INIT;

	tree_elf(t, "/usr/bin/prog", &prog);
	tree_elf(t, "/usr/lib/liba.so.1", &a);
	tree_elf(t, "/usr/bin/prog2", &prog2);
	tree_elf(t, "/usr/lib/liba2.so.1", &a2);
	tree_elf(t, "/opt/rp/libb.so.1", &b);
	tree_elf(t, "/usr/bin/prog3", &prog3);
	assert_int_equal(libdeps_resolve(t->root, "/usr/bin/prog", &out), 0);
	assert_paths(&out, want);
	strv_free(&out);
	assert_int_equal(libdeps_resolve(t->root, "/usr/bin/prog2", &out), -ENOENT);
	strv_free(&out);
	assert_int_equal(libdeps_resolve(t->root, "/usr/bin/prog3", &out), -ENOENT);
	strv_free(&out);
}

static void test_ldconf(void **state)
{
	const struct tree *t = *state;
	static const char *const want[] = { "/a", "/b", "/c", "/d", "/e", "/f", NULL };
	struct strv dirs = STRV_INIT;

	tree_text(t, "/etc/ld.so.conf", "include /etc/conf.d/*.conf\n/a\thwcap 1 x\n/b=libc6 /c:/d,/a\n");
	tree_text(t, "/etc/conf.d/1.conf", "hwcap 0 nosegneg\n/e # /nothing\nrelative/dir\n");
	tree_text(t, "/etc/conf.d/2.conf", "include 2.conf\n/f/\n");
	tree_text(t, "/etc/conf.d/3.txt", "/not-included\n");
	assert_int_equal(ldconf_read(t->root, "/etc/ld.so.conf", &dirs), 0);
	assert_paths(&dirs, want);
	/* Included files come first, in glob order. */
	assert_string_equal(dirs.items[0], "/e");
	assert_string_equal(dirs.items[1], "/f");
	strv_free(&dirs);
	assert_int_equal(ldconf_read(t->root, "/etc/none.conf", &dirs), 0);
	assert_int_equal(dirs.len, 0);
}

static void test_rootpath(void **state)
{
	const struct tree *t = *state;
	char out[PATH_MAX];

	tree_populate(t);
	tree_link(t, "/loop", "/loop");
	assert_int_equal(rootpath_resolve(t->root, "/lib/prog/../libbaz.so.3", out, sizeof(out)), 0);
	assert_string_equal(out, "/usr/lib/libbaz.so.3");
	assert_int_equal(rootpath_resolve(t->root, "/../../usr/sbin/prog-link", out, sizeof(out)), 0);
	assert_string_equal(out, "/usr/bin/prog");
	assert_int_equal(rootpath_resolve(t->root, "/loop/x", out, sizeof(out)), -ELOOP);
	assert_int_equal(rootpath_resolve(t->root, "/usr/nothing", out, sizeof(out)), -ENOENT);
	assert_int_equal(rootpath_resolve(t->root, "/usr/bin/prog/x", out, sizeof(out)), -ENOTDIR);
}

/* What a binary would dlopen() by soname: found in the same directories as
 * its own libraries, with that library's own needs; a name no directory
 * has is an error. */
static void test_dlopen_soname(void **state)
{
	struct strv plain = STRV_INIT, with = STRV_INIT;
	bool crypt = false;

	(void)state;
	assert_int_equal(libdeps_resolve("", "/bin/ls", &plain), 0);
	assert_int_equal(libdeps_resolve_dlopen("", "/bin/ls", "libcrypt.so.1", &with), 0);
	for (size_t i = 0; i < plain.len; i++)
		assert_true(strv_contains(&with, plain.items[i]));
	for (size_t i = 0; i < with.len; i++) {
		const char *base = strrchr(with.items[i], '/');

		crypt |= base && strcmp(base + 1, "libcrypt.so.1") == 0 && access(with.items[i], R_OK) == 0;
	}
	assert_true(crypt);
	strv_free(&with);
	assert_int_equal(libdeps_resolve_dlopen("", "/bin/ls", "libnosuch-lifeboat.so.9", &with), -ENOENT);
	strv_free(&with);
	strv_free(&plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ls),
		cmocka_unit_test(test_dlopen_soname),
		cmocka_unit_test(test_long_chains),
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_relative),
		cmocka_unit_test_setup_teardown(test_sysroot, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_sysroot_missing, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_rpath_inherited, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_ldconf, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_rootpath, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
