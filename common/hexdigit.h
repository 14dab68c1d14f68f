/* hexdigit: one hexadecimal digit's value, for the parsers that read hex
 * (a live image's SHA-256, udev's \xHH escapes in fstab's by-label links). */
#ifndef LIFEBOAT_COMMON_HEXDIGIT_H
#define LIFEBOAT_COMMON_HEXDIGIT_H

/* 0..15, or -1 when c is no hexadecimal digit (either case). */
static inline int hexdigit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
