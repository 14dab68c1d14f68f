/* Unit tests: the block-stack parameters (rd.luks*, rd.lvm*, rd.md*), as the
 * command line hands them over, and the /dev/mapper, /dev/VG/LV names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "blockstack/stack_params.h"
#include "tests/unit/stackwords.h"
#include "init/bootargs.h"
#include "common/dmname.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"
#define U2 "1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d"

/* Parse a command line the way the init does and apply its stack words. */
static int parse(const char *line, struct stack_params *p)
{
	struct boot_args args;
	int r;

	bootargs_init(&args);
	r = bootargs_parse(line, NULL, &args);
	*p = args.stacks;
	bootargs_free(&args);
	return r;
}

static void defaults_assemble_everything(void **state)
{
	struct stack_params p;
	char name[STACK_NAME_MAX];

	(void)state;
	assert_int_equal(parse("root=/dev/vda quiet", &p), 0);
	assert_true(p.luks && p.lvm && p.md);
	assert_true(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_string_equal(name, "luks-" U1);
	assert_true(stack_params_md_wanted(&p, "x"));
}

static void off_switches(void **state)
{
	struct stack_params p;
	char name[STACK_NAME_MAX];

	(void)state;
	assert_int_equal(parse("rd.luks=0 rd.lvm=no rd.md=false", &p), 0);
	assert_false(p.luks || p.lvm || p.md);
	assert_false(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_false(stack_params_md_wanted(&p, U1));
	/* The last occurrence wins, as for every parameter. */
	assert_int_equal(parse("rd.lvm=0 rd.lvm", &p), 0);
	assert_true(p.lvm);
}

static void luks_uuid_and_name(void **state)
{
	struct stack_params p;
	char name[STACK_NAME_MAX];

	(void)state;
	assert_int_equal(parse("rd.luks.uuid=luks-" U1 " rd.luks.name=" U2 "=cryptroot", &p), 0);
	assert_int_equal(p.n_luks, 2);
	assert_true(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_string_equal(name, "luks-" U1);
	/* UUIDs match whatever their case. */
	assert_true(stack_params_luks_wanted(&p, "1B2C3D4E-0004-4A5B-8C6D-7E8F9A0B1C2D", name, sizeof(name)));
	assert_string_equal(name, "cryptroot");
	/* A list given: other containers stay locked. */
	assert_false(stack_params_luks_wanted(&p, "00000000-0000-4000-8000-000000000000", name, sizeof(name)));
	assert_false(stack_params_luks_wanted(&p, "", name, sizeof(name)));
}

static void malformed_values(void **state)
{
	struct stack_params p;

	(void)state;
	stack_params_init(&p);
	assert_int_equal(stack_params_apply(&p, "rd.luks.name=" U1), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.luks.name==name"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.luks.name=" U1 "="), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.luks.name=" U1 "=a/b"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.luks.uuid"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.lvm.lv=vg"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.lvm.lv=vg/"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.lvm.lv=/lv"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.lvm.lv=a/b/c"), -EINVAL);
	assert_int_equal(stack_params_apply(&p, "rd.md.uuid="), -EINVAL);
	assert_int_equal(p.n_luks + p.n_lvs + p.n_md, 0);
	/* Not ours: ignored. */
	assert_int_equal(stack_params_apply(&p, "rd.lvmx=1"), 0);
	assert_int_equal(stack_params_apply(&p, "root=/dev/vda"), 0);
}

static void lists_are_bounded(void **state)
{
	struct stack_params p;

	(void)state;
	stack_params_init(&p);
	for (int i = 0; i < STACK_LIST_MAX; i++)
		assert_int_equal(stack_params_apply(&p, "rd.lvm.vg=vg"), 0);
	assert_int_equal(stack_params_apply(&p, "rd.lvm.vg=one-too-many"), -E2BIG);
	assert_int_equal(p.n_vgs, STACK_LIST_MAX);
}

static void lvm_names(void **state)
{
	struct stack_params p;

	(void)state;
	assert_int_equal(parse("rd.lvm.vg=sys rd.lvm.lv=sys/root rd.lvm.lv=sys/swap", &p), 0);
	assert_int_equal(p.n_vgs, 1);
	assert_string_equal(p.lvm_vgs[0], "sys");
	assert_int_equal(p.n_lvs, 2);
	assert_string_equal(p.lvm_lvs[1], "sys/swap");
}

static void md_uuid_spellings(void **state)
{
	struct stack_params p;

	(void)state;
	/* mdadm writes 1b2c3d4e:00064a5b:8c6d7e8f:9a0b1c2d, blkid with dashes. */
	assert_int_equal(parse("rd.md.uuid=1b2c3d4e:00064a5b:8c6d7e8f:9a0b1c2d", &p), 0);
	assert_true(stack_params_md_wanted(&p, "1b2c3d4e-0006-4a5b-8c6d-7e8f9a0b1c2d"));
	assert_false(stack_params_md_wanted(&p, "1b2c3d4e-0007-4a5b-8c6d-7e8f9a0b1c2d"));
	assert_false(stack_params_md_wanted(&p, NULL));
	assert_false(stack_uuid_equal("abc", "abcd"));
	assert_true(stack_uuid_equal("", ""));
}

static void dm_names(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(dmname_from_path("mapper/cryptroot", out, sizeof(out)), 0);
	assert_string_equal(out, "cryptroot");
	assert_int_equal(dmname_from_path("vg/root", out, sizeof(out)), 0);
	assert_string_equal(out, "vg-root");
	/* LVM doubles the dashes inside names. */
	assert_int_equal(dmname_from_path("my-vg/lv-1", out, sizeof(out)), 0);
	assert_string_equal(out, "my--vg-lv--1");
	assert_int_equal(dmname_from_path("vda1", out, sizeof(out)), -EINVAL);
	assert_int_equal(dmname_from_path("disk/by-uuid", out, sizeof(out)), -EINVAL);
	assert_int_equal(dmname_from_path("a/b/c", out, sizeof(out)), -EINVAL);
	assert_int_equal(dmname_from_path("/b", out, sizeof(out)), -EINVAL);
	assert_int_equal(dmname_from_path("a/", out, sizeof(out)), -EINVAL);
	assert_int_equal(dmname_from_path("a-b/c", out, 6), -ENAMETOOLONG);
	assert_int_equal(dmname_from_path("a-b/c", out, 7), 0);
	assert_string_equal(out, "a--b-c");
}

/* The generator's way back: the volume group of an LVM dm name. */
static void dm_name_volume_groups(void **state)
{
	char vg[8];

	(void)state;
	assert_int_equal(dmname_lvm_vg("vg-root", vg, sizeof(vg)), 0);
	assert_string_equal(vg, "vg");
	assert_int_equal(dmname_lvm_vg("my--vg-lv--1", vg, sizeof(vg)), 0);
	assert_string_equal(vg, "my-vg");
	/* A VG name ending in '-': three dashes, the first two its own. */
	assert_int_equal(dmname_lvm_vg("a---b", vg, sizeof(vg)), 0);
	assert_string_equal(vg, "a-");
	assert_int_equal(dmname_lvm_vg("crypt", vg, sizeof(vg)), -EINVAL);
	assert_int_equal(dmname_lvm_vg("a--b", vg, sizeof(vg)), -EINVAL);
	assert_int_equal(dmname_lvm_vg("-lv", vg, sizeof(vg)), -EINVAL);
	assert_int_equal(dmname_lvm_vg("vg-", vg, sizeof(vg)), -EINVAL);
	assert_int_equal(dmname_lvm_vg("", vg, sizeof(vg)), -EINVAL);
	assert_int_equal(dmname_lvm_vg("1234567-lv", vg, sizeof(vg)), 0);
	assert_int_equal(dmname_lvm_vg("12345678-lv", vg, sizeof(vg)), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_assemble_everything),
		cmocka_unit_test(off_switches),
		cmocka_unit_test(luks_uuid_and_name),
		cmocka_unit_test(malformed_values),
		cmocka_unit_test(lists_are_bounded),
		cmocka_unit_test(lvm_names),
		cmocka_unit_test(md_uuid_spellings),
		cmocka_unit_test(dm_names),
		cmocka_unit_test(dm_name_volume_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
