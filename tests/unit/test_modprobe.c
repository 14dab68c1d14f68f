/* Unit tests: lifeboat's modprobe (rescue/modprobe.h): its arguments, the
 * module name of a file, the order of modprobe -r; and the filesystem
 * types the rescue shell's /etc/filesystems lists (bootlib/shellsetup.h). */
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
#include "bootlib/shellsetup.h"
#include "common/modtab.h"
#include "rescue/modprobe.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void parse_name_and_params(void **state)
{
	char *const argv[] = { "modprobe", "dummy", "numdummies=2", "flag" };
	struct modprobe_request req;
	char err[128];

	(void)state;
	assert_int_equal(modprobe_parse(ARGC(argv), argv, &req, err, sizeof(err)), 0);
	assert_false(req.remove);
	assert_int_equal(req.names.len, 1);
	assert_string_equal(req.names.items[0], "dummy");
	assert_int_equal(req.params.len, 2);
	assert_string_equal(req.params.items[0], "numdummies=2");
	assert_string_equal(req.params.items[1], "flag");
	modprobe_request_free(&req);
}

/* What the kernel's request_module passes: "-q -- fs-ext4". */
static void parse_kernel_request(void **state)
{
	char *const argv[] = { "/sbin/modprobe", "-q", "--", "fs-ext4" };
	struct modprobe_request req;
	char err[128];

	(void)state;
	assert_int_equal(modprobe_parse(ARGC(argv), argv, &req, err, sizeof(err)), 0);
	assert_true(req.quiet);
	assert_int_equal(req.names.len, 1);
	assert_string_equal(req.names.items[0], "fs-ext4");
	assert_int_equal(req.params.len, 0);
	modprobe_request_free(&req);
}

/* -r and -a take every word as a name; short options join. */
static void parse_remove_and_all(void **state)
{
	char *const rm[] = { "modprobe", "-qr", "xfs", "dm_crypt" };
	char *const all[] = { "modprobe", "--all", "-v", "xfs", "btrfs" };
	struct modprobe_request req;
	char err[128];

	(void)state;
	assert_int_equal(modprobe_parse(ARGC(rm), rm, &req, err, sizeof(err)), 0);
	assert_true(req.remove);
	assert_true(req.quiet);
	assert_int_equal(req.names.len, 2);
	assert_int_equal(req.params.len, 0);
	modprobe_request_free(&req);
	assert_int_equal(modprobe_parse(ARGC(all), all, &req, err, sizeof(err)), 0);
	assert_false(req.remove);
	assert_int_equal(req.names.len, 2);
	assert_string_equal(req.names.items[1], "btrfs");
	modprobe_request_free(&req);
}

static void parse_refuses_unknown_and_empty(void **state)
{
	char *const bad_short[] = { "modprobe", "-qz", "xfs" };
	char *const bad_long[] = { "modprobe", "--show-depends", "xfs" };
	char *const none[] = { "modprobe", "-q" };
	char *const help[] = { "modprobe", "--help" };
	struct modprobe_request req;
	char err[128];

	(void)state;
	assert_int_equal(modprobe_parse(ARGC(bad_short), bad_short, &req, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "unknown option -z");
	modprobe_request_free(&req);
	assert_int_equal(modprobe_parse(ARGC(bad_long), bad_long, &req, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "unknown option --show-depends");
	modprobe_request_free(&req);
	assert_int_equal(modprobe_parse(ARGC(none), none, &req, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no module named");
	modprobe_request_free(&req);
	assert_int_equal(modprobe_parse(ARGC(help), help, &req, err, sizeof(err)), 0);
	assert_true(req.help);
	modprobe_request_free(&req);
}

static void name_of_module_files(void **state)
{
	char name[16];

	(void)state;
	assert_int_equal(modprobe_name_of("/usr/lib/modules/6.1/kernel/fs/ext4/ext4.ko.xz",
					  name, sizeof(name)), 0);
	assert_string_equal(name, "ext4");
	assert_int_equal(modprobe_name_of("/x/dm-crypt.ko", name, sizeof(name)), 0);
	assert_string_equal(name, "dm_crypt");
	assert_int_equal(modprobe_name_of("/x/.ko", name, sizeof(name)), -EINVAL);
	assert_int_equal(modprobe_name_of("/x/foo.kox", name, sizeof(name)), -EINVAL);
	assert_int_equal(modprobe_name_of("/x.ko/foo", name, sizeof(name)), -EINVAL);
	assert_int_equal(modprobe_name_of("/x/a_name_too_long_for_it.ko", name, sizeof(name)),
			 -EINVAL);
}

/* A fake kernel for modprobe -r: which modules are loaded and in use. */
static char deleted[256];
static const char *in_use;

static bool is_in(const char *list, const char *name)
{
	char key[64];

	snprintf(key, sizeof(key), " %s ", name);
	return strstr(list, key) != NULL;
}

static char loaded[256];

static int fake_delete(const char *name)
{
	char key[64];
	char *at;

	if (in_use && is_in(in_use, name))
		return -EWOULDBLOCK;
	snprintf(key, sizeof(key), " %s ", name);
	at = strstr(loaded, key);
	if (!at)
		return -ENOENT;
	memmove(at, at + strlen(key) - 1, strlen(at + strlen(key) - 1) + 1);
	strcat(deleted, name);
	strcat(deleted, ",");
	return 0;
}

static const char remove_table[] =
	"m\tfront\t/m/front.ko\tmid,base\t\n"
	"m\tmid\t/m/mid.ko\tbase\t\n"
	"m\tbase\t/m/base.ko\t-\t\n"
	"m\tother\t/m/other.ko\tbase\t\n"
	"m\tlone\t/m/lone.ko\t-\t\n"
	"a\tfs-front\tfront\n";

static void remove_setup(struct modtab *t, const char *now_loaded, const char *used)
{
	assert_int_equal(modtab_parse(remove_table, sizeof(remove_table) - 1, t, NULL), 0);
	snprintf(loaded, sizeof(loaded), "%s", now_loaded);
	deleted[0] = '\0';
	in_use = used;
	modprobe_delete_fn = fake_delete;
}

/* The module first, then what it needed, each dependency once it is free. */
static void remove_takes_dependencies_after(void **state)
{
	struct modtab t;

	(void)state;
	remove_setup(&t, " front mid base lone ", NULL);
	assert_int_equal(modprobe_remove(&t, "front"), 0);
	assert_string_equal(deleted, "front,mid,base,");
	assert_string_equal(loaded, " lone ");
	modtab_free(&t);
}

/* A dependency another module uses stays; by alias, as by name. */
static void remove_leaves_what_is_used(void **state)
{
	struct modtab t;

	(void)state;
	remove_setup(&t, " front mid base other ", " base ");
	assert_int_equal(modprobe_remove(&t, "fs-front"), 0);
	assert_string_equal(deleted, "front,mid,");
	assert_string_equal(loaded, " base other ");
	modtab_free(&t);
}

/* The named module's own failure is the answer, and nothing else goes. */
static void remove_reports_the_named_module(void **state)
{
	struct modtab t;

	(void)state;
	remove_setup(&t, " front mid base ", " front ");
	assert_int_equal(modprobe_remove(&t, "front"), -EWOULDBLOCK);
	assert_string_equal(deleted, "");
	assert_int_equal(modprobe_remove(&t, "lone"), -ENOENT);
	assert_int_equal(modprobe_remove(&t, "nosuch"), -ESRCH);
	modtab_free(&t);
}

static const char fs_table[] =
	"m\text4\t/m/ext4.ko\t-\t\n"
	"m\tbtrfs\t/m/btrfs.ko\t-\t\n"
	"m\tvfat\t/m/vfat.ko\t-\t\n"
	"m\toverlay\t/m/overlay.ko\t-\t\n"
	"m\t9p\t/m/9p.ko\t-\t\n"
	"a\tfs-9p\t9p\n"
	"a\tfs-btrfs\tbtrfs\n"
	"a\tfs-ext2\text4\n"
	"a\tfs-ext4\text4\n"
	"a\tfs-overlay\toverlay\n"
	"a\tfs-vfat\tvfat\n"
	"a\tfs-xfs\txfs\n"
	"a\tfs-*\tvfat\n"
	"a\tpci:v00001AF4d*\tvfat\n";

/* Disk types whose module the table has, the common roots first; no
 * type without a module, none that lives on no disk, no glob. */
static void fstypes_from_the_table(void **state)
{
	struct strv v = STRV_INIT;
	struct modtab t;

	(void)state;
	assert_int_equal(modtab_parse(fs_table, sizeof(fs_table) - 1, &t, NULL), 0);
	assert_int_equal(shellsetup_fstypes(&t, &v), 0);
	assert_int_equal(v.len, 4);
	assert_string_equal(v.items[0], "ext4");
	assert_string_equal(v.items[1], "btrfs");
	assert_string_equal(v.items[2], "ext2");
	assert_string_equal(v.items[3], "vfat");
	strv_free(&v);
	modtab_free(&t);
}

/* A fake kernel for loading: what was loaded, with which options; the
 * module "lbtest_bad" is refused. */
static char load_log[512];

static int fake_load(const char *path, const char *options)
{
	const char *base = strrchr(path, '/') + 1;

	if (strstr(base, "lbtest_bad"))
		return -EINVAL;
	snprintf(load_log + strlen(load_log), sizeof(load_log) - strlen(load_log), "%s[%s] ",
		 base, options);
	return 0;
}

static const char load_table[] =
	"m\tlbtest_front\t/x/lbtest_front.ko.xz\tlbtest_base\topt=1\n"
	"m\tlbtest_base\t/x/lbtest_base.ko\t-\t\n"
	"m\tlbtest_bad\t/x/lbtest_bad.ko\t-\t\n"
	"a\tfs-lbtest\tlbtest_front\n";

/* modprobe_run with argv on a table file; *err gets what it said on
 * stderr (malloc'd). Returns the exit status. */
static int run_modprobe(int argc, char *const argv[], const char *cmdline, char **err)
{
	char table[] = "/tmp/lifeboat-test-modprobe-XXXXXX", said[] = "/tmp/lifeboat-test-said-XXXXXX";
	int tfd = mkstemp(table), sfd = mkstemp(said), saved = dup(2), status;
	struct modprobe_request req;
	struct boot_args args;
	char msg[128];
	FILE *f;

	assert_true(tfd >= 0 && sfd >= 0 && saved >= 0);
	assert_int_equal(write(tfd, load_table, sizeof(load_table) - 1), sizeof(load_table) - 1);
	close(tfd);
	bootargs_init(&args);
	assert_int_equal(bootargs_parse(cmdline, NULL, &args), 0);
	assert_int_equal(modprobe_parse(argc, argv, &req, msg, sizeof(msg)), 0);
	load_log[0] = '\0';
	modload_load_fn = fake_load;
	fflush(stderr);
	dup2(sfd, 2);
	status = modprobe_run(&req, &args.drivers, table);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fdopen(sfd, "r");
	rewind(f);
	*err = calloc(1, 1024);
	assert_non_null(*err);
	assert_true(fread(*err, 1, 1023, f) < 1023);
	fclose(f);
	unlink(said);
	unlink(table);
	modprobe_request_free(&req);
	bootargs_free(&args);
	return status;
}

/* Dependencies first; the table's options, the command line's words, then
 * the typed ones; by alias as by name. */
static void load_with_options(void **state)
{
	char *const argv[] = { "modprobe", "lbtest-front", "x=2" };
	char *const by_alias[] = { "modprobe", "-q", "--", "fs-lbtest" };
	char *err;

	(void)state;
	assert_int_equal(run_modprobe(ARGC(argv), argv, "lbtest_front.y=3 quiet", &err), 0);
	assert_string_equal(load_log, "lbtest_base.ko[] lbtest_front.ko.xz[opt=1 y=3 x=2] ");
	assert_string_equal(err, "");
	free(err);
	assert_int_equal(run_modprobe(ARGC(by_alias), by_alias, "", &err), 0);
	assert_string_equal(load_log, "lbtest_base.ko[] lbtest_front.ko.xz[opt=1] ");
	free(err);
}

/* A module the kernel refuses is said once, naming its file; a name the
 * table does not know is said, unless -q. */
static void load_failures_said_once(void **state)
{
	char *const bad[] = { "modprobe", "lbtest_bad" };
	char *const unknown[] = { "modprobe", "lbtest_nosuch" };
	char *const quiet[] = { "modprobe", "-q", "lbtest_nosuch" };
	char *err;

	(void)state;
	assert_int_equal(run_modprobe(ARGC(bad), bad, "", &err), 1);
	assert_string_equal(err, "modprobe: loading /x/lbtest_bad.ko failed: Invalid argument "
			    "(dmesg may say more)\n");
	free(err);
	assert_int_equal(run_modprobe(ARGC(unknown), unknown, "", &err), 1);
	assert_non_null(strstr(err, "modprobe: lbtest_nosuch: not in this image's module table"));
	assert_null(strchr(strchr(err, '\n') + 1, '\n'));
	free(err);
	assert_int_equal(run_modprobe(ARGC(quiet), quiet, "", &err), 1);
	assert_string_equal(err, "");
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_name_and_params),
		cmocka_unit_test(parse_kernel_request),
		cmocka_unit_test(parse_remove_and_all),
		cmocka_unit_test(parse_refuses_unknown_and_empty),
		cmocka_unit_test(name_of_module_files),
		cmocka_unit_test(remove_takes_dependencies_after),
		cmocka_unit_test(remove_leaves_what_is_used),
		cmocka_unit_test(remove_reports_the_named_module),
		cmocka_unit_test(fstypes_from_the_table),
		cmocka_unit_test(load_with_options),
		cmocka_unit_test(load_failures_said_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
