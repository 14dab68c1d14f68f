/* Unit tests: the swsusp header parser, the resume signature probe on
 * mkswap'd files and the resume command line (the mountinfo check is
 * common/mountinfo.c's, in test_mountinfo.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init/bootargs.h"
#include "resume/sigprobe.h"
#include "resume/swsusp.h"

#define PAGE 4096

/* A page whose last bytes carry sig, and for S1SUSPEND the kernel's fields. */
static void make_page(unsigned char *page, size_t size, const char *sig, size_t sig_len)
{
	memset(page, 0, size);
	memcpy(page + size - 10, sig, sig_len);
}

static void plain_swap(void **state)
{
	unsigned char page[PAGE];
	struct swsusp_header h;

	(void)state;
	make_page(page, PAGE, "SWAPSPACE2", 10);
	assert_int_equal(swsusp_header_parse(page, PAGE, PAGE, &h), 0);
	assert_int_equal(h.kind, SWSUSP_SWAP);
	assert_string_equal(h.sig, "SWAPSPACE2");
	make_page(page, PAGE, "SWAP-SPACE", 10);
	assert_int_equal(swsusp_header_parse(page, PAGE, PAGE, &h), 0);
	assert_int_equal(h.kind, SWSUSP_SWAP);
}

static void kernel_image_fields(void **state)
{
	unsigned char page[PAGE];
	struct swsusp_header h;
	uint64_t image = 0x123456789aULL;
	uint32_t flags = 6;

	(void)state;
	make_page(page, PAGE, "S1SUSPEND", 10);
	memcpy(page + PAGE - 20, "SWAPSPACE2", 10);
	memcpy(page + PAGE - 32, &image, 8);
	memcpy(page + PAGE - 24, &flags, 4);
	assert_int_equal(swsusp_header_parse(page, PAGE, PAGE, &h), 0);
	assert_int_equal(h.kind, SWSUSP_KERNEL);
	assert_string_equal(h.sig, "S1SUSPEND");
	assert_string_equal(h.orig_sig, "SWAPSPACE2");
	assert_true(h.image == image);
	assert_int_equal(h.flags, 6);
}

static void other_kinds(void **state)
{
	static const struct { const char *sig; size_t len; enum swsusp_kind kind; } cases[] = {
		{ "ULSUSPEND", 10, SWSUSP_USERSPACE },
		{ "S2SUSPEND", 10, SWSUSP_OTHER },
		{ "LINHIB0001", 10, SWSUSP_OTHER },
		{ "S1SUSPENDX", 10, SWSUSP_NONE },   /* no NUL after the 9 letters */
		{ "SWAPSPACE1", 10, SWSUSP_NONE },
		{ "", 0, SWSUSP_NONE },
	};
	unsigned char page[PAGE];
	struct swsusp_header h;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_page(page, PAGE, cases[i].sig, cases[i].len);
		assert_int_equal(swsusp_header_parse(page, PAGE, PAGE, &h), 0);
		assert_int_equal(h.kind, cases[i].kind);
	}
	/* Only kernel images have their fields read. */
	make_page(page, PAGE, "ULSUSPEND", 10);
	memset(page + PAGE - 32, 0xff, 8);
	assert_int_equal(swsusp_header_parse(page, PAGE, PAGE, &h), 0);
	assert_true(h.image == 0);
}

static void larger_pages_and_bad_sizes(void **state)
{
	size_t size = 16384;
	unsigned char *page = malloc(size);
	struct swsusp_header h;

	(void)state;
	assert_non_null(page);
	make_page(page, size, "S1SUSPEND", 10);
	assert_int_equal(swsusp_header_parse(page, size, size, &h), 0);
	assert_int_equal(h.kind, SWSUSP_KERNEL);
	/* With a 4 KiB page the signature is elsewhere: nothing there. */
	assert_int_equal(swsusp_header_parse(page, size, PAGE, &h), 0);
	assert_int_equal(h.kind, SWSUSP_NONE);
	assert_int_equal(swsusp_header_parse(page, size, 3000, &h), -EINVAL);
	assert_int_equal(swsusp_header_parse(page, size, 2048, &h), -EINVAL);
	assert_int_equal(swsusp_header_parse(page, size, 131072, &h), -EINVAL);
	assert_int_equal(swsusp_header_parse(page, PAGE - 1, PAGE, &h), -EINVAL);
	free(page);
}

static void nonprintable_signature_is_cleaned(void **state)
{
	unsigned char page[PAGE];
	struct swsusp_header h;

	(void)state;
	make_page(page, PAGE, "AB\033[2Jxyz", 10);
	assert_int_equal(swsusp_header_parse(page, PAGE, PAGE, &h), 0);
	assert_int_equal(h.kind, SWSUSP_NONE);
	assert_string_equal(h.sig, "AB");
}

/* A file of pages: a mkswap'd area at page `at`, 64 pages long. */
static int make_swap_file(char *path, unsigned int at)
{
	char cmd[512];
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "truncate -s %u %s.area && mkswap -q %s.area >/dev/null 2>&1 && "
		 "dd if=%s.area of=%s bs=4096 seek=%u conv=notrunc status=none && rm -f %s.area",
		 64 * PAGE, path, path, path, path, at, path);
	return system(cmd) == 0 ? 0 : -1;
}

static void patch_signature(const char *path, unsigned int at, const char *sig)
{
	FILE *f = fopen(path, "r+");

	assert_non_null(f);
	assert_int_equal(fseek(f, (long)at * PAGE + PAGE - 20, SEEK_SET), 0);
	assert_int_equal(fwrite("SWAPSPACE2", 1, 10, f), 10);
	assert_int_equal(fwrite(sig, 1, 10, f), 10);
	fclose(f);
}

/* The probe against real mkswap output, read both ways; a swap file's
 * area found at its page offset, as resume_offset= gives it. */
static void probe_mkswap_output(void **state)
{
	char path[] = "/tmp/lifeboat-resume-XXXXXX";
	struct resume_sig sig;

	(void)state;
	if (sysconf(_SC_PAGESIZE) != PAGE || access("/sbin/mkswap", X_OK) != 0)
		fail_msg("needs mkswap (util-linux) and 4 KiB pages");
	assert_int_equal(make_swap_file(path, 3), 0);
	assert_int_equal(resume_sig_probe(path, 3, &sig), 0);
	assert_int_equal(sig.header.kind, SWSUSP_SWAP);
	assert_string_equal(sig.blkid_type, "swap");
	assert_int_equal(resume_sig_probe(path, 0, &sig), 0);
	assert_int_equal(sig.header.kind, SWSUSP_NONE);
	patch_signature(path, 3, "S1SUSPEND");
	assert_int_equal(resume_sig_probe(path, 3, &sig), 0);
	assert_int_equal(sig.header.kind, SWSUSP_KERNEL);
	assert_string_equal(sig.header.orig_sig, "SWAPSPACE2");
	assert_string_equal(sig.blkid_type, "swsuspend");
	assert_string_equal(sig.blkid_version, "s1suspend");
	patch_signature(path, 3, "ULSUSPEND");
	assert_int_equal(resume_sig_probe(path, 3, &sig), 0);
	assert_int_equal(sig.header.kind, SWSUSP_USERSPACE);
	assert_string_equal(sig.blkid_version, "ulsuspend");
	/* Past the end: the page cannot be read. */
	assert_int_equal(resume_sig_probe(path, 1000, &sig), -ENODATA);
	unlink(path);
	assert_int_equal(resume_sig_probe(path, 0, &sig), -ENOENT);
}

static void resume_cmdline(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_string_equal(a.resume.device, "");
	assert_false(a.resume.noresume);
	assert_int_equal(a.resume.timeout_sec, RESUME_DEFAULT_TIMEOUT);
	assert_int_equal(bootargs_parse("root=/dev/vda resume=UUID=ab-cd resume_offset=34816 "
				       "rd.resume.timeout=9", NULL, &a), 0);
	assert_string_equal(a.resume.device, "UUID=ab-cd");
	assert_true(a.resume.offset == 34816);
	assert_int_equal(a.resume.timeout_sec, 9);
	assert_int_equal(a.root.timeout_sec, ROOT_DEFAULT_TIMEOUT);
	assert_false(a.resume.noresume);
	assert_int_equal(bootargs_parse("noresume resume=/dev/vdb", NULL, &a), 0);
	assert_true(a.resume.noresume);
	assert_string_equal(a.resume.device, "/dev/vdb");
	/* Bad values are refused and leave the earlier ones. */
	assert_int_equal(bootargs_parse("resume_offset=-1", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("resume_offset=12x", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("resume_offset=99999999999999999999999", NULL, &a), -EINVAL);
	assert_int_equal(bootargs_parse("rd.resume.timeout=soon", NULL, &a), -EINVAL);
	assert_true(a.resume.offset == 34816);
	assert_int_equal(a.resume.timeout_sec, 9);
	/* rd.timeout and rd.resume.timeout are separate. */
	assert_int_equal(bootargs_parse("rd.timeout=3", NULL, &a), 0);
	assert_int_equal(a.root.timeout_sec, 3);
	assert_int_equal(a.resume.timeout_sec, 9);
	bootargs_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_swap),
		cmocka_unit_test(kernel_image_fields),
		cmocka_unit_test(other_kinds),
		cmocka_unit_test(larger_pages_and_bad_sizes),
		cmocka_unit_test(nonprintable_signature_is_cleaned),
		cmocka_unit_test(probe_mkswap_output),
		cmocka_unit_test(resume_cmdline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
