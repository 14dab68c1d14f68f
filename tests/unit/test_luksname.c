/* test_luksname: which name the real root's crypttab gives a container the
 * boot opened as luks-UUID (blockstack/luksname.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "blockstack/luksname.h"

#define HEX "1b2c3d4e00d54a5b8c6d7e8f9a0b1c2d"

/* cryptsetup's uuid of a mapping: "CRYPT-LUKS<n>-<UUID, no '-'>-<name>". */
static void dm_uuid(void **state)
{
	char hex[33];

	(void)state;
	assert_true(luksname_dm_uuid_hex("CRYPT-LUKS2-" HEX "-luks-1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d", hex));
	assert_string_equal(hex, HEX);
	assert_true(luksname_dm_uuid_hex("CRYPT-LUKS1-1B2C3D4E00D54A5B8C6D7E8F9A0B1C2D-md0_crypt", hex));
	assert_string_equal(hex, HEX);
	/* Not a LUKS mapping (LVM, a plain dm-crypt, verity), or cut short. */
	assert_false(luksname_dm_uuid_hex("LVM-abcdef", hex));
	assert_false(luksname_dm_uuid_hex("CRYPT-PLAIN-cryptswap", hex));
	assert_false(luksname_dm_uuid_hex("CRYPT-LUKS2-" HEX, hex));
	assert_false(luksname_dm_uuid_hex("CRYPT-LUKS2-1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d-x", hex));
	assert_false(luksname_dm_uuid_hex("CRYPT-LUKS2", hex));
}

/* Only the boot's own name is renamed; rd.luks.name='s is kept. */
static void default_name(void **state)
{
	(void)state;
	assert_true(luksname_is_default("luks-1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d", HEX));
	assert_true(luksname_is_default("luks-1B2C3D4E-00D5-4A5B-8C6D-7E8F9A0B1C2D", HEX));
	assert_false(luksname_is_default("md0_crypt", HEX));
	assert_false(luksname_is_default("luks-1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2e", HEX));
	assert_false(luksname_is_default("luks-", HEX));
}

static void crypttab_names(void **state)
{
	static const char tab[] =
		"# <target name> <source device> <key file> <options>\n"
		"\n"
		"other_crypt UUID=aaaaaaaa-0000-4000-8000-000000000000 none luks\n"
		"md0_crypt UUID=1B2C3D4E-00D5-4A5B-8C6D-7E8F9A0B1C2D none luks,discard\n"
		"late_crypt UUID=1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d none luks";
	char name[64];

	(void)state;
	assert_true(luksname_from_crypttab(tab, HEX, name, sizeof(name)));
	assert_string_equal(name, "md0_crypt");
	assert_true(luksname_from_crypttab("sda5_crypt /dev/disk/by-uuid/1b2c3d4e-00d5-4a5b-8c6d-7e8f9a0b1c2d",
					   HEX, name, sizeof(name)));
	assert_string_equal(name, "sda5_crypt");
	/* The last line without its newline counts too. */
	assert_true(luksname_from_crypttab("x UUID=aaaa\ncr UUID=" HEX, HEX, name, sizeof(name)));
	assert_string_equal(name, "cr");
	/* A source by path or label is not matched (the device may bear another
	 * kernel name in the image); nor is a commented line. */
	assert_false(luksname_from_crypttab("md0_crypt /dev/md0 none luks\n"
					    "#md0_crypt UUID=" HEX " none luks\n"
					    "lab LABEL=" HEX "\n", HEX, name, sizeof(name)));
	assert_false(luksname_from_crypttab("", HEX, name, sizeof(name)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dm_uuid),
		cmocka_unit_test(default_name),
		cmocka_unit_test(crypttab_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
