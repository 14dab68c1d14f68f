/* timeline_read: parse the init's boot timeline (/run/initramfs/timeline).
 *
 * The format (common/timeline_format.h, docs/image-layout.md) is one line a phase:
 *     SECONDS PHASE [DETAIL]
 * SECONDS is decimal with up to 9 fraction digits; PHASE one word of
 * letters, digits, '_', '-', '.'; DETAIL the rest of the line. Empty lines
 * are skipped; a last line without its newline is accepted (the init may
 * still be writing when the file is read).
 */
#ifndef LIFEBOAT_TIMELINE_READ_H
#define LIFEBOAT_TIMELINE_READ_H

#include <stddef.h>

#define TIMELINE_PHASE_MAX 32
#define TIMELINE_DETAIL_MAX 256
#define TIMELINE_LINES_MAX 4096    /* more is not a timeline the init wrote */

struct timeline_mark {
	unsigned long long usec;             /* CLOCK_MONOTONIC, microseconds */
	char phase[TIMELINE_PHASE_MAX];
	char detail[TIMELINE_DETAIL_MAX];    /* longer details are cut */
};

struct timeline {
	struct timeline_mark *marks;
	size_t len, cap;
};

/* Parse text into tl (appending). On a malformed line returns -EINVAL and
 * sets *bad_line to its number (from 1); -E2BIG past TIMELINE_LINES_MAX. */
int timeline_read_parse(const char *text, size_t len, struct timeline *tl, unsigned int *bad_line);
/* Read and parse a file; -errno from reading, or as timeline_read_parse. */
int timeline_read_load(const char *path, struct timeline *tl, unsigned int *bad_line);
void timeline_read_free(struct timeline *tl);

#endif
