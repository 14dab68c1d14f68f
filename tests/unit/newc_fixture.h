/* newc_fixture: cpio "newc" archives made by hand, so a test can write any
 * header value (a hostile size, a name with escape sequences), unlike
 * gen/image/image.c, which only writes sane ones. */
#ifndef LIFEBOAT_TEST_NEWC_FIXTURE_H
#define LIFEBOAT_TEST_NEWC_FIXTURE_H

#include <stdio.h>
#include <string.h>

/* Zeros up to the next multiple of 4 of the stream's offset. */
static inline void newc_pad(FILE *f)
{
	long at = ftell(f);

	while (at++ % 4)
		fputc(0, f);
}

/* A header claiming filesize bytes of data, and the name; the data is
 * the caller's to write (or skip, for a sparse file). */
static inline void newc_header(FILE *f, const char *name, unsigned long mode, unsigned long ino,
			       unsigned long nlink, unsigned long filesize)
{
	fprintf(f, "070701%08lX%08lX%08X%08X%08lX%08X%08lX%08X%08X%08X%08X%08zX%08X",
		ino, mode, 0, 0, nlink, 0, filesize, 0, 0, 0, 0, strlen(name) + 1, 0);
	fwrite(name, 1, strlen(name) + 1, f);
	newc_pad(f);
}

static inline void newc_entry(FILE *f, const char *name, unsigned long mode, unsigned long ino,
			      unsigned long nlink, const char *data)
{
	newc_header(f, name, mode, ino, nlink, strlen(data));
	fputs(data, f);
	newc_pad(f);
}

static inline void newc_trailer(FILE *f)
{
	newc_header(f, "TRAILER!!!", 0, 0, 1, 0);
}

#endif
