/* termescape: outside bytes made safe to print on a terminal.
 *
 * Names, symlink targets and build.conf from an image (lifeboat ls), a
 * disk's label and UUID (the init's list of block devices), the text a
 * helper read from a LUKS2 header (lifeboat-clevis's reasons) are outside
 * input: an escape sequence or a newline in them would forge lines or
 * recolour the terminal of whoever reads them. Printable ASCII and valid UTF-8 pass through;
 * everything else is written as ls -b and systemd write it: \n \t \r \a \b
 * \f \v as themselves, any other byte as \xNN, and the backslash as \\, so
 * the output says unambiguously what the bytes were.
 */
#ifndef LIFEBOAT_TERMESCAPE_H
#define LIFEBOAT_TERMESCAPE_H

#include <stddef.h>

/* build.conf is text made of lines: keep its newlines as newlines. */
#define TERM_ESCAPE_KEEP_NEWLINE 1u
/* A value shown between double quotes: escape the quote too (\x22), so
 * that it cannot end the value and start a forged one. */
#define TERM_ESCAPE_QUOTE 2u

/* Write src[0..len) escaped into dst, NUL-terminated (when cap > 0), as many
 * whole escapes as fit. Returns the length of the whole escaped text (without
 * the NUL), as snprintf does: a result >= cap means it was cut. */
size_t term_escape(char *dst, size_t cap, const void *src, size_t len, unsigned int flags);

#endif
