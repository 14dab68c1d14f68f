/* test_kdump_printk: the printk ring reader on rings built in memory:
 * records in order, a block wrapped to the ring's start, records still
 * being written or reused skipped, escapes, inconsistent rings refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "kdump/vmcoreinfo_check.h"
#include "tests/unit/kdump_ring.h"
#include "tests/unit/kdump_synth.h"

struct ring_fixture {
	struct vmcoreinfo vi;
	uint8_t descs[8 * RING_DESC], infos[8 * RING_INFO], data[256];
	struct printk_ring ring;
};

static void ring_init(struct ring_fixture *f)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(vmcoreinfo_parse(ring_vmcoreinfo, strlen(ring_vmcoreinfo), &f->vi), 0);
	f->ring = (struct printk_ring){ .count_bits = 3, .size_bits = 8, .descs = f->descs,
					.infos = f->infos, .data = f->data };
}

static void records_in_order(void **state)
{
	struct ring_fixture f;
	char *text;
	size_t len;

	(void)state;
	ring_init(&f);
	/* ids 5..8: 8 wraps to slot 0; the last data block wraps to offset 0. */
	ring_put(f.descs, f.infos, f.data, 3, 8, 5, 1, 0x130, 0x160, 1500000000ULL, "first line");
	ring_put(f.descs, f.infos, f.data, 3, 8, 6, 2, 0x160, 0x190, 2000001000ULL, "bell\a here");
	ring_put(f.descs, f.infos, f.data, 3, 8, 7, 0, 0x190, 0x1c0, 3000000000ULL, "reserved, skipped");
	ring_put(f.descs, f.infos, f.data, 3, 8, 8, 2, 0x1f0, 0x220, 4000000000ULL, "wrapped");
	f.ring.tail_id = 5;
	f.ring.head_id = 8;
	assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), 0);
	assert_string_equal(text, "[    1.500000] first line\n"
				  "[    2.000001] bell\\x07 here\n"
				  "[    4.000000] wrapped\n");
	assert_int_equal(len, strlen(text));
	free(text);
}

static void stale_ids_skipped(void **state)
{
	struct ring_fixture f;
	char *text;
	size_t len;

	(void)state;
	ring_init(&f);
	ring_put(f.descs, f.infos, f.data, 3, 8, 1, 2, 0x0, 0x20, 0, "old");
	/* Slot 2 holds id 10 (a newer lap): id 2 is gone. */
	ring_put(f.descs, f.infos, f.data, 3, 8, 10, 2, 0x20, 0x40, 0, "newer");
	f.ring.tail_id = 1;
	f.ring.head_id = 2;
	assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), 0);
	assert_string_equal(text, "[    0.000000] old\n");
	free(text);
}

static void inconsistent_refused(void **state)
{
	struct ring_fixture f;
	char *text = NULL;
	size_t len;

	(void)state;
	ring_init(&f);
	f.ring.tail_id = 0;
	f.ring.head_id = 8;               /* more ids than slots */
	assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), -EINVAL);
	f.ring.head_id = 1;
	f.ring.size_bits = 40;
	assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), -EINVAL);
	f.ring.size_bits = 8;
	/* A block claiming to be larger than the ring: no text, no overread. */
	ring_put(f.descs, f.infos, f.data, 3, 8, 1, 2, 0x0, 0x400, 0, "x");
	assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), 0);
	assert_string_equal(text, "");
	free(text);
	/* Without the ring's offsets (a kernel before 5.10): not supported. */
	f.vi.size_prb_desc = VI_UNSET;
	assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), -EOPNOTSUPP);
}

/* Descriptor and info field offsets from a hostile VMCOREINFO: each one
 * past its structure's SIZE() is refused before the ring is read. */
static void hostile_offsets_refused(void **state)
{
	static const struct {
		size_t field;
		int64_t value;
		const char *key;
	} cases[] = {
		{ offsetof(struct vmcoreinfo, off_lpos_next), 4000, "OFFSET(prb_data_blk_lpos.next)" },
		{ offsetof(struct vmcoreinfo, off_lpos_begin), 12, "OFFSET(prb_data_blk_lpos.begin)" },
		{ offsetof(struct vmcoreinfo, off_atomic_counter), 100, "OFFSET(atomic_long_t.counter)" },
		{ offsetof(struct vmcoreinfo, off_desc_state_var), 20, "OFFSET(prb_desc.state_var)" },
		{ offsetof(struct vmcoreinfo, size_prb_desc), 16, "SIZE(prb_desc)" },
		{ offsetof(struct vmcoreinfo, off_info_text_len), 87, "OFFSET(printk_info.text_len)" },
		{ offsetof(struct vmcoreinfo, off_info_ts_nsec), 84, "OFFSET(printk_info.ts_nsec)" },
		{ offsetof(struct vmcoreinfo, size_printk_info), 0, "SIZE(printk_info)" },
		{ offsetof(struct vmcoreinfo, off_dr_descs), -8, "OFFSET(prb_desc_ring.descs)" },
		{ offsetof(struct vmcoreinfo, off_tdr_data), 1 << 20, "OFFSET(prb_data_ring.data)" },
	};
	struct ring_fixture f;
	char *text = NULL, why[200];
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ring_init(&f);
		ring_put(f.descs, f.infos, f.data, 3, 8, 7, 2, 0xe0, 0x100, 0, "last slot");
		f.ring.tail_id = 7;
		f.ring.head_id = 7;
		*(int64_t *)((char *)&f.vi + cases[i].field) = cases[i].value;
		why[0] = '\0';
		assert_int_equal(vmcoreinfo_check_printk(&f.vi, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, cases[i].key));
		assert_int_equal(printk_format(&f.vi, &f.ring, &text, &len), -EINVAL);
	}
	/* When the note gives SIZE(prb_desc_ring), the ring's fields fit in it. */
	ring_init(&f);
	f.vi.size_prb_desc_ring = 32;
	assert_int_equal(vmcoreinfo_check_printk(&f.vi, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "OFFSET(prb_desc_ring.tail_id)"));
	f.vi.size_prb_desc_ring = 48;
	assert_int_equal(vmcoreinfo_check_printk(&f.vi, why, sizeof(why)), 0);
}

/* The reader on a core: prb and the ring's arrays found through the
 * crashed kernel's page tables; a ring whose header is corrupt gives no
 * log, not a crash. */
static void read_from_core(void **state)
{
	char note[4096], *text = NULL;
	struct synth s;
	struct elfcore core;
	struct vmcoreinfo vi;
	size_t len;
	int fd;

	(void)state;
	snprintf(note, sizeof(note), "%s%s%s", info, ring_vmcoreinfo, SYNTH_PRB);
	synth_build_info(&s, note);
	fd = fixture_memfd(s.buf, s.size);
	assert_int_equal(elfcore_open(&core, fd), 0);
	assert_int_equal(vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi), 0);
	assert_int_equal(printk_read(&core, &vi, &text, &len), 0);
	assert_string_equal(text, SYNTH_DMESG);
	free(text);
	/* Offsets past SIZE(prb_desc): refused before the ring is read. */
	vi.off_lpos_next = 2000;
	assert_int_equal(printk_read(&core, &vi, &text, &len), -EINVAL);
	close(fd);
	elfcore_close(&core);
	/* count_bits 31 in the crashed kernel's memory: an inconsistent ring. */
	s.buf[s.mem_at + 0xc100] = 31;
	fd = fixture_memfd(s.buf, s.size);
	assert_int_equal(elfcore_open(&core, fd), 0);
	assert_int_equal(vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi), 0);
	assert_int_equal(printk_read(&core, &vi, &text, &len), -EINVAL);
	close(fd);
	elfcore_close(&core);
	free(s.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_in_order),
		cmocka_unit_test(stale_ids_skipped),
		cmocka_unit_test(inconsistent_refused),
		cmocka_unit_test(hostile_offsets_refused),
		cmocka_unit_test(read_from_core),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
