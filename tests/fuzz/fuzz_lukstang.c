/* fuzz_lukstang: the init's reading of lifeboat-clevis's standard error
 * (blockstack/lukstang.c), on arbitrary output: its lines and the pins that
 * opened the container, the binding that did (the line that ends a
 * prompt), and after an unlock what failed on the way, reach
 * the console, so whatever the output holds
 * (a Tang URL from a hostile LUKS2 header among it), what is shown has no
 * control byte, fits its buffer and ends; every line is read exactly once. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/lukstang.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void shown_check(const char *s, size_t size)
{
	size_t len = strnlen(s, size);

	CHECK(len < size);
	for (size_t i = 0; i < len; i++)
		CHECK((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
}

static void lines_check(const char *out, size_t size)
{
	const char *pos = out;
	char line[64];
	size_t count = 0;

	while (lukstang_next_line(&pos, line, size)) {
		shown_check(line, size);
		CHECK(pos > out && pos <= out + strlen(out));
		CHECK(*pos == '\0' || *pos == '\n');
		count++;
	}
	CHECK(count <= strlen(out));
	/* The failures said after an unlock: the same lines, fewer. */
	pos = out;
	while (lukstang_next_failure(&pos, line, size)) {
		shown_check(line, size);
		CHECK(strncmp(line, "clevis-used: ", 13) != 0);
		CHECK(strncmp(line, "clevis-binding: ", 16) != 0);
		CHECK(count-- > 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = malloc(size + 1), used[48], binding[40];

	if (!out)
		return 0;
	memcpy(out, data, size);
	out[size] = '\0';
	lines_check(out, 64);
	lines_check(out, 5);
	lukstang_used_pins(out, used, sizeof(used));
	shown_check(used, sizeof(used));
	CHECK(strncmp(used, "clevis", 6) == 0);
	lukstang_binding(out, binding, sizeof(binding));
	shown_check(binding, sizeof(binding));
	CHECK(strncmp(binding, "its clevis binding", 18) == 0);
	free(out);
	return 0;
}
