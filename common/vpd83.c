/* vpd83: a SCSI disk's WWID from VPD page 0x83, as multipath-tools spells it. */
#include "common/vpd83.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define PAGE_CODE 0x83
#define HEADER 4

enum designator {
	DESIG_T10 = 0x1,
	DESIG_EUI64 = 0x2,
	DESIG_NAA = 0x3,
	DESIG_NAME = 0x8,
};

/* The output being built: characters past the end are dropped. */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len++] = c;
}

/* How much an NAA designator counts (its first nibble says which kind;
 * each kind has one length), 0 when it is malformed. */
static int naa_rank(const unsigned char *d)
{
	static const struct { unsigned char kind, len; int rank; } naa[] = {
		{ 6, 16, 5 },   /* IEEE Registered Extended */
		{ 5, 8, 4 },    /* IEEE Registered */
		{ 2, 8, 3 },    /* IEEE Extended */
		{ 3, 8, 2 },    /* Locally assigned */
	};

	if (d[3] < 1)
		return 0;
	for (size_t i = 0; i < sizeof(naa) / sizeof(naa[0]); i++)
		if (d[4] >> 4 == naa[i].kind)
			return d[3] == naa[i].len ? naa[i].rank : 0;
	return 0;
}

static bool name_prefixed(const unsigned char *d)
{
	return d[3] >= 4 && (memcmp(d + 4, "eui.", 4) == 0 || memcmp(d + 4, "naa.", 4) == 0 ||
			     memcmp(d + 4, "iqn.", 4) == 0);
}

/* The designator's rank (higher wins; 0: not usable). Only designators of
 * the logical unit itself count, not of its port or target. */
static int rank(const unsigned char *d)
{
	if ((d[1] & 0x30) != 0)
		return 0;
	switch (d[1] & 0xf) {
	case DESIG_NAA:
		return naa_rank(d);
	case DESIG_EUI64:
		return d[3] == 8 || d[3] == 12 || d[3] == 16 ? 3 : 0;
	case DESIG_NAME:
		return name_prefixed(d) ? 2 : 0;
	case DESIG_T10:
		return 1;
	default:
		return 0;
	}
}

static void put_hex(struct out *o, int type, const unsigned char *v, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	put(o, (char)('0' + type));
	for (size_t i = 0; i < n; i++) {
		put(o, digits[v[i] >> 4]);
		put(o, digits[v[i] & 0xf]);
	}
}

/* A SCSI name string is NUL-padded; naa. and eui. names are hex, given
 * in lower case as the binary designators are. */
static void put_name(struct out *o, const unsigned char *v, size_t n)
{
	char type = memcmp(v, "eui.", 4) == 0 ? '2' : memcmp(v, "naa.", 4) == 0 ? '3' : '8';

	put(o, type);
	for (size_t i = 4; i < n && v[i]; i++)
		put(o, type == '8' ? (char)v[i] : (char)tolower(v[i]));
}

/* A T10 vendor id: each run of spaces becomes one '_', none at the end. */
static void put_t10(struct out *o, const unsigned char *v, size_t n)
{
	bool space = false;

	put(o, '1');
	for (size_t i = 0; i < n && v[i]; i++) {
		if (v[i] == ' ') {
			space = true;
			continue;
		}
		if (space)
			put(o, '_');
		space = false;
		put(o, (char)v[i]);
	}
}

/* The best designator wholly inside the page, or NULL. Equal ranks: the
 * first one. */
static const unsigned char *best(const unsigned char *page, size_t len)
{
	const unsigned char *found = NULL;
	int found_rank = 0;
	size_t at = HEADER;

	while (at + HEADER <= len) {
		const unsigned char *d = page + at;
		size_t next = at + HEADER + d[3];
		int r;

		if (next > len)
			break;
		r = rank(d);
		if (r > found_rank) {
			found = d;
			found_rank = r;
		}
		at = next;
	}
	return found;
}

int vpd83_wwid(const unsigned char *page, size_t len, char *wwid, size_t size)
{
	struct out o = { wwid, size, 0 };
	const unsigned char *d;
	size_t n;

	if (size == 0)
		return -ENOSPC;
	wwid[0] = '\0';
	if (len < HEADER || page[1] != PAGE_CODE)
		return -EINVAL;
	/* The page says how long it is; a file may hold less, or padding. */
	n = ((size_t)page[2] << 8 | page[3]) + HEADER;
	if (n < len)
		len = n;
	d = best(page, len);
	if (!d)
		return -ENODATA;
	n = d[3] < VPD83_WWID_MAX ? d[3] : VPD83_WWID_MAX;
	switch (d[1] & 0xf) {
	case DESIG_NAA:
	case DESIG_EUI64:
		put_hex(&o, d[1] & 0xf, d + HEADER, n);
		break;
	case DESIG_NAME:
		put_name(&o, d + HEADER, n);
		break;
	default:
		put_t10(&o, d + HEADER, n);
		break;
	}
	wwid[o.len] = '\0';
	return (int)o.len;
}
