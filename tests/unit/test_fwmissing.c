/* Tests for the warnings about missing firmware (gen/kmod/kmods_emit.c): a
 * host-only image's modules each warn, as a device of this machine may need
 * the firmware; a generic image counts its modules in one warning, and -v
 * names them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen_report.h"
#include "gen/kmod/kmods.h"
#include "tests/unit/kernel_fixture.h"

#define NO_FIRMWARE "/nonexistent-firmware"

/* What kmods_emit says on stderr for the modules add() chose. */
static char *emit_messages(int (*add)(struct kmods *k))
{
	char path[] = "/tmp/lifeboat-fw-XXXXXX", *text = calloc(1, 1 << 16);
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	struct image *img = image_new();
	struct kmods *k;

	assert_true(fd >= 0 && saved >= 0 && text && img);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(add(k), 0);
	assert_int_equal(kmods_emit(k, img, NO_FIRMWARE), 0);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	assert_true(pread(fd, text, (1 << 16) - 1, 0) >= 0);
	close(fd);
	unlink(path);
	kmods_free(k);
	image_free(img);
	return text;
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *at = text; (at = strstr(at, what)); at++)
		n++;
	return n;
}

/* advansys: a SCSI HBA driver of the generic set that declares firmware. */
static int add_one_hba(struct kmods *k)
{
	return kmods_add(k, "advansys", "test");
}

/* A host-only image's own module: a warning of its own. */
static void host_module_warns(void **state)
{
	char *text;

	(void)state;
	NEED_KERNEL();
	gen_verbose = false;
	text = emit_messages(add_one_hba);
	assert_int_equal(count_of(text, "warning:"), 1);
	assert_non_null(strstr(text, "warning: module advansys: "));
	assert_non_null(strstr(text, " firmware file(s) not found in " NO_FIRMWARE " (first: advansys/"));
	free(text);
}

/* The generic set: one warning however many modules lack firmware; -v
 * names each of them (not as a warning). */
static void generic_set_one_line(void **state)
{
	char *text, *warning;
	size_t counted = 0;

	(void)state;
	NEED_KERNEL();
	gen_verbose = true;
	text = emit_messages(kmods_add_generic);
	gen_verbose = false;
	assert_int_equal(count_of(text, "warning:"), 1);
	warning = strstr(text, "warning: ");
	assert_int_equal(sscanf(warning, "warning: %zu modules of the generic set declare firmware "
				"not found in " NO_FIRMWARE ",", &counted), 1);
	assert_non_null(strstr(warning, "(lifeboat build -v lists the modules)\n"));
	/* Debian 12's kernel: advansys, aic94xx, bfa, isci, qla1280, qla2xxx,
	 * ums_eneub6250, wd719x. */
	assert_true(counted >= 2);
	assert_int_equal(count_of(text, "firmware file(s) not found in " NO_FIRMWARE), counted);
	assert_non_null(strstr(text, "\nlifeboat: module advansys: "));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_module_warns),
		cmocka_unit_test(generic_set_one_line),
	};

	return cmocka_run_group_tests(tests, kernel_find, NULL);
}
