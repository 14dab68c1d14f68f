/* lvmfilter: the device filters of the host's lvm.conf, for the image's. */
#ifndef LIFEBOAT_LVMFILTER_H
#define LIFEBOAT_LVMFILTER_H

#include <stddef.h>

/* The settings filter and global_filter of the devices section of an
 * lvm.conf text (lvm.conf(5): sections NAME { ... }, KEY = VALUE, values
 * a "string", a number or a [ list ] over several lines, # comments), as
 * "\tKEY = VALUE\n" lines with VALUE as written, into out (always
 * terminated; "" when there are none). Returns 0, or -E2BIG when they do
 * not fit (out is then ""). */
int lvmfilter_extract(const char *text, char *out, size_t size);

#endif
