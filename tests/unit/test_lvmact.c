/* Unit tests: LVM activation around the resume decision (blockstack/lvmact.c):
 * before it lvm is asked for the volumes that write nothing when activated
 * only, after it for everything, once; the lvm command lines, recorded by a
 * stand-in for run_tool. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/lvmact.h"
#include "common/layout.h"

#define RUNS_MAX 8

static char runs[RUNS_MAX][1024];
static size_t n_runs;

/* Record the command line, without lvm's path. */
static int record(char *const argv[], const void *input, size_t input_len, char *out, size_t size)
{
	char *line = runs[n_runs];

	(void)input;
	(void)input_len;
	assert_true(n_runs < RUNS_MAX);
	assert_string_equal(argv[0], LAYOUT_LVM);
	line[0] = '\0';
	for (size_t i = 1; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(runs[0]) - strlen(line), "%s%s",
			 i > 1 ? " " : "", argv[i]);
	n_runs++;
	snprintf(out, size, "ok");
	return 0;
}

/* No names given, nothing decided, nothing run yet. */
static void fresh(struct lvm_activation *a, struct stack_params *p)
{
	n_runs = 0;
	stack_params_init(p);
	lvmact_init(a, record);
}

static void add(char (*list)[STACK_NAME_MAX], size_t *n, const char *name)
{
	snprintf(list[(*n)++], STACK_NAME_MAX, "%s", name);
}

static const char *held(const char *names)
{
	static char line[1024];

	snprintf(line, sizeof(line), "lvchange -ay --sysinit --select %s%s%s", lvmact_write_free,
		 *names ? " " : "", names);
	return line;
}

/* No names: every group, the writing volumes after the decision, once. */
static void every_group_held_until_decided(void **state)
{
	struct lvm_activation a;
	struct stack_params p;

	(void)state;
	fresh(&a, &p);
	lvmact_pv_appeared(&a, &p, "vda");
	lvmact_pv_appeared(&a, &p, "vdb");
	assert_int_equal(n_runs, 2);
	assert_string_equal(runs[0], held(""));
	assert_string_equal(runs[1], held(""));
	lvmact_decided(&a, &p);
	assert_int_equal(n_runs, 3);
	assert_string_equal(runs[2], "vgchange -ay --sysinit");
	lvmact_decided(&a, &p);
	assert_int_equal(n_runs, 3);
	/* A physical volume after the decision: everything at once. */
	lvmact_pv_appeared(&a, &p, "vdc");
	assert_int_equal(n_runs, 4);
	assert_string_equal(runs[3], "vgchange -ay --sysinit");
}

/* rd.lvm.lv= and rd.lvm.vg=: one selecting lvchange for both before the
 * decision; after it lvchange for the volumes, vgchange for the groups. */
static void named_volumes_and_groups(void **state)
{
	struct lvm_activation a;
	struct stack_params p;

	(void)state;
	fresh(&a, &p);
	add(p.lvm_lvs, &p.n_lvs, "vg1/swap");
	add(p.lvm_lvs, &p.n_lvs, "vg1/root");
	add(p.lvm_vgs, &p.n_vgs, "vg2");
	lvmact_pv_appeared(&a, &p, "vda");
	assert_int_equal(n_runs, 1);
	assert_string_equal(runs[0], held("vg1/swap vg1/root vg2"));
	lvmact_decided(&a, &p);
	assert_int_equal(n_runs, 3);
	assert_string_equal(runs[1], "lvchange -ay --sysinit vg1/swap vg1/root");
	assert_string_equal(runs[2], "vgchange -ay --sysinit vg2");
}

/* rd.lvm.lv= alone names no group: none is activated whole. */
static void named_volumes_only(void **state)
{
	struct lvm_activation a;
	struct stack_params p;

	(void)state;
	fresh(&a, &p);
	add(p.lvm_lvs, &p.n_lvs, "vg1/root");
	lvmact_pv_appeared(&a, &p, "vda");
	lvmact_decided(&a, &p);
	assert_int_equal(n_runs, 2);
	assert_string_equal(runs[0], held("vg1/root"));
	assert_string_equal(runs[1], "lvchange -ay --sysinit vg1/root");
}

/* Decided before any physical volume appeared (no resume= given, or a
 * capture kernel): nothing held, nothing run until one appears. */
static void decided_before_any_volume(void **state)
{
	struct lvm_activation a;
	struct stack_params p;

	(void)state;
	fresh(&a, &p);
	lvmact_decided(&a, &p);
	assert_int_equal(n_runs, 0);
	lvmact_pv_appeared(&a, &p, "vda");
	assert_int_equal(n_runs, 1);
	assert_string_equal(runs[0], "vgchange -ay --sysinit");
}

/* What is held: every layout but plain linear and striped segments (raid,
 * mirror, thin, cache, vdo), merges, pvmove's locked volumes. */
static void selection_holds_the_writers(void **state)
{
	(void)state;
	assert_non_null(strstr(lvmact_write_free, "lv_layout=[linear]"));
	assert_non_null(strstr(lvmact_write_free, "lv_layout=[striped]"));
	assert_non_null(strstr(lvmact_write_free, "&& lv_merging=0"));
	assert_non_null(strstr(lvmact_write_free, "&& lv_allocation_locked=0"));
	assert_null(strstr(lvmact_write_free, "raid"));
	assert_null(strstr(lvmact_write_free, "thin"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_group_held_until_decided),
		cmocka_unit_test(named_volumes_and_groups),
		cmocka_unit_test(named_volumes_only),
		cmocka_unit_test(decided_before_any_volume),
		cmocka_unit_test(selection_holds_the_writers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
