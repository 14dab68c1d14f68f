/* timeline_svg: draw a boot timeline as an SVG picture, one bar per phase
 * on a time axis from 0 (the kernel started) to the last mark. */
#ifndef LIFEBOAT_TIMELINE_SVG_H
#define LIFEBOAT_TIMELINE_SVG_H

#include <stdio.h>

#include "gen/cmd/timeline_read.h"

/* Write the picture to f. Returns 0, or -EIO if f reports a write error. */
int timeline_svg_write(const struct timeline *tl, FILE *f);

#endif
