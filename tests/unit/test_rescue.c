/* Unit tests: rescue (rd.shell/rd.break, stages, the built-in prompt's
 * parser, the password check) and its generator side (busybox applet
 * table, /etc/shadow). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/auth.h"
#include "init/bootargs.h"
#include "bootlib/stage.h"
#include "common/layout.h"
#include "gen/archive/archive.h"
#include "gen/archive/sink.h"
#include "gen/opts/build_opts.h"
#include "gen/elf/applets.h"
#include "gen/feature/rescue_pack.h"
#include "gen/host/shadow.h"
#include "gen/image/image.h"
#include "rescue/prompt.h"

static void shell_defaults_on_and_parses_off(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_true(a.rescue.shell);
	assert_int_equal(a.rescue.break_stages, 0);
	assert_int_equal(bootargs_parse("rd.shell=0", NULL, &a), 0);
	assert_false(a.rescue.shell);
	assert_int_equal(bootargs_parse("rd.shell", NULL, &a), 0);
	assert_true(a.rescue.shell);
	assert_int_equal(bootargs_parse("rd.shell=no", NULL, &a), 0);
	assert_false(a.rescue.shell);
	bootargs_free(&a);
}

static void break_stages_accumulate(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.break=pre-mount rd.break=cmdline", NULL, &a), 0);
	assert_int_equal(a.rescue.break_stages, STAGE_BIT(STAGE_PRE_MOUNT) |
			 STAGE_BIT(STAGE_CMDLINE));
	/* rd.break alone: before switch_root, as dracut's. */
	assert_int_equal(bootargs_parse("rd.break", NULL, &a), 0);
	assert_true(a.rescue.break_stages & STAGE_BIT(STAGE_PRE_PIVOT));
	bootargs_free(&a);
}

static void break_unknown_stage_is_an_error(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.break=nowhere root=/dev/vda", NULL, &a), -EINVAL);
	assert_int_equal(a.rescue.break_stages, 0);
	assert_string_equal(a.root.root, "/dev/vda");
	bootargs_free(&a);
}

static void stage_names_round_trip(void **state)
{
	(void)state;
	for (int s = 0; s < STAGE_COUNT; s++)
		assert_int_equal(stage_parse(stage_name(s)), s);
	assert_int_equal(stage_parse("pre-trigger"), STAGE_PRE_UDEV);
	assert_int_equal(stage_parse("initqueue"), STAGE_PRE_UDEV);
	assert_int_equal(stage_parse("cleanup"), STAGE_PRE_PIVOT);
	assert_int_equal(stage_parse(""), -EINVAL);
	assert_int_equal(stage_parse("Pre-Mount"), -EINVAL);
	assert_string_equal(stage_name(STAGE_COUNT), "?");
}

static void prompt_words(void **state)
{
	(void)state;
	assert_int_equal(prompt_parse("help"), PROMPT_HELP);
	assert_int_equal(prompt_parse("  devices \n"), PROMPT_DEVICES);
	assert_int_equal(prompt_parse("report"), PROMPT_REPORT);
	assert_int_equal(prompt_parse("retry"), PROMPT_CONTINUE);
	assert_int_equal(prompt_parse("continue"), PROMPT_CONTINUE);
	assert_int_equal(prompt_parse("exit"), PROMPT_CONTINUE);
	assert_int_equal(prompt_parse("reboot"), PROMPT_REBOOT);
	assert_int_equal(prompt_parse("\tpoweroff"), PROMPT_POWEROFF);
	assert_int_equal(prompt_parse(""), PROMPT_EMPTY);
	assert_int_equal(prompt_parse("   \t"), PROMPT_EMPTY);
	assert_int_equal(prompt_parse("reboo"), -EINVAL);
	assert_int_equal(prompt_parse("rebooted"), -EINVAL);
	assert_int_equal(prompt_parse("help me"), -EINVAL);
	assert_int_equal(prompt_parse("HELP"), -EINVAL);
}

static const char applet_blob[] =
	"\x7f" "ELF junk [\0not-sorted\0" "more\0" "[\0[[\0ash\0cat\0mount\0sh\0zcat\0" "\x01\x02tail";

static void applets_from_a_blob(void **state)
{
	struct strv v = STRV_INIT;

	(void)state;
	assert_int_equal(applets_parse(applet_blob, sizeof(applet_blob) - 1, &v), 7);
	assert_int_equal(v.len, 7);
	assert_string_equal(v.items[0], "[");
	assert_string_equal(v.items[1], "[[");
	assert_string_equal(v.items[2], "ash");
	assert_string_equal(v.items[6], "zcat");
	strv_free(&v);
}

static void applets_run_stops_at_disorder(void **state)
{
	static const char blob[] = "[\0[[\0cat\0ash\0zz\0";
	static const char too_few[] = "xx[\0[[\0";
	struct strv v = STRV_INIT;

	(void)state;
	assert_int_equal(applets_parse(blob, sizeof(blob) - 1, &v), 3);
	assert_string_equal(v.items[2], "cat");
	strv_free(&v);
	assert_int_equal(applets_parse(too_few, sizeof(too_few) - 1, &v), -ENOENT);
	assert_int_equal(applets_parse("", 0, &v), -ENOENT);
	/* A name running to the end of the buffer without its NUL is no name. */
	assert_int_equal(applets_parse("[\0[[\0ash\0cat", 12, &v), 3);
	strv_free(&v);
}

/* The host's busybox: the names read from the file are those it lists. */
static void applets_match_host_busybox(void **state)
{
	struct strv v = STRV_INIT;
	char line[64];
	size_t i = 0;
	FILE *p;

	(void)state;
	if (access("/bin/busybox", X_OK) != 0) {
		fail_msg("/bin/busybox missing: install busybox-static (tests/install-deps.sh)");
		return;
	}
	assert_true(applets_read_file("/bin/busybox", &v) > 100);
	p = popen("/bin/busybox --list", "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		assert_true(i < v.len);
		assert_string_equal(v.items[i], line);
		i++;
	}
	pclose(p);
	assert_int_equal(i, v.len);
	strv_free(&v);
}

/* The applet list's content, from the image as written. */
static int applet_list_take(const struct archive_entry *e, void *ctx)
{
	char **list = ctx;

	if (strcmp(e->path, LAYOUT_BUSYBOX_APPLETS + 1) == 0)
		*list = strndup((const char *)e->data, e->size);
	return 0;
}

/* busybox's applet links never shadow a program the image has already, in
 * any directory of the shell's PATH, nor the init's modprobe; the others
 * are linked. */
static void applets_leave_real_programs(void **state)
{
	struct build_opts o;
	struct image *img = image_new();
	char init[] = "/bin/true", out[] = "/tmp/lifeboat-test-rescue-XXXXXX", *list = NULL;
	int fd = mkstemp(out);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	build_opts_init(&o);
	o.mode = BUILD_GENERIC;
	o.rescue = strdup("busybox");
	assert_int_equal(image_add_file(img, "/usr/sbin/mke2fs", "/usr/sbin/mke2fs", 0755), 0);
	assert_int_equal(rescue_pack(&o, img, init), 0);
	/* busybox itself is xz'd, its links a list: the init makes them on first use. */
	assert_true(image_has(img, LAYOUT_BUSYBOX_XZ));
	assert_false(image_has(img, LAYOUT_BUSYBOX));
	assert_true(image_has(img, LAYOUT_BUSYBOX_DIR));
	assert_true(image_has(img, LAYOUT_BUSYBOX_APPLETS));
	assert_int_equal(image_write(img, out, SINK_NONE, 0), 0);
	assert_int_equal(archive_walk_file(out, applet_list_take, &list), 0);
	assert_non_null(list);
	assert_non_null(strstr(list, "\nls\n"));
	assert_null(strstr(list, "mke2fs"));
	assert_null(strstr(list, "busybox"));
	/* busybox's modprobe needs modules.dep: the init is the image's
	 * modprobe; its other module applets stay. */
	assert_null(strstr(list, "\nmodprobe\n"));
	assert_non_null(strstr(list, "\ninsmod\n"));
	assert_non_null(strstr(list, "\nlsmod\n"));
	unlink(out);
	free(list);
	image_free(img);
	build_opts_free(&o);
}

static void shadow_finds_root(void **state)
{
	static const char text[] = "daemon:*:1:0:99999:7:::\nroot:$6$salt$abc:19000:0:99999:7:::\nuser:$y$x:1::::::\n";
	char hash[64];

	(void)state;
	assert_int_equal(shadow_root_hash(text, strlen(text), hash, sizeof(hash)), 0);
	assert_string_equal(hash, "$6$salt$abc");
	/* Last line without newline, no other fields. */
	assert_int_equal(shadow_root_hash("x:y\nroot:$1$a$b", 15, hash, sizeof(hash)), 0);
	assert_string_equal(hash, "$1$a$b");
}

static void shadow_refuses_locked_and_missing(void **state)
{
	char hash[8];

	(void)state;
	assert_int_equal(shadow_root_hash("root:!$6$x$y:1::::::\n", 21, hash, sizeof(hash)), -EPERM);
	assert_int_equal(shadow_root_hash("root:*:1::::::\n", 15, hash, sizeof(hash)), -EPERM);
	assert_int_equal(shadow_root_hash("root::1::::::\n", 14, hash, sizeof(hash)), -EPERM);
	assert_int_equal(shadow_root_hash("rooty:$6$a:1\n", 13, hash, sizeof(hash)), -ENOENT);
	assert_int_equal(shadow_root_hash("", 0, hash, sizeof(hash)), -ENOENT);
	assert_int_equal(shadow_root_hash("root:$6$longerthan8:1\n", 22, hash, sizeof(hash)), -ENAMETOOLONG);
	assert_int_equal(shadow_root_hash("root:$6\0x:1\n", 12, hash, sizeof(hash)), -EINVAL);
}

/* crypt(3) through the init's dlopen of libcrypt, against a hash made by
 * another implementation (openssl passwd -6 -salt lifeboat secret). */
static void auth_checks_with_crypt(void **state)
{
	static const char hash[] =
		"$6$lifeboat$vL5SyZrcyalzvkz7kLBdGPX9SY7TaJljRqQwTTX.X2G.vHBNNac.PvK1FYtMUUv0e/ndJ3MwOvnEjwph8vVwe/";

	(void)state;
	assert_int_equal(auth_check(hash, "secret"), 0);
	assert_int_equal(auth_check(hash, "Secret"), -EACCES);
	assert_int_equal(auth_check(hash, ""), -EACCES);
	assert_int_equal(auth_check("!", "secret"), -EACCES);
}

static void auth_file_load(void **state)
{
	char path[] = "/tmp/lifeboat-auth-XXXXXX";
	char hash[64];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "$6$a$b\n", 7), 7);
	close(fd);
	assert_int_equal(auth_load(path, hash, sizeof(hash)), 0);
	assert_string_equal(hash, "$6$a$b");
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "a:b\n", 4), 4);
	close(fd);
	assert_int_equal(auth_load(path, hash, sizeof(hash)), -EINVAL);
	unlink(path);
	assert_int_equal(auth_load(path, hash, sizeof(hash)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shell_defaults_on_and_parses_off),
		cmocka_unit_test(break_stages_accumulate),
		cmocka_unit_test(break_unknown_stage_is_an_error),
		cmocka_unit_test(stage_names_round_trip),
		cmocka_unit_test(prompt_words),
		cmocka_unit_test(applets_from_a_blob),
		cmocka_unit_test(applets_run_stops_at_disorder),
		cmocka_unit_test(applets_match_host_busybox),
		cmocka_unit_test(applets_leave_real_programs),
		cmocka_unit_test(shadow_finds_root),
		cmocka_unit_test(shadow_refuses_locked_and_missing),
		cmocka_unit_test(auth_checks_with_crypt),
		cmocka_unit_test(auth_file_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
