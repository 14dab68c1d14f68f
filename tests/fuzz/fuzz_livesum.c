/* fuzz_livesum: a live image's checksum file (URL.sha256, as the server
 * sends it) and root=live:URL, on arbitrary bytes. The checksum file is
 * parsed as it came (not NUL-terminated: a copy of exactly size bytes, so
 * ASan sees a read past its end); a hash found must read back as the line
 * that gave it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/live/live_sum.h"
#include "net/live/live_url.h"

static void check_url(const uint8_t *data, size_t size)
{
	char *root = malloc(size + 6);
	struct live_url u;

	if (!root)
		return;
	memcpy(root, "live:", 5);
	memcpy(root + 5, data, size);
	root[size + 5] = '\0';
	if (live_url_parse(root, &u) == 0 &&
	    (!u.name[0] || strchr(u.name, '/') || strncmp(u.sum_url, u.url, strcspn(u.url, "?")) != 0))
		abort();
	free(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1), sum[SHA256_LEN], again[SHA256_LEN];
	char hex[LIVE_SUM_HEX];

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (live_sum_parse((const char *)copy, size, "root.squashfs", sum) == 0) {
		live_sum_to_hex(sum, hex);
		if (live_sum_from_hex(hex, strlen(hex), again) != 0 || memcmp(sum, again, SHA256_LEN))
			abort();
	}
	free(copy);
	check_url(data, size);
	return 0;
}
