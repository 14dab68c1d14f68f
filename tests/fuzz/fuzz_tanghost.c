/* fuzz_tanghost: the generator's reading of `lifeboat-clevis --list` output
 * (gen/host/tanghost.c), on arbitrary text: the URL it takes (the host
 * disk's header chose it) fits its buffer, has no blank and no control
 * byte (it is shown), and the three readers agree: a line that gives a
 * URL names a known pin. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/host/tanghost.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void url_check(const char *text, size_t size)
{
	char url[400];
	size_t len;

	memset(url, 'x', sizeof(url));
	if (!tanghost_list_parse(text, url, size))
		return;
	len = strnlen(url, size);
	CHECK(len < size);
	for (size_t i = 0; i < len; i++)
		CHECK((unsigned char)url[i] > 0x20 && url[i] != 0x7f);
	CHECK(tanghost_list_any_pin(text));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	url_check(text, 400);
	url_check(text, 7);
	(void)tanghost_list_may_use_tpm(text);
	free(text);
	return 0;
}
