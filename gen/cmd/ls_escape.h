/* ls_escape: bytes from an image made safe to print on a terminal.
 *
 * Names, symlink targets and build.conf come from the image, so they are
 * outside input: an escape sequence or a newline in a name would forge lines
 * or recolour the terminal. Printable ASCII and valid UTF-8 pass through;
 * everything else is written as ls -b and systemd write it: \n \t \r \a \b
 * \f \v as themselves, any other byte as \xNN, and the backslash as \\, so
 * the output says unambiguously what the bytes were.
 */
#ifndef LIFEBOAT_LS_ESCAPE_H
#define LIFEBOAT_LS_ESCAPE_H

#include <stddef.h>

/* build.conf is text made of lines: keep its newlines as newlines. */
#define LS_ESCAPE_KEEP_NEWLINE 1u

/* Write src[0..len) escaped into dst, NUL-terminated (when cap > 0), as many
 * whole escapes as fit. Returns the length of the whole escaped text (without
 * the NUL), as snprintf does: a result >= cap means it was cut. */
size_t ls_escape(char *dst, size_t cap, const void *src, size_t len, unsigned int flags);

#endif
