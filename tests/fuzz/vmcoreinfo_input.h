/* vmcoreinfo_input: how the kdump fuzz targets take a VMCOREINFO note from
 * their input: a count n (its low 4 bits), then n changes of 3 bytes each,
 * a key (by its place among struct vmcoreinfo's numbers) and a signed
 * 16-bit value, written as KEY=value lines after a base note. The parser
 * keeps the last value of a key, so the fuzzer varies any size or offset
 * near the ones that matter while the rest of the note stays one the
 * readers accept (free text would rarely spell a key right). */
#ifndef LIFEBOAT_FUZZ_VMCOREINFO_INPUT_H
#define LIFEBOAT_FUZZ_VMCOREINFO_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kdump/vmcoreinfo.h"

#define NOTE_CHANGES_MAX 15
#define NOTE_CHANGE_SIZE 3
/* Room for the changes' lines after the base note. */
#define NOTE_INPUT_MAX (NOTE_CHANGES_MAX * 80)

/* Write base and the input's changes to out (NUL-terminated, at least
 * strlen(base) + NOTE_INPUT_MAX + 1 bytes). Returns how many input bytes
 * that used: the caller's data goes on from there. */
static inline size_t vmcoreinfo_input(const uint8_t *data, size_t size, const char *base, char *out)
{
	const size_t first = offsetof(struct vmcoreinfo, page_size);
	const size_t nfields = (sizeof(struct vmcoreinfo) - first) / sizeof(int64_t);
	size_t n, len = strlen(base), used = 1;

	memcpy(out, base, len + 1);
	if (size < 1)
		return 0;
	n = data[0] & NOTE_CHANGES_MAX;
	for (size_t i = 0; i < n && used + NOTE_CHANGE_SIZE <= size; i++, used += NOTE_CHANGE_SIZE) {
		const uint8_t *c = data + used;
		int16_t value = (int16_t)(c[1] | c[2] << 8);
		const char *key = vmcoreinfo_key_name(first + c[0] % nfields * sizeof(int64_t));

		len += (size_t)snprintf(out + len, 80, "%s=%d\n", key, value);
	}
	return used;
}

#endif
