/* Unit tests: common/vpd83.c, the WWID multipath-tools derives from a SCSI
 * disk's VPD page 0x83 (the page qemu's scsi-hd gives, and the designator
 * kinds of real arrays). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "common/vpd83.h"

/* A page from designators (each: byte 1, then its value), with its header. */
struct page {
	unsigned char b[512];
	size_t len;
};

static void page_init(struct page *p)
{
	memset(p, 0, sizeof(*p));
	p->b[1] = 0x83;
	p->len = 4;
}

static void page_add(struct page *p, unsigned char code_set, unsigned char b1,
		     const void *v, size_t n)
{
	p->b[p->len] = code_set;
	p->b[p->len + 1] = b1;
	p->b[p->len + 3] = (unsigned char)n;
	memcpy(p->b + p->len + 4, v, n);
	p->len += 4 + n;
	p->b[2] = (unsigned char)((p->len - 4) >> 8);
	p->b[3] = (unsigned char)(p->len - 4);
}

static const unsigned char naa5[] = { 0x50, 0x00, 0xc5, 0x00, 0xa1, 0xb2, 0xc3, 0xd4 };

/* qemu's scsi-hd with serial= and wwn=: a vendor-specific ASCII device id
 * (type 0, skipped), then the NAA: multipath's "3" + hex. */
static void qemu_scsi_hd(void **state)
{
	struct page p;
	char wwid[VPD83_WWID_MAX];

	(void)state;
	page_init(&p);
	page_add(&p, 0x2, 0x0, "LBMP01", 6);
	page_add(&p, 0x1, 0x3, naa5, sizeof(naa5));
	assert_int_equal(vpd83_wwid(p.b, p.len, wwid, sizeof(wwid)), 17);
	assert_string_equal(wwid, "35000c500a1b2c3d4");
}

/* NAA Registered Extended beats Registered; NAA beats EUI-64, which beats
 * a name string, which beats T10, whatever their order on the page. */
static void priority(void **state)
{
	static const unsigned char naa6[16] = { 0x60, 0x01, 0x40, 0x5f, 0, 0, 0, 0,
						0, 0, 0, 0, 0, 0, 0, 0x2a };
	static const unsigned char eui[8] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
	struct page p;
	char wwid[VPD83_WWID_MAX];

	(void)state;
	page_init(&p);
	page_add(&p, 0x2, 0x1, "LIO-ORG  disk   1", 17);
	page_add(&p, 0x3, 0x8, "iqn.2026-01.test:lun\0\0\0\0", 24);
	assert_int_equal(vpd83_wwid(p.b, p.len, wwid, sizeof(wwid)), 17);
	assert_string_equal(wwid, "82026-01.test:lun");
	page_add(&p, 0x1, 0x2, eui, sizeof(eui));
	vpd83_wwid(p.b, p.len, wwid, sizeof(wwid));
	assert_string_equal(wwid, "20011223344556677");
	page_add(&p, 0x1, 0x3, naa5, sizeof(naa5));
	page_add(&p, 0x1, 0x3, naa6, sizeof(naa6));
	vpd83_wwid(p.b, p.len, wwid, sizeof(wwid));
	assert_string_equal(wwid, "36001405f00000000000000000000002a");
}

/* A T10 vendor id: space runs become one '_', trailing spaces go. */
static void t10(void **state)
{
	struct page p;
	char wwid[VPD83_WWID_MAX];

	(void)state;
	page_init(&p);
	page_add(&p, 0x2, 0x1, "ATA     QEMU HARDDISK  QM0001  ", 31);
	vpd83_wwid(p.b, p.len, wwid, sizeof(wwid));
	assert_string_equal(wwid, "1ATA_QEMU_HARDDISK_QM0001");
}

/* A naa. or eui. name string is hex in lower case, with its own prefix. */
static void name_strings(void **state)
{
	struct page p;
	char wwid[VPD83_WWID_MAX];

	(void)state;
	page_init(&p);
	page_add(&p, 0x3, 0x8, "naa.6001405ABCDEF000", 20);
	vpd83_wwid(p.b, p.len, wwid, sizeof(wwid));
	assert_string_equal(wwid, "36001405abcdef000");
	page_init(&p);
	page_add(&p, 0x3, 0x8, "eui.00A0B1C2\0\0\0\0", 16);
	vpd83_wwid(p.b, p.len, wwid, sizeof(wwid));
	assert_string_equal(wwid, "200a0b1c2");
}

/* Designators of a port or target (association 1, 2), malformed NAA, and
 * a name string without a known prefix are not the unit's identity. */
static void skipped(void **state)
{
	static const unsigned char short_naa[] = { 0x50, 0x00, 0xc5, 0x00 };
	struct page p;
	char wwid[VPD83_WWID_MAX];

	(void)state;
	page_init(&p);
	page_add(&p, 0x1, 0x13, naa5, sizeof(naa5));
	page_add(&p, 0x1, 0x23, naa5, sizeof(naa5));
	page_add(&p, 0x1, 0x3, short_naa, sizeof(short_naa));
	page_add(&p, 0x3, 0x8, "xyz.1234", 8);
	assert_int_equal(vpd83_wwid(p.b, p.len, wwid, sizeof(wwid)), -ENODATA);
	assert_string_equal(wwid, "");
	page_add(&p, 0x2, 0x1, "VENDOR  ID", 10);
	vpd83_wwid(p.b, p.len, wwid, sizeof(wwid));
	assert_string_equal(wwid, "1VENDOR_ID");
}

/* Not page 0x83, cut short, a designator running past the page, and an
 * output buffer too small (cut, as libmultipath cuts). */
static void refused(void **state)
{
	struct page p;
	char wwid[VPD83_WWID_MAX], small[6];

	(void)state;
	page_init(&p);
	page_add(&p, 0x1, 0x3, naa5, sizeof(naa5));
	assert_int_equal(vpd83_wwid(p.b, 3, wwid, sizeof(wwid)), -EINVAL);
	p.b[1] = 0x80;
	assert_int_equal(vpd83_wwid(p.b, p.len, wwid, sizeof(wwid)), -EINVAL);
	p.b[1] = 0x83;
	assert_int_equal(vpd83_wwid(p.b, p.len - 1, wwid, sizeof(wwid)), -ENODATA);
	p.b[3] = 4;
	assert_int_equal(vpd83_wwid(p.b, p.len, wwid, sizeof(wwid)), -ENODATA);
	p.b[3] = 12;
	assert_int_equal(vpd83_wwid(p.b, p.len, small, sizeof(small)), 5);
	assert_string_equal(small, "35000");
	assert_int_equal(vpd83_wwid(p.b, p.len, small, 0), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qemu_scsi_hd),
		cmocka_unit_test(priority),
		cmocka_unit_test(t10),
		cmocka_unit_test(name_strings),
		cmocka_unit_test(skipped),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
