/* Unit tests: bootlib/modparams.c, a module's MODULE.PARAM=VALUE words
 * taken from the kernel command line as modprobe takes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/modparams.h"

static void check(const char *cmdline, const char *module, const char *want)
{
	char *got = NULL;

	assert_int_equal(modparams_from_cmdline(cmdline, module, &got), 0);
	assert_string_equal(got, want);
	free(got);
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

static void long_word_left_out(void **state)
{
	char *line = malloc(5000), *got = NULL;

	(void)state;
	assert_non_null(line);
	strcpy(line, "m.v=");
	memset(line + 4, 'x', 4500);
	strcpy(line + 4504, " m.w=1");
	assert_int_equal(modparams_from_cmdline(line, "m", &got), 0);
	assert_string_equal(got, "w=1");
	free(got);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(words),
		cmocka_unit_test(long_word_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
