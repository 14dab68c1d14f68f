/* Unit tests: /proc/cpuinfo parsing, microcode file names, the early blobs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/feature/microcode.h"
#include "gen/image/image.h"

static const char intel_cpuinfo[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 142\n"
	"model name\t: Intel(R) Core(TM) i7-8650U\nstepping\t: 10\nmicrocode\t: 0xf0\n\n"
	"processor\t: 1\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nstepping\t: 1\n";

static void parses_the_first_processor(void **state)
{
	struct cpu_id cpu;

	(void)state;
	assert_int_equal(microcode_cpuinfo_parse(intel_cpuinfo, strlen(intel_cpuinfo), &cpu), 0);
	assert_string_equal(cpu.vendor, "GenuineIntel");
	assert_int_equal(cpu.family, 6);
	assert_int_equal(cpu.model, 142);   /* not "model name" */
	assert_int_equal(cpu.stepping, 10);
}

static void rejects_incomplete_or_bad_cpuinfo(void **state)
{
	static const struct { const char *text; int err; } cases[] = {
		{ "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n", -ENOENT },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 142\n", -ENOENT },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: six\nmodel\t: 1\nstepping\t: 1\n", -EINVAL },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t: 1\nstepping\t: \n", -EINVAL },
		{ "vendor_id\t: AVeryLongVendorNameIndeed\ncpu family\t: 6\n", -EINVAL },
		/* The second processor's fields do not complete the first's. */
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\n\nmodel\t: 1\nstepping\t: 1\n", -ENOENT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cpu_id cpu;

		assert_int_equal(microcode_cpuinfo_parse(cases[i].text, strlen(cases[i].text), &cpu), cases[i].err);
	}
}

static void names_the_host_file(void **state)
{
	static const struct { struct cpu_id cpu; const char *name; int err; } cases[] = {
		{ { "GenuineIntel", 6, 142, 10 }, "intel-ucode/06-8e-0a", 0 },
		{ { "GenuineIntel", 15, 4, 1 },   "intel-ucode/0f-04-01", 0 },
		{ { "AuthenticAMD", 25, 1, 1 },   "amd-ucode/microcode_amd_fam19h.bin", 0 },
		{ { "AuthenticAMD", 21, 2, 0 },   "amd-ucode/microcode_amd_fam15h.bin", 0 },
		{ { "AuthenticAMD", 16, 4, 2 },   "amd-ucode/microcode_amd.bin", 0 },
		{ { "CentaurHauls", 6, 15, 1 },   "", -ENOTSUP },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[128] = "";

		assert_int_equal(microcode_host_name(&cases[i].cpu, name, sizeof(name)), cases[i].err);
		if (cases[i].err == 0)
			assert_string_equal(name, cases[i].name);
	}
}

static char fwdir[] = "/tmp/lifeboat-ucode-XXXXXX";

static void put(const char *rel, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fwdir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int fw_setup(void **state)
{
	char dir[256];

	(void)state;
	if (!mkdtemp(fwdir))
		return -1;
	snprintf(dir, sizeof(dir), "%s/intel-ucode", fwdir);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/amd-ucode", fwdir);
	mkdir(dir, 0755);
	put("intel-ucode/06-9e-0d", "B");
	put("intel-ucode/06-8e-0a", "A");
	put("amd-ucode/microcode_amd_fam19h.bin", "M19");
	put("amd-ucode/microcode_amd_fam19h.bin.asc", "signature, not microcode");
	return 0;
}

static int fw_teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fwdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Count what `all` and `host` put in, by the blobs' names and sizes seen
 * through the image API: two vendors for all, one for an AMD host. */
static void adds_all_or_the_host_cpus(void **state)
{
	struct image *all = image_new(), *host = image_new();
	struct cpu_id amd = { "AuthenticAMD", 25, 1, 1 }, intel = { "GenuineIntel", 6, 60, 3 };
	unsigned long long bytes[IMAGE_KIND_COUNT];
	size_t added = 9;

	(void)state;
	assert_int_equal(microcode_add(all, NULL, fwdir, &added), 0);
	assert_int_equal(added, 2);
	assert_true(image_has(all, "/kernel/x86/microcode/GenuineIntel.bin"));
	assert_true(image_has(all, "/kernel/x86/microcode/AuthenticAMD.bin"));
	image_kind_bytes(all, bytes);
	assert_int_equal(bytes[IMAGE_KIND_OTHER], 2 + 3);   /* "AB" sorted, "M19"; no .asc */
	assert_int_equal(microcode_add(host, &amd, fwdir, &added), 0);
	assert_int_equal(added, 1);
	assert_false(image_has(host, "/kernel/x86/microcode/GenuineIntel.bin"));
	assert_true(image_has(host, "/kernel/x86/microcode/AuthenticAMD.bin"));
	image_free(host);
	host = image_new();
	/* No file for this Intel CPU: nothing, and no error. */
	assert_int_equal(microcode_add(host, &intel, fwdir, &added), 0);
	assert_int_equal(added, 0);
	assert_false(image_has(host, "/kernel"));
	image_free(all);
	image_free(host);
}

static void early_image_follows_the_mode(void **state)
{
	char cpuinfo[300];
	struct image *early = NULL;
	FILE *f;

	(void)state;
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", fwdir);
	f = fopen(cpuinfo, "w");
	assert_non_null(f);
	fputs("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 158\nstepping\t: 13\n", f);
	fclose(f);
	assert_int_equal(microcode_early(MICROCODE_NONE, false, fwdir, cpuinfo, &early), 0);
	assert_null(early);
	assert_int_equal(microcode_early(MICROCODE_AUTO, true, fwdir, cpuinfo, &early), 0);
	assert_non_null(early);
	assert_true(image_has(early, "/kernel/x86/microcode/GenuineIntel.bin"));
	assert_false(image_has(early, "/kernel/x86/microcode/AuthenticAMD.bin"));
	image_free(early);
	/* Generic images carry every vendor's. */
	assert_int_equal(microcode_early(MICROCODE_AUTO, false, fwdir, cpuinfo, &early), 0);
	assert_true(image_has(early, "/kernel/x86/microcode/AuthenticAMD.bin"));
	image_free(early);
	/* A host without x86 identity (arm64): nothing, no error. */
	assert_int_equal(microcode_early(MICROCODE_AUTO, true, fwdir, "/nonexistent", &early), 0);
	assert_null(early);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_first_processor),
		cmocka_unit_test(rejects_incomplete_or_bad_cpuinfo),
		cmocka_unit_test(names_the_host_file),
		cmocka_unit_test(adds_all_or_the_host_cpus),
		cmocka_unit_test(early_image_follows_the_mode),
	};

	return cmocka_run_group_tests(tests, fw_setup, fw_teardown);
}
