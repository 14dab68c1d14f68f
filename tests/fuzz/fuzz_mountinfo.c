/* fuzz_mountinfo: resume's check for a mounted block device on an
 * arbitrary mountinfo file, read through mountinfo_find_block: no crash,
 * and the file's answer is the answer of its lines taken one by one (a
 * line is never split or joined, however long). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "resume/mountinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first block mount among the lines of text, described as
 * mountinfo_find_block does; 0 when none. */
static int lines_find_block(char *text, char *what, size_t size)
{
	char where[256], source[256];

	for (char *line = text; *line; ) {
		char *nl = strchr(line, '\n');
		char *next = nl ? nl + 1 : line + strlen(line);
		char keep = *next;
		bool block;

		*next = '\0';
		block = mountinfo_line_is_block(line, where, sizeof(where), source, sizeof(source));
		*next = keep;
		if (block) {
			snprintf(what, size, "%s on %s", source, where);
			return 1;
		}
		line = next;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], got[600], want[600];
	char *text;
	int fd, r;

	/* A NUL ends a line for the parser but not for the reader: keep the
	 * comparison to text files. */
	if (memchr(data, '\0', size))
		return 0;
	text = malloc(size + 1);
	fd = memfd_create("mountinfo", 0);
	if (!text || fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	got[0] = want[0] = '\0';
	r = mountinfo_find_block(path, got, sizeof(got));
	if (r != lines_find_block(text, want, sizeof(want)) || strcmp(got, want) != 0)
		abort();
	close(fd);
	free(text);
	return 0;
}
