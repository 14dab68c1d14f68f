/* Unit tests: the module table (write, parse, alias matching) and the init's
 * loader logic over it (order, dedup, blacklists), with the load call faked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init/bootargs.h"
#include "bootlib/modload.h"
#include "common/modtab.h"
#include "gen/kmod/modtab_write.h"

static char *table_build(size_t *len)
{
	struct strv lines = STRV_INIT;
	char *deps_blk[] = { "virtio_ring", "virtio", NULL };
	char *deps_ring[] = { "virtio", NULL };
	char *pre[] = { "crc32c_generic", NULL };
	char *text;

	assert_int_equal(modtab_write_module(&lines, "virtio_blk", "/lib/modules/k/virtio_blk.ko",
					     deps_blk, ""), 0);
	assert_int_equal(modtab_write_module(&lines, "virtio_ring", "/lib/modules/k/virtio_ring.ko",
					     deps_ring, ""), 0);
	assert_int_equal(modtab_write_module(&lines, "virtio", "/lib/modules/k/virtio.ko", NULL,
					     ""), 0);
	assert_int_equal(modtab_write_module(&lines, "ext4", "/lib/modules/k/ext4.ko", NULL,
					     "debug_want_extra_isize=1 x=\"a b\""), 0);
	assert_int_equal(modtab_write_module(&lines, "crc32c_generic", "/lib/modules/k/crc.ko",
					     NULL, ""), 0);
	assert_int_equal(modtab_write_module(&lines, "nouveau", "/lib/modules/k/nouveau.ko",
					     NULL, "modeset=0"), 0);
	assert_int_equal(modtab_write_softdep(&lines, "ext4", pre, NULL), 0);
	assert_int_equal(modtab_write_alias(&lines, "virtio:d00000002v*", "virtio_blk"), 0);
	assert_int_equal(modtab_write_alias(&lines, "fs-ext4", "ext4"), 0);
	assert_int_equal(modtab_write_alias(&lines, "pci:v000010DEd*sv*sd*bc03sc*i*", "nouveau"), 0);
	assert_int_equal(modtab_write_blacklist(&lines, "nouveau"), 0);
	assert_int_equal(modtab_write_join(&lines, &text, len), 0);
	strv_free(&lines);
	return text;
}

static void round_trip(void **state)
{
	struct modtab t;
	size_t len, bad = 99;
	char *text = table_build(&len);
	struct modtab_module *m;

	(void)state;
	assert_int_equal(strlen(text), len);
	assert_int_equal(modtab_parse(text, len, &t, &bad), 0);
	assert_int_equal(bad, 0);
	assert_int_equal(t.n_mods, 6);
	assert_int_equal(t.n_aliases, 3);
	m = modtab_find(&t, "virtio_blk");
	assert_non_null(m);
	assert_string_equal(m->path, "/lib/modules/k/virtio_blk.ko");
	assert_string_equal(m->deps[0], "virtio_ring");
	assert_string_equal(m->deps[1], "virtio");
	assert_null(m->deps[2]);
	assert_null(m->pre[0]);
	assert_false(m->blacklisted);
	m = modtab_find(&t, "ext4");
	assert_string_equal(m->options, "debug_want_extra_isize=1 x=\"a b\"");
	assert_string_equal(m->pre[0], "crc32c_generic");
	assert_null(m->pre[1]);
	assert_null(m->post[0]);
	assert_true(modtab_find(&t, "nouveau")->blacklisted);
	assert_null(modtab_find(&t, "virtio_net"));
	modtab_free(&t);
	free(text);
}

static void written_sorted_and_reproducible(void **state)
{
	size_t len1, len2;
	char *a = table_build(&len1), *b = table_build(&len2);
	const char *prev = NULL;

	(void)state;
	assert_int_equal(len1, len2);
	assert_memory_equal(a, b, len1);
	for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		if (prev)
			assert_true(strcmp(prev, line) < 0);
		prev = line;
	}
	free(a);
	free(b);
}

static void writer_refuses_unreadable_fields(void **state)
{
	struct strv lines = STRV_INIT;
	char *bad_deps[] = { "a,b", NULL };

	(void)state;
	assert_int_equal(modtab_write_module(&lines, "x\ty", "/p", NULL, ""), -EINVAL);
	assert_int_equal(modtab_write_module(&lines, "x", "/p", NULL, "a\nb"), -EINVAL);
	assert_int_equal(modtab_write_module(&lines, "x", "/p", bad_deps, ""), -EINVAL);
	assert_int_equal(modtab_write_alias(&lines, "", "x"), -EINVAL);
	assert_int_equal(lines.len, 0);
}

static void expect_bad_line(const char *text, size_t want)
{
	struct modtab t;
	size_t bad = 0;

	assert_int_equal(modtab_parse(text, strlen(text), &t, &bad), -EINVAL);
	assert_int_equal(bad, want);
}

static void malformed_lines_rejected(void **state)
{
	(void)state;
	expect_bad_line("m\ta\t/a.ko\t-\t\nx\tb\n", 2);
	expect_bad_line("# c\nm\ta\t/a.ko\t-\n", 2);           /* m with 3 fields */
	expect_bad_line("a\tpat\n", 1);                        /* alias without module */
	expect_bad_line("m\ta\t/a.ko\t-\t\nb\ta\textra\n", 2);  /* b with 2 fields */
	expect_bad_line("m\ta\t/a.ko\tx,,y\t\n", 1);           /* empty list item */
	expect_bad_line("m\ta\t/a.ko\t-\t\n\ns\ta\t,x\t-\n", 3);
	expect_bad_line("m\t\t/a.ko\t-\t\n", 1);               /* empty name */
	expect_bad_line("ma\t/a.ko\t-\t\n", 1);                /* no tab after type */
	{
		const char nul[] = "m\ta\t/a.ko\t-\t\nm\tb\0\t/b.ko\t-\t\n";
		struct modtab t;
		size_t bad = 0;

		assert_int_equal(modtab_parse(nul, sizeof(nul) - 1, &t, &bad), -EINVAL);
		assert_int_equal(bad, 2);
	}
}

static void unknown_references_ignored(void **state)
{
	const char *text = "s\tghost\ta\t-\nb\tghost\na\tpat*\tghost\nm\ta\t/a.ko\t-\t\n";
	struct modtab t;
	size_t bad = 0;
	int calls = 0;

	(void)state;
	assert_int_equal(modtab_parse(text, strlen(text), &t, &bad), 0);
	assert_int_equal(t.n_mods, 1);
	assert_int_equal(modtab_match(&t, "pattern", NULL, &calls), 0);
	modtab_free(&t);
}

static int collect(struct modtab_module *m, void *ctx)
{
	struct strv *v = ctx;

	return strv_push(v, m->name);
}

static void alias_matching(void **state)
{
	const char *text =
		"a\tpci:v00001AF4d00001042sv*sd*bc*sc*i*\tvirtio_pci_legacy\n"
		"a\tpci:v00001AF4d*sv*sd*bc*sc*i*\tvirtio_pci\n"
		"a\tpci:v00008086d00002922sv*sd*bc*sc*i*\tahci\n"
		"a\tpci:v*d*sv*sd*bc01sc06i01*\tahci\n"
		"a\tpci:v*d*sv*sd*bc01sc06i01*\tahci\n"
		"a\tvirtio:d00000002v*\tvirtio_blk\n"
		"a\tvirtio:d00000008v*\tvirtio_scsi\n"
		"m\tahci\t/ahci.ko\t-\t\n"
		"m\tvirtio_pci\t/vp.ko\t-\t\n"
		"m\tvirtio_blk\t/vb.ko\t-\t\n"
		"m\tvirtio_scsi\t/vs.ko\t-\t\n";
	struct modtab t;
	struct strv v = STRV_INIT;

	(void)state;
	assert_int_equal(modtab_parse(text, strlen(text), &t, NULL), 0);
	assert_int_equal(t.aliases[0].literal_len, strlen("pci:v00001AF4d00001042sv"));
	assert_int_equal(modtab_match(&t, "virtio:d00000002v00001AF4", collect, &v), 0);
	assert_int_equal(v.len, 1);
	assert_string_equal(v.items[0], "virtio_blk");
	strv_free(&v);
	/* A virtio-pci device: the generic vendor pattern; the legacy module is
	 * not in the table, so it is not reported. */
	modtab_match(&t, "pci:v00001AF4d00001042sv00001AF4sd00001042bc01sc80i00", collect, &v);
	assert_int_equal(v.len, 1);
	assert_string_equal(v.items[0], "virtio_pci");
	strv_free(&v);
	/* An Intel AHCI controller matches two patterns but is reported once. */
	modtab_match(&t, "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01", collect, &v);
	assert_int_equal(v.len, 1);
	assert_string_equal(v.items[0], "ahci");
	strv_free(&v);
	modtab_match(&t, "pci:v00008086d00000D57sv00000000sd00000000bc06sc00i00", collect, &v);
	assert_int_equal(v.len, 0);
	modtab_free(&t);
}

/* The loader, with the load call recorded instead of made. */
static char loaded_order[512];
static const char *fail_path;
static const char *exists_path;

static int fake_load(const char *path, const char *options)
{
	strcat(loaded_order, path);
	if (options[0]) {
		strcat(loaded_order, "(");
		strcat(loaded_order, options);
		strcat(loaded_order, ")");
	}
	strcat(loaded_order, " ");
	if (fail_path && strcmp(path, fail_path) == 0)
		return -ENOEXEC;
	if (exists_path && strcmp(path, exists_path) == 0)
		return -EEXIST;
	return 0;
}

static const char loader_table[] =
	"m\tvirtio_blk\t/vb\tvirtio_ring,virtio\t\n"
	"m\tvirtio_ring\t/vr\tvirtio\t\n"
	"m\tvirtio\t/v\t-\t\n"
	"m\text4\t/e4\tjbd2\terrors=remount-ro\n"
	"m\tjbd2\t/j\t-\t\n"
	"m\tcrc32c\t/c\t-\t\n"
	"m\tpost\t/p\t-\t\n"
	"m\tnouveau\t/n\t-\t\n"
	"m\tloop_a\t/la\t-\t\n"
	"m\tloop_b\t/lb\t-\t\n"
	"s\text4\tcrc32c\tpost\n"
	"s\tloop_a\tloop_b\t-\n"
	"s\tloop_b\tloop_a\t-\n"
	"a\tfs-ext4\text4\n"
	"a\tvirtio:d00000002v*\tvirtio_blk\n"
	"a\tpci:v000010DE*\tnouveau\n"
	"b\tnouveau\n";

/* The MODULE.PARAM words the init's parse of line keeps, handed to the loader. */
static void set_params(const char *line)
{
	static struct boot_args args;

	bootargs_init(&args);
	assert_int_equal(bootargs_parse(line, NULL, &args), 0);
	assert_int_equal(modload_set_params(&args.drivers.params), 0);
	bootargs_free(&args);
}

static int loader_setup(void **state)
{
	char path[] = "/tmp/modtab-test-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, loader_table, sizeof(loader_table) - 1),
			 (ssize_t)sizeof(loader_table) - 1);
	close(fd);
	assert_int_equal(modload_open(path), 0);
	unlink(path);
	/* Not the host's: a command line of the test's own. */
	set_params("root=/dev/vda virtio-ring.x=1");
	modload_load_fn = fake_load;
	loaded_order[0] = '\0';
	fail_path = exists_path = NULL;
	return 0;
}

static int loader_teardown(void **state)
{
	(void)state;
	modload_close();
	return 0;
}

static void loader_deps_first_once(void **state)
{
	(void)state;
	/* Only the module the device asked for probes in the background. */
	assert_int_equal(modload_modalias("virtio:d00000002v00001AF4"), 3);
	assert_string_equal(loaded_order, "/v /vr(x=1) /vb(async_probe) ");
	assert_int_equal(modload_name("virtio_blk"), 0);
	assert_int_equal(modload_name("virtio-ring"), 0);
	assert_string_equal(loaded_order, "/v /vr(x=1) /vb(async_probe) ");
}

static void loader_softdeps_and_options(void **state)
{
	(void)state;
	/* The command line's parameters follow the table's (modprobe's order). */
	set_params("ext4.a=1 \"ext4.b=x y\" ext4 ext4x.c=2 post.d");
	assert_int_equal(modload_name("fs-ext4"), 4);
	assert_string_equal(loaded_order, "/c /j /e4(errors=remount-ro a=1 b=\"x y\") /p(d) ");
	assert_int_equal(modload_name("no-such-module"), -ENOENT);
}

static void loader_blacklists(void **state)
{
	(void)state;
	/* modprobe.d blacklist: not through an alias, yes by name. */
	assert_int_equal(modload_modalias("pci:v000010DEd00001234"), 0);
	assert_string_equal(loaded_order, "");
	assert_int_equal(modload_name("nouveau"), 1);
	/* rd.driver.blacklist: never, and not as a dependency either. */
	modload_blacklist("jbd2");
	assert_int_equal(modload_name("ext4"), 3);
	assert_null(strstr(loaded_order, "/j "));
}

static void loader_failures_and_cycles(void **state)
{
	(void)state;
	exists_path = "/v";
	fail_path = "/vr";
	/* virtio was there already; virtio_ring fails; virtio_blk is still tried. */
	assert_int_equal(modload_name("virtio_blk"), 1);
	assert_string_equal(loaded_order, "/v /vr(x=1) /vb ");
	loaded_order[0] = '\0';
	/* The module asked for fails: its error, after its softdeps ran. */
	fail_path = "/e4";
	assert_int_equal(modload_name("ext4"), -ENOEXEC);
	assert_string_equal(loaded_order, "/c /j /e4(errors=remount-ro) /p ");
	/* softdep cycle loop_a <-> loop_b ends. */
	loaded_order[0] = '\0';
	assert_int_equal(modload_name("loop_a"), 2);
	assert_string_equal(loaded_order, "/lb /la ");
}

/* A child loads the module while the caller goes on; the caller's
 * table then knows what it loaded and does not load it again. */
static void loader_background(void **state)
{
	char name[32];

	(void)state;
	assert_int_equal(modload_background("no-such-module"), -ENOENT);
	assert_int_equal(modload_background_join(name, sizeof(name)), -ECHILD);
	assert_int_equal(modload_background("fs-ext4"), 0);
	assert_int_equal(modload_background("virtio"), -EBUSY);
	assert_int_equal(modload_background_join(name, sizeof(name)), 4);
	assert_string_equal(name, "fs-ext4");
	/* The child's loads happened in the child. */
	assert_string_equal(loaded_order, "");
	assert_int_equal(modload_name("fs-ext4"), 0);
	assert_int_equal(modload_name("jbd2"), 0);
	assert_string_equal(loaded_order, "");
	assert_int_equal(modload_name("virtio"), 1);
	assert_string_equal(loaded_order, "/v ");
	assert_int_equal(modload_background_join(name, sizeof(name)), -ECHILD);
}

/* A failed background load leaves the module to the caller, who tries
 * it again and gets the error itself. */
static void loader_background_failure(void **state)
{
	char name[32];

	(void)state;
	fail_path = "/e4";
	assert_int_equal(modload_background("ext4"), 0);
	assert_int_equal(modload_background_join(name, sizeof(name)), -EIO);
	assert_int_equal(modload_name("ext4"), -ENOEXEC);
	assert_string_equal(loaded_order, "/c /j /e4(errors=remount-ro) /p ");
}

static void loader_missing_table_is_fine(void **state)
{
	(void)state;
	assert_int_equal(modload_open("/nonexistent/modules.tab"), 0);
	assert_int_equal(modload_name("ext4"), -ENOENT);
	assert_int_equal(modload_modalias("virtio:d00000002v00001AF4"), 0);
	modload_close();
}

/* CPU feature modaliases load accelerators no root device needs. */
static void cpu_feature_modaliases_skipped(void **state)
{
	(void)state;
	assert_false(modtab_modalias_wanted("cpu:type:x86,ven0000fam0006mod003F:feature:,0000,0001,0066"));
	assert_true(modtab_modalias_wanted("pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00"));
	assert_true(modtab_modalias_wanted("virtio:d00000002v00001AF4"));
	assert_true(modtab_modalias_wanted("acpi:PNP0A03:"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(cpu_feature_modaliases_skipped),
		cmocka_unit_test(written_sorted_and_reproducible),
		cmocka_unit_test(writer_refuses_unreadable_fields),
		cmocka_unit_test(malformed_lines_rejected),
		cmocka_unit_test(unknown_references_ignored),
		cmocka_unit_test(alias_matching),
		cmocka_unit_test_setup_teardown(loader_deps_first_once, loader_setup, loader_teardown),
		cmocka_unit_test_setup_teardown(loader_softdeps_and_options, loader_setup,
						loader_teardown),
		cmocka_unit_test_setup_teardown(loader_blacklists, loader_setup, loader_teardown),
		cmocka_unit_test_setup_teardown(loader_failures_and_cycles, loader_setup,
						loader_teardown),
		cmocka_unit_test_setup_teardown(loader_background, loader_setup, loader_teardown),
		cmocka_unit_test_setup_teardown(loader_background_failure, loader_setup,
						loader_teardown),
		cmocka_unit_test(loader_missing_table_is_fine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
