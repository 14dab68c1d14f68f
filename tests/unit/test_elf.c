/* test_elf: elf_parse on real system binaries (checked against readelf), on
 * ELF files built here for other classes and byte orders, and on damaged input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gen/elf/elf.h"
#include "tests/unit/elf_fixture.h"

/* What readelf reports for a file: the expected values. */
struct readelf_view {
	char interp[4096];
	struct strv needed, rpath, runpath;
	char soname[4096];
	bool unwinds;
};

/* The text between '[' and ']' on a readelf line. */
static void bracketed(const char *line, char *out, size_t size)
{
	const char *open = strchr(line, '[');
	const char *close = open ? strchr(open, ']') : NULL;

	snprintf(out, size, "%.*s", close ? (int)(close - open - 1) : 0, open ? open + 1 : "");
}

static void readelf_view_load(const char *path, struct readelf_view *v)
{
	char cmd[512], line[4096], val[4096];
	FILE *p;

	memset(v, 0, sizeof(*v));
	snprintf(cmd, sizeof(cmd), "readelf -W -l -d '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		bracketed(line, val, sizeof(val));
		if (strstr(line, "Requesting program interpreter:"))
			snprintf(v->interp, sizeof(v->interp), "%s", strchr(val, ':') + 2);
		else if (strstr(line, "(NEEDED)"))
			assert_int_equal(strv_push(&v->needed, val), 0);
		else if (strstr(line, "(RPATH)"))
			assert_int_equal(strv_split_append(&v->rpath, val, ":"), 0);
		else if (strstr(line, "(RUNPATH)"))
			assert_int_equal(strv_split_append(&v->runpath, val, ":"), 0);
		else if (strstr(line, "(SONAME)"))
			snprintf(v->soname, sizeof(v->soname), "%s", val);
	}
	assert_int_equal(pclose(p), 0);
	/* The imports glibc needs libgcc_s.so.1 for, as nm lists them. */
	snprintf(cmd, sizeof(cmd), "nm -D --undefined-only '%s' 2>/dev/null | "
		 "grep -Eq ' pthread_(cancel|exit)(@|$)'", path);
	v->unwinds = system(cmd) == 0;
}

static void readelf_view_free(struct readelf_view *v)
{
	strv_free(&v->needed);
	strv_free(&v->rpath);
	strv_free(&v->runpath);
}

static void assert_strv_equal(const struct strv *a, const struct strv *b)
{
	assert_int_equal(a->len, b->len);
	for (size_t i = 0; i < a->len; i++)
		assert_string_equal(a->items[i], b->items[i]);
}

/* elf_read_file agrees with readelf on everything it reports. */
static void check_against_readelf(const char *path, struct elf_deps *d)
{
	struct readelf_view v;

	readelf_view_load(path, &v);
	assert_int_equal(elf_read_file(path, d), 0);
	if (v.interp[0])
		assert_string_equal(d->interp, v.interp);
	else
		assert_null(d->interp);
	if (v.soname[0])
		assert_string_equal(d->soname, v.soname);
	else
		assert_null(d->soname);
	assert_strv_equal(&d->needed, &v.needed);
	assert_strv_equal(&d->rpath, &v.rpath);
	assert_strv_equal(&d->runpath, &v.runpath);
	assert_int_equal(d->unwinds, v.unwinds);
	readelf_view_free(&v);
}

static const char *first_existing(const char *const *paths)
{
	for (size_t i = 0; paths[i]; i++)
		if (access(paths[i], R_OK) == 0)
			return paths[i];
	return NULL;
}

static void test_ls(void **state)
{
	struct elf_deps d;

	(void)state;
	check_against_readelf("/bin/ls", &d);
	assert_true(strv_contains(&d.needed, "libc.so.6"));
	assert_non_null(d.interp);
	assert_int_equal(d.elf_class, sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32);
#if defined(__x86_64__)
	assert_int_equal(d.machine, EM_X86_64);
	assert_string_equal(d.interp, "/lib64/ld-linux-x86-64.so.2");
#endif
	elf_deps_free(&d);
}

static void test_big_binaries(void **state)
{
	static const char *const paths[] = {
		"/usr/bin/qemu-system-x86_64", "/usr/sbin/mkfs.btrfs", "/usr/bin/busctl", NULL,
	};
	struct elf_deps d;

	(void)state;
	for (size_t i = 0; paths[i]; i++) {
		if (access(paths[i], R_OK) != 0)
			continue;
		check_against_readelf(paths[i], &d);
		assert_true(d.needed.len > 0);
		elf_deps_free(&d);
	}
}

/* makedumpfile (the tests' dump reader; it ends its threads with
 * pthread_exit) imports what needs libgcc_s.so.1, ls does not; both as nm
 * says (check_against_readelf). */
static void test_unwinds(void **state)
{
	struct elf_deps d;

	(void)state;
	check_against_readelf("/usr/bin/makedumpfile", &d);
	assert_true(d.unwinds);
	elf_deps_free(&d);
	check_against_readelf("/bin/ls", &d);
	assert_false(d.unwinds);
	elf_deps_free(&d);
}

static void test_libc(void **state)
{
	static const char *const paths[] = {
		"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6", "/usr/lib/libc.so.6",
		"/lib/aarch64-linux-gnu/libc.so.6", NULL,
	};
	const char *libc = first_existing(paths);
	struct elf_deps d;

	(void)state;
	if (!libc)
		skip();
	/* glibc's libc.so.6 can be run, so it has an interpreter too. */
	check_against_readelf(libc, &d);
	assert_string_equal(d.soname, "libc.so.6");
	assert_true(d.needed.len > 0);
	elf_deps_free(&d);
}

static void test_library(void **state)
{
	static const char *const paths[] = {
		"/usr/lib/x86_64-linux-gnu/libkmod.so.2", "/usr/lib64/libkmod.so.2", "/usr/lib/libkmod.so.2",
		"/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib64/libz.so.1", "/usr/lib/libz.so.1", NULL,
	};
	const char *lib = first_existing(paths);
	struct elf_deps d;

	(void)state;
	if (!lib)
		skip();
	check_against_readelf(lib, &d);
	assert_null(d.interp);
	assert_non_null(d.soname);
	assert_true(strv_contains(&d.needed, "libc.so.6"));
	elf_deps_free(&d);
}

static void test_static(void **state)
{
	static const char *const paths[] = { "/sbin/ldconfig", "/usr/sbin/ldconfig", "/bin/busybox", NULL };
	const char *bin = first_existing(paths);
	struct elf_deps d;

	(void)state;
	if (!bin)
		skip();
	check_against_readelf(bin, &d);
	assert_null(d.interp);
	assert_int_equal(d.needed.len, 0);
	elf_deps_free(&d);
}

static void test_not_elf(void **state)
{
	struct elf_deps d;

	(void)state;
	assert_int_equal(elf_read_file("/etc/passwd", &d), -ENOEXEC);
	assert_int_equal(elf_read_file("/", &d), -ENOEXEC);
	assert_int_equal(elf_read_file("/nonexistent/lifeboat", &d), -ENOENT);
	assert_int_equal(elf_parse("", 0, &d), -ENOEXEC);
}

static void check_fixture(const struct fixture *f)
{
	struct elf_deps d;
	size_t len;
	uint8_t *buf = fixture_build(f, &len);
	size_t n = 0;

	assert_non_null(buf);
	assert_int_equal(elf_parse(buf, len, &d), 0);
	assert_int_equal(d.elf_class, f->elf_class);
	assert_int_equal(d.byte_order, f->byte_order);
	assert_int_equal(d.machine, f->machine);
	assert_string_equal(d.interp, f->interp);
	for (; f->needed[n]; n++)
		assert_string_equal(d.needed.items[n], f->needed[n]);
	assert_int_equal(d.needed.len, n);
	assert_string_equal(d.soname, f->soname);
	assert_int_equal(d.runpath.len, 2);
	assert_string_equal(d.runpath.items[1], "/opt/b");
	assert_int_equal(d.rpath.len, 1);
	elf_deps_free(&d);
	free(buf);
}

static void test_other_targets(void **state)
{
	const struct fixture targets[] = {
		{ ELFCLASS32, ELFDATA2MSB, EM_PPC, "/lib/ld.so.1", { "libc.so.6", "libm.so.6" },
		  "/rp", "$ORIGIN/a:/opt/b", "libx.so.1" },
		{ ELFCLASS32, ELFDATA2LSB, EM_386, "/lib/ld-linux.so.2", { "libc.so.6" },
		  "/rp", "/a:/opt/b", "liby.so" },
		{ ELFCLASS64, ELFDATA2MSB, EM_S390, "/lib/ld64.so.1", { "libz.so.1", "libc.so.6", "libq.so" },
		  "/rp", "/a:/opt/b", "libz.so" },
		{ ELFCLASS64, ELFDATA2LSB, EM_AARCH64, "/lib/ld-linux-aarch64.so.1", { "libc.so.6" },
		  "/rp", "/a::/opt/b", "libw.so.2" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		check_fixture(&targets[i]);
}

/* The tiny file, then one field of it changed. */
static int parse_patched(const struct fixture *f, size_t at, const void *bytes, size_t n)
{
	struct elf_deps d;
	size_t len;
	uint8_t *buf = fixture_build(f, &len);
	int r;

	assert_non_null(buf);
	assert_true(at + n <= len);
	memcpy(buf + at, bytes, n);
	r = elf_parse(buf, len, &d);
	if (r == 0)
		elf_deps_free(&d);
	free(buf);
	return r;
}

static void test_malformed_fields(void **state)
{
	const struct fixture f = { ELFCLASS64, ELFDATA2LSB, EM_X86_64, "/lib64/ld.so", { "libc.so.6" },
				   NULL, NULL, NULL };
	const uint8_t big[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
	const uint8_t bad_class = 3, zero = 0;
	uint8_t phentsize[2] = { 8, 0 };

	(void)state;
	assert_int_equal(parse_patched(&f, 0, "\x7f" "ELG", 4), -ENOEXEC);
	assert_int_equal(parse_patched(&f, EI_CLASS, &bad_class, 1), -ENOEXEC);
	assert_int_equal(parse_patched(&f, EI_DATA, &zero, 1), -ENOEXEC);
	assert_int_equal(parse_patched(&f, offsetof(Elf64_Ehdr, e_phoff), big, 8), -ENOEXEC);
	assert_int_equal(parse_patched(&f, offsetof(Elf64_Ehdr, e_phentsize), phentsize, 2), -ENOEXEC);
	/* The PT_LOAD (first program header) grown past the file: the
	 * string table can no longer be read from it. */
	assert_int_equal(parse_patched(&f, sizeof(Elf64_Ehdr) + offsetof(Elf64_Phdr, p_filesz), big, 8),
			 -ENOEXEC);
	/* PT_LOAD moved away from the strings' virtual address. */
	assert_int_equal(parse_patched(&f, sizeof(Elf64_Ehdr) + offsetof(Elf64_Phdr, p_vaddr), big, 8),
			 -ENOEXEC);
	/* The interpreter string loses its terminating NUL. */
	assert_int_equal(parse_patched(&f, sizeof(Elf64_Ehdr) + 3 * sizeof(Elf64_Phdr) + 12, "X", 1),
			 -ENOEXEC);
}

static uint8_t *file_slurp(const char *path, size_t *len)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

/* Where the dynamic section of a native 64-bit file ends: any cut before it
 * must be refused, any cut after it changes nothing we read. */
static size_t dynamic_end(const uint8_t *buf)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
	size_t end = 0;

	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(buf + eh->e_phoff + i * eh->e_phentsize);

		if (ph->p_type == PT_DYNAMIC)
			end = ph->p_offset + ph->p_filesz;
	}
	return end;
}

static void test_truncated(void **state)
{
	struct elf_deps full, d;
	size_t len;
	uint8_t *buf = file_slurp("/bin/ls", &len);
	size_t dyn_end;

	(void)state;
	if (buf[EI_CLASS] != ELFCLASS64) {
		free(buf);
		skip();
	}
	dyn_end = dynamic_end(buf);
	assert_true(dyn_end > 0 && dyn_end <= len);
	assert_int_equal(elf_parse(buf, len, &full), 0);
	for (size_t cut = 0; cut < len; cut += cut < 256 ? 1 : 509) {
		/* An exact-size copy, so ASan sees any read past the end. */
		uint8_t *copy = malloc(cut ? cut : 1);
		int r;

		assert_non_null(copy);
		memcpy(copy, buf, cut);
		r = elf_parse(copy, cut, &d);
		if (cut < dyn_end) {
			assert_int_equal(r, -ENOEXEC);
		} else {
			assert_int_equal(r, 0);
			assert_strv_equal(&d.needed, &full.needed);
			elf_deps_free(&d);
		}
		free(copy);
	}
	elf_deps_free(&full);
	free(buf);
}

/* Random bytes written over the headers and the dynamic data: the result
 * is either a parse or -ENOEXEC, never a crash or a read out of bounds. */
static void test_corrupted(void **state)
{
	struct elf_deps d;
	size_t len;
	uint8_t *buf = file_slurp("/bin/ls", &len);
	size_t span = len < 65536 ? len : 65536;
	unsigned int seed = 12345;
	int parsed = 0, refused = 0;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		uint8_t *copy = malloc(len);
		int r;

		assert_non_null(copy);
		memcpy(copy, buf, len);
		for (int k = 0; k < 4; k++) {
			size_t at = (size_t)rand_r(&seed) % (k == 0 ? 128 : span);

			copy[at] = (uint8_t)rand_r(&seed);
		}
		r = elf_parse(copy, len, &d);
		assert_true(r == 0 || r == -ENOEXEC);
		if (r == 0) {
			parsed++;
			elf_deps_free(&d);
		} else {
			refused++;
		}
		free(copy);
	}
	/* Both outcomes happen, or the corruption did not reach the parser. */
	assert_true(parsed > 0 && refused > 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ls),
		cmocka_unit_test(test_big_binaries),
		cmocka_unit_test(test_unwinds),
		cmocka_unit_test(test_libc),
		cmocka_unit_test(test_library),
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_other_targets),
		cmocka_unit_test(test_malformed_fields),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
