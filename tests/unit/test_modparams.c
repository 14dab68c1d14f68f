/* Unit tests: bootlib/modparams.c, a module's MODULE.PARAM=VALUE words
 * kept by the init's one parse of the command line (bootlib/cmdline.c)
 * and handed to the module as modprobe hands them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "init/bootargs.h"
#include "bootlib/modparams.h"

/* The options module gets from the command lines given, applied in order
 * (the image's /etc/cmdline.d first, then the kernel's). */
static void check_lines(const char *image_line, const char *kernel_line, const char *module,
			const char *want)
{
	static struct boot_args args;
	char *got = NULL;

	bootargs_init(&args);
	assert_int_equal(bootargs_parse(image_line, NULL, &args), 0);
	assert_int_equal(bootargs_parse(kernel_line, NULL, &args), 0);
	assert_int_equal(modparams_for(&args.drivers.params, module, &got), 0);
	assert_string_equal(got, want);
	free(got);
	bootargs_free(&args);
}

static void check(const char *cmdline, const char *module, const char *want)
{
	check_lines("", cmdline, module, want);
}

static void words(void **state)
{
	(void)state;
	check("", "ramoops", "");
	check("root=/dev/vda ro", "ramoops", "");
	check("ramoops.mem_address=0x1e000000 quiet ramoops.mem_size=0x100000", "ramoops",
	      "mem_address=0x1e000000 mem_size=0x100000");
	/* '-' and '_' alike, in the word and in the name. */
	check("nvme-core.default_ps_max_latency_us=0", "nvme_core", "default_ps_max_latency_us=0");
	check("nvme_core.x=1", "nvme-core", "x=1");
	/* A boolean without a value; a value with a blank, quoted again. */
	check("usbcore.nousb \"dm_mod.dm_mq=a b\" dm_mod.y=\"c d\"", "dm_mod",
	      "dm_mq=\"a b\" y=\"c d\"");
	check("usbcore.nousb", "usbcore", "nousb");
	/* Not this module: a longer name, no dot, nothing after the dot. */
	check("ramoopsx.a=1 ramoops ramoops. ramoops=1", "ramoops", "");
	check("a.b=1", "", "");
}

/* The image's words (lifeboat build --cmdline) reach the module too, before
 * the kernel's, so that the kernel's value wins. */
static void image_then_kernel(void **state)
{
	(void)state;
	check_lines("root=LABEL=x virtio_blk.num_request_queues=1", "", "virtio_blk",
		    "num_request_queues=1");
	check_lines("loop.max_loop=7 loop.max_part=2", "quiet loop.max_loop=9", "loop",
		    "max_loop=7 max_part=2 max_loop=9");
}

static void which_words_are_kept(void **state)
{
	(void)state;
	assert_true(modparams_is_word("ramoops.mem_size=0x100000"));
	assert_true(modparams_is_word("usbcore.nousb"));
	assert_true(modparams_is_word("a.b=x.y=z"));
	assert_false(modparams_is_word("root=/dev/vda"));
	assert_false(modparams_is_word("root=a.b"));       /* the dot is in the value */
	assert_false(modparams_is_word(".b=1"));
	assert_false(modparams_is_word("a.=1"));
	assert_false(modparams_is_word("quiet"));
	/* The initramfs's own words, and secrets, are kept nowhere. */
	assert_false(modparams_is_word("rd.udev.log_level=3"));
	assert_false(modparams_is_word("rd.iscsi.password=s3cret"));
	/* Words the parser knows are not handed to a module either. */
	check("fsck.mode=force vconsole.keymap=de rd.lvm.vg=v", "fsck", "");
	check("vconsole.keymap=de", "vconsole", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(words),
		cmocka_unit_test(image_then_kernel),
		cmocka_unit_test(which_words_are_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
