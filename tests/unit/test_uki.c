/* Tests for gen/uki: reading a PE32+ stub's headers, appending the unified
 * kernel image's sections, the checksum, and every refusal. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "common/fileread.h"
#include "gen/uki/pe.h"
#include "gen/uki/uki.h"
#include "tests/unit/pe_fixture.h"

static uint8_t stub[FIX_LEN + 0x100];

static const uint8_t linux_bytes[] = "kernel bytes, longer than the others: 0123456789";
static const uint8_t initrd_bytes[] = "070701 initrd";
static const struct uki_section two[] = {
	{ ".initrd", initrd_bytes, sizeof(initrd_bytes) },
	{ ".linux", linux_bytes, sizeof(linux_bytes) },
};

static const uint8_t *section_entry(const uint8_t *img, const struct pe_layout *pe, int i)
{
	return img + pe->table_offset + (size_t)i * PE_SECTION_HEADER_SIZE;
}

/* The stored checksum is what pe_checksum gives with the field zeroed. */
static void assert_checksum(uint8_t *img, size_t len, const struct pe_layout *pe)
{
	uint32_t stored = pe_get32(img + pe->opt_offset + PE_OPT_CHECKSUM);

	pe_put32(img + pe->opt_offset + PE_OPT_CHECKSUM, 0);
	assert_int_equal(pe_checksum(img, len), stored);
	pe_put32(img + pe->opt_offset + PE_OPT_CHECKSUM, stored);
}

static void test_layout_of_fixture(void **state)
{
	struct pe_layout pe;
	const char *why = NULL;
	size_t len = pe_fixture(stub, 0);

	(void)state;
	assert_int_equal(pe_layout_read(stub, len, &pe, &why), 0);
	assert_int_equal(pe.n_sections, 1);
	assert_int_equal(pe.table_offset, FIX_TABLE);
	assert_int_equal(pe.section_align, 0x1000);
	assert_int_equal(pe.file_align, 0x200);
	assert_int_equal(pe.room_end, 0x400);
	assert_int_equal(pe.vm_end, 0x1200);
	assert_int_equal(pe.raw_end, 0x600);
}

static void test_assemble_places_sections(void **state)
{
	struct pe_layout pe;
	const char *why = NULL;
	uint8_t *img = NULL;
	size_t out_len = 0, len = pe_fixture(stub, 0);
	const uint8_t *init_e, *linux_e;

	(void)state;
	assert_int_equal(uki_assemble(stub, len, two, 2, &img, &out_len, &why), 0);
	assert_int_equal(pe_layout_read(img, out_len, &pe, &why), 0);
	assert_int_equal(pe.n_sections, 3);
	init_e = section_entry(img, &pe, 1);
	linux_e = section_entry(img, &pe, 2);
	assert_memory_equal(init_e, ".initrd\0", 8);
	assert_memory_equal(linux_e, ".linux\0\0", 8);
	/* Pages in memory after .text, FileAlignment in the file, in order. */
	assert_int_equal(pe_get32(init_e + 12), 0x2000);
	assert_int_equal(pe_get32(linux_e + 12), 0x3000);
	assert_int_equal(pe_get32(init_e + 8), sizeof(initrd_bytes));
	assert_int_equal(pe_get32(init_e + 20), 0x600);
	assert_int_equal(pe_get32(init_e + 16), 0x200);
	assert_int_equal(pe_get32(linux_e + 20), 0x800);
	assert_int_equal(out_len, 0xa00);
	assert_memory_equal(img + 0x600, initrd_bytes, sizeof(initrd_bytes));
	assert_memory_equal(img + 0x800, linux_bytes, sizeof(linux_bytes));
	assert_int_equal(pe_get32(img + pe.opt_offset + PE_OPT_SIZE_OF_IMAGE), 0x4000);
	/* The stub's own bytes are unchanged. */
	assert_memory_equal(img + 0x400, stub + 0x400, 0x200);
	assert_checksum(img, out_len, &pe);
	free(img);
}

static void test_symbol_table_dropped(void **state)
{
	struct pe_layout pe;
	const char *why = NULL;
	uint8_t *img = NULL;
	size_t out_len = 0, len = pe_fixture(stub, 0x100);

	(void)state;
	assert_int_equal(uki_assemble(stub, len, two, 2, &img, &out_len, &why), 0);
	assert_int_equal(pe_layout_read(img, out_len, &pe, &why), 0);
	assert_int_equal(pe.symtab_offset, 0);
	assert_int_equal(pe_get32(img + pe.coff_offset + PE_COFF_N_SYMBOLS), 0);
	/* .initrd follows .text directly, where the symbol table was. */
	assert_int_equal(pe_get32(section_entry(img, &pe, 1) + 20), 0x600);
	free(img);
}

static void test_checksum_known_values(void **state)
{
	static const uint8_t small[] = { 0x01, 0x00, 0x02, 0x00 };
	static const uint8_t carry[] = { 0xff, 0xff, 0x02, 0x00, 0x07 };

	(void)state;
	assert_int_equal(pe_checksum(small, sizeof(small)), 3 + 4);
	/* 0xffff + 2 folds to 2; the odd last byte counts as a low byte; + length. */
	assert_int_equal(pe_checksum(carry, sizeof(carry)), 2 + 7 + 5);
}

/* refused LEN SECTIONS N: uki_assemble fails with a reason and no output. */
static void assert_refused(size_t len, const struct uki_section *secs, size_t n, int err)
{
	const char *why = NULL;
	uint8_t *img = NULL;
	size_t out_len = 0;

	assert_int_equal(uki_assemble(stub, len, secs, n, &img, &out_len, &why), err);
	assert_non_null(why);
	assert_null(img);
}

static void test_refusals(void **state)
{
	static const struct uki_section long_name[] = { { ".toolongname", linux_bytes, 4 } };
	size_t len;

	(void)state;
	len = pe_fixture(stub, 0);
	stub[0] = 'X';
	assert_refused(len, two, 2, -ENOEXEC);             /* no MZ */
	len = pe_fixture(stub, 0);
	pe_put16(stub + FIX_OPT, 0x10b);
	assert_refused(len, two, 2, -ENOEXEC);             /* PE32, not PE32+ */
	len = pe_fixture(stub, 0);
	pe_put32(stub + FIX_OPT + 112 + 8 * 4 + 4, 0x100);
	assert_refused(len, two, 2, -ENOEXEC);             /* signed */
	len = pe_fixture(stub, 0);
	assert_refused(len - 1, two, 2, -ENOEXEC);          /* .text cut short */
	len = pe_fixture(stub, 0);
	/* Headers that end after room for one more entry: two do not fit. */
	pe_put32(stub + FIX_OPT + 60, FIX_TABLE + 2 * PE_SECTION_HEADER_SIZE);
	assert_refused(len, two, 2, -ENOEXEC);
	len = pe_fixture(stub, 0);
	pe_put32(stub + 0x3c, 0xfffffff0);
	assert_refused(len, two, 2, -ENOEXEC);             /* PE header outside the file */
	len = pe_fixture(stub, 0);
	assert_refused(len, long_name, 1, -EINVAL);
}

/* Debian's systemd-boot-efi stub, when installed: its sections stay, ours follow. */
static void test_real_stub(void **state)
{
	static const char path[] = "/usr/lib/systemd/boot/efi/linuxx64.efi.stub";
	struct pe_layout before, after;
	const char *why = NULL;
	char *data = NULL;
	uint8_t *img = NULL;
	size_t len = 0, out_len = 0;

	(void)state;
	if (file_read_all(path, 1 << 24, &data, &len) < 0) {
		skip();
		return;
	}
	assert_int_equal(pe_layout_read((uint8_t *)data, len, &before, &why), 0);
	assert_int_equal(uki_assemble((uint8_t *)data, len, two, 2, &img, &out_len, &why), 0);
	assert_int_equal(pe_layout_read(img, out_len, &after, &why), 0);
	assert_int_equal(after.n_sections, before.n_sections + 2);
	assert_memory_equal(section_entry(img, &after, after.n_sections - 1), ".linux", 6);
	assert_checksum(img, out_len, &after);
	free(img);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_of_fixture),
		cmocka_unit_test(test_assemble_places_sections),
		cmocka_unit_test(test_symbol_table_dropped),
		cmocka_unit_test(test_checksum_known_values),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_real_stub),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
