/* bkeymap: reading the binary console keymap of `loadkeys -b`. */
#include "common/bkeymap.h"

#include <errno.h>
#include <string.h>

#define BKEYMAP_HEADER (BKEYMAP_MAGIC_LEN + BKEYMAP_TABLES)
#define BKEYMAP_TABLE_BYTES (BKEYMAP_KEYS * sizeof(uint16_t))

bool bkeymap_name_ok(const char *name)
{
	if (!name[0] || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.,+-:", *p)))
			return false;
	return true;
}

int bkeymap_check(const unsigned char *data, size_t len)
{
	size_t tables = 0;

	if (len < BKEYMAP_HEADER || memcmp(data, BKEYMAP_MAGIC, BKEYMAP_MAGIC_LEN) != 0)
		return -EINVAL;
	for (size_t i = 0; i < BKEYMAP_TABLES; i++) {
		unsigned char flag = data[BKEYMAP_MAGIC_LEN + i];

		if (flag > 1)
			return -EINVAL;
		tables += flag;
	}
	if (tables == 0 || len != BKEYMAP_HEADER + tables * BKEYMAP_TABLE_BYTES)
		return -EINVAL;
	return (int)tables;
}

int bkeymap_foreach(const unsigned char *data, size_t len,
		    int (*fn)(unsigned int table, unsigned int key, uint16_t value, void *ctx),
		    void *ctx)
{
	const unsigned char *keys = data + BKEYMAP_HEADER;

	if (bkeymap_check(data, len) < 0)
		return -EINVAL;
	for (unsigned int t = 0; t < BKEYMAP_TABLES; t++) {
		if (!data[BKEYMAP_MAGIC_LEN + t])
			continue;
		for (unsigned int k = 0; k < BKEYMAP_KEYS; k++) {
			uint16_t value;
			int r;

			/* Host byte order, as loadkeys wrote it; memcpy: no alignment. */
			memcpy(&value, keys + k * sizeof(value), sizeof(value));
			r = fn(t, k, value, ctx);
			if (r < 0)
				return r;
		}
		keys += BKEYMAP_TABLE_BYTES;
	}
	return 0;
}
