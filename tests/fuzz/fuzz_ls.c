/* fuzz_ls: lifeboat ls's listing of any image. Besides what ASan and UBSan
 * see, the listing itself is checked: whatever names, targets and build.conf
 * the image holds, the text reaching the terminal is valid UTF-8 with no
 * control character but the newline (no escape sequence, no C1 control). */
#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "gen/cmd/ls.h"

/* glibc's own UTF-8 decoder is the judge, not the escaper's. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		abort();
	return 0;
}

static void listing_check(const char *text, size_t len)
{
	mbstate_t st;
	size_t n;

	memset(&st, 0, sizeof(st));
	for (size_t i = 0; i < len; i += n) {
		wchar_t wc;

		n = mbrtowc(&wc, text + i, len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2)
			abort();        /* invalid or cut UTF-8 reached the terminal */
		if (n == 0)
			abort();        /* a NUL byte */
		if ((wc < 0x20 && wc != '\n') || (wc >= 0x7f && wc <= 0x9f))
			abort();        /* a control character */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = NULL;
	size_t len = 0;
	struct archive_error why;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return 0;
	ls_buffer(out, data, size, &why);
	fclose(out);
	listing_check(text, len);
	free(text);
	return 0;
}
