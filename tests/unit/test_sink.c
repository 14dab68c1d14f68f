/* Tests for gen/archive/sink.c's compressors: each one's output is read back by the
 * archive reader's decompressor (gen/archive/decompress.c) and by the real tool,
 * the same input gives the same bytes, stored stretches survive; and the
 * kernel config check (gen/kmod/kernel_rd.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include "gen/archive/decompress.h"
#include "gen/kmod/kernel_rd.h"
#include "gen/archive/sink.h"
#include "tests/unit/image_fixture.h"

/* Text that compresses, then pseudo-random bytes (as a gzip'd module looks
 * to a compressor). For lz4 9 MiB, more than one legacy chunk (8 MiB); the
 * others get 1 MiB, many times their buffers, since 9 MiB through xz took
 * most of the unit tests' time. */
#define LZ4_PAYLOAD_LEN (9u * 1024 * 1024)
#define PAYLOAD_LEN_OTHERS (1u * 1024 * 1024)
static size_t payload_len = LZ4_PAYLOAD_LEN;

static unsigned char *payload_make(void)
{
	unsigned char *p = malloc(payload_len);
	uint32_t x = 2463534242u;

	assert_non_null(p);
	for (size_t i = 0; i < payload_len / 2; i++)
		p[i] = (unsigned char)"lifeboat initramfs\n"[i % 19];
	for (size_t i = payload_len / 2; i < payload_len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
	return p;
}

/* Write the payload through format f into dir/name, the random half marked
 * stored; returns the file's bytes. */
static unsigned char *sink_file(const char *dir, const char *name, enum sink_format f,
				const unsigned char *payload, size_t *len)
{
	char path[PATH_MAX];
	struct sink s;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(sink_open(&s, fd, f), 0);
	assert_int_equal(sink_write(&s, payload, payload_len / 2), 0);
	assert_int_equal(sink_set_stored(&s, true), 0);
	assert_int_equal(sink_write(&s, payload + payload_len / 2, payload_len / 4), 0);
	assert_int_equal(sink_set_stored(&s, false), 0);
	assert_int_equal(sink_write(&s, payload + payload_len / 4 * 3, payload_len / 4), 0);
	assert_int_equal(sink_finish(&s), 0);
	assert_int_equal(s.offset, payload_len);
	close(fd);
	return fixture_read(path, len);
}

/* Each format: the reader names it, unpacks all of it to the payload, the
 * same input gives the same file, and the real tool reads it too. */
static void roundtrip(enum sink_format f, const char *magic_name, const char *tool)
{
	char *dir = fixture_tmpdir();
	unsigned char *payload = payload_make(), *file, *again, *out;
	size_t len, len2, out_len, consumed;
	const struct decompressor *d;
	char path[PATH_MAX];

	file = sink_file(dir, "a", f, payload, &len);
	again = sink_file(dir, "b", f, payload, &len2);
	assert_non_null(file);
	assert_int_equal(len, len2);
	assert_memory_equal(file, again, len);
	d = decompress_find(file, len);
	assert_non_null(d);
	assert_string_equal(d->name, magic_name);
	assert_int_equal(d->unpack(file, len, DECOMPRESS_MAX_OUT, &out, &out_len, &consumed), 0);
	assert_int_equal(consumed, len);
	assert_int_equal(out_len, payload_len);
	assert_memory_equal(out, payload, payload_len);
	/* The reference implementation agrees (for lz4, the legacy reader). */
	snprintf(path, sizeof(path), "%s/p", dir);
	fixture_write(path, payload, payload_len);
	assert_int_equal(fixture_sh("cd %s && %s < a | cmp -s - p", dir, tool), 0);
	/* Less room than the content: refused, not cut. */
	free(out);
	assert_int_equal(d->unpack(file, len, payload_len - 1, &out, &out_len, &consumed), -EFBIG);
	free(file);
	free(again);
	free(payload);
	fixture_rmrf(dir);
}

/* Every compressor, with the name its magic has and the tool that reads it. */
static void test_roundtrips(void **state)
{
	static const struct {
		enum sink_format f;
		const char *name, *tool;
	} cases[] = {
		{ SINK_GZIP, "gzip", "gzip -dc" },
		{ SINK_ZSTD, "zstd", "zstd -dqc" },
		{ SINK_XZ, "xz", "xz -dc" },
		{ SINK_LZ4, "lz4", "lz4 -dqc" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		payload_len = cases[i].f == SINK_LZ4 ? LZ4_PAYLOAD_LEN : PAYLOAD_LEN_OTHERS;
		roundtrip(cases[i].f, cases[i].name, cases[i].tool);
	}
}

/* xz: the kernel's XZ Embedded checks CRC32 only; check type 1 in the
 * stream flags (byte 7). */
static void test_xz_crc32(void **state)
{
	char *dir = fixture_tmpdir();
	unsigned char *payload, *file;
	size_t len;

	(void)state;
	payload_len = PAYLOAD_LEN_OTHERS;
	payload = payload_make();
	file = sink_file(dir, "a", SINK_XZ, payload, &len);
	assert_true(len > 12);
	assert_int_equal(file[6], 0);
	assert_int_equal(file[7], 1);
	assert_int_equal(fixture_sh("xz --robot --list %s/a | grep -q '^file.*CRC32'", dir), 0);
	free(file);
	free(payload);
	fixture_rmrf(dir);
}

/* lz4: the kernel reads the legacy format only (not lz4's frames). */
static void test_lz4_legacy(void **state)
{
	static const unsigned char legacy[] = { 0x02, 0x21, 0x4c, 0x18 };
	char *dir = fixture_tmpdir();
	unsigned char *payload, *file, *out;
	size_t len, out_len, consumed;

	(void)state;
	payload_len = LZ4_PAYLOAD_LEN;
	payload = payload_make();
	file = sink_file(dir, "a", SINK_LZ4, payload, &len);
	assert_memory_equal(file, legacy, 4);
	/* Zero padding after the stream ends it (the kernel since 5.11). */
	file = realloc(file, len + 8);
	memset(file + len, 0, 8);
	assert_int_equal(decompress_find(file, len)->unpack(file, len + 8, DECOMPRESS_MAX_OUT, &out,
							      &out_len, &consumed), 0);
	assert_int_equal(consumed, len);
	assert_int_equal(out_len, payload_len);
	free(out);
	/* A chunk cut short is an error. */
	assert_int_equal(decompress_find(file, len)->unpack(file, len - 1, DECOMPRESS_MAX_OUT, &out,
							      &out_len, &consumed), -EINVAL);
	free(file);
	free(payload);
	fixture_rmrf(dir);
}

static void test_format_names(void **state)
{
	enum sink_format f;

	(void)state;
	for (int i = 0; i < SINK_FORMAT_COUNT; i++) {
		assert_int_equal(sink_format_parse(sink_format_name((enum sink_format)i), &f), 0);
		assert_int_equal(f, i);
	}
	assert_int_equal(sink_format_parse("bzip2", &f), -EINVAL);
	assert_int_equal(sink_format_parse("", &f), -EINVAL);
	assert_null(sink_format_kconfig(SINK_NONE));
	assert_string_equal(sink_format_kconfig(SINK_LZ4), "CONFIG_RD_LZ4");
}

static void config_write(const char *path, const char *text)
{
	fixture_write(path, text, strlen(text));
}

/* A kernel built with gzip and xz only, its config in the module tree. */
static char *kernel_tree(void)
{
	char *dir = fixture_tmpdir();
	char path[PATH_MAX];
	static const char config[] = "CONFIG_RD_GZIP=y\nCONFIG_RD_GZIPX=m\n"
				     "# CONFIG_RD_ZSTD is not set\nCONFIG_RD_ZSTDX=y\n"
				     "CONFIG_RD_XZ=y\nCONFIG_RD_LZ4=m\n";

	snprintf(path, sizeof(path), "%s/mods", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/mods/config", dir);
	config_write(path, config);
	return dir;
}

/* The module tree and boot directory of a kernel_tree() or an empty dir. */
struct tree_dirs {
	char mods[PATH_MAX];
	char boot[PATH_MAX];
};

static void tree_dirs(const char *dir, struct tree_dirs *t)
{
	snprintf(t->mods, sizeof(t->mods), "%s/mods", dir);
	snprintf(t->boot, sizeof(t->boot), "%s/boot", dir);
}

static void test_kernel_refuses(void **state)
{
	char *dir = kernel_tree();
	struct tree_dirs t;
	char found[PATH_MAX];

	(void)state;
	tree_dirs(dir, &t);
	assert_int_equal(kernel_config_find("9.9", t.mods, t.boot, found, sizeof(found)), 0);
	assert_int_equal(kernel_config_is_y(found, "CONFIG_RD_GZIP"), 1);
	assert_int_equal(kernel_config_is_y(found, "CONFIG_RD_ZSTD"), 0);
	assert_int_equal(kernel_rd_check(SINK_GZIP, "9.9", t.mods, t.boot), 0);
	assert_int_equal(kernel_rd_check(SINK_XZ, "9.9", t.mods, t.boot), 0);
	assert_int_equal(kernel_rd_check(SINK_NONE, "9.9", t.mods, t.boot), 0);
	/* Not set, a longer name set, and =m (a decompressor cannot be a module). */
	assert_int_equal(kernel_rd_check(SINK_ZSTD, "9.9", t.mods, t.boot), -ENOTSUP);
	assert_int_equal(kernel_rd_check(SINK_LZ4, "9.9", t.mods, t.boot), -ENOTSUP);
	fixture_rmrf(dir);
}

/* No config anywhere: unchecked, not refused; /t.boot's is found by version. */
static void test_kernel_config_missing(void **state)
{
	char *dir = fixture_tmpdir();
	struct tree_dirs t;
	char path[PATH_MAX + 32];

	(void)state;
	tree_dirs(dir, &t);
	assert_int_equal(kernel_config_find("9.9", t.mods, t.boot, path, sizeof(path)), -ENOENT);
	assert_int_equal(kernel_rd_check(SINK_ZSTD, "9.9", t.mods, t.boot), 0);
	assert_int_equal(mkdir(t.boot, 0755), 0);
	snprintf(path, sizeof(path), "%s/config-9.9", t.boot);
	config_write(path, "CONFIG_RD_GZIP=y\n");
	assert_int_equal(kernel_rd_check(SINK_ZSTD, "9.9", t.mods, t.boot), -ENOTSUP);
	assert_int_equal(kernel_rd_check(SINK_ZSTD, "9.8", t.mods, t.boot), 0);
	fixture_rmrf(dir);
}

/* The default: lz4, else the next the kernel has; gzip when nothing says,
 * and first for a capture kernel. */
static void test_kernel_default(void **state)
{
	char *dir = kernel_tree();
	struct tree_dirs t;
	char path[PATH_MAX + 32];

	(void)state;
	tree_dirs(dir, &t);
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, false), SINK_GZIP);
	snprintf(path, sizeof(path), "%s/config", t.mods);
	config_write(path, "CONFIG_RD_GZIP=y\nCONFIG_RD_XZ=y\nCONFIG_RD_LZ4=y\nCONFIG_RD_ZSTD=y\n");
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, false), SINK_LZ4);
	/* A capture kernel's small memory: gzip's decoder. */
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, true), SINK_GZIP);
	config_write(path, "# CONFIG_RD_GZIP is not set\nCONFIG_RD_LZ4=y\nCONFIG_RD_ZSTD=y\n");
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, true), SINK_ZSTD);
	config_write(path, "CONFIG_RD_GZIP=y\nCONFIG_RD_ZSTD=y\n# CONFIG_RD_LZ4 is not set\n");
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, false), SINK_GZIP);
	config_write(path, "# CONFIG_RD_GZIP is not set\nCONFIG_RD_XZ=y\nCONFIG_RD_ZSTD=y\n");
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, false), SINK_ZSTD);
	/* No decompressor but xz: uncompressed unpacks faster than xz. */
	config_write(path, "CONFIG_BLK_DEV_INITRD=y\nCONFIG_RD_XZ=y\n");
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, false), SINK_NONE);
	unlink(path);
	assert_int_equal(kernel_rd_default("9.9", t.mods, t.boot, false), SINK_GZIP);
	fixture_rmrf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrips),
		cmocka_unit_test(test_xz_crc32),
		cmocka_unit_test(test_lz4_legacy),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_kernel_refuses),
		cmocka_unit_test(test_kernel_config_missing),
		cmocka_unit_test(test_kernel_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
