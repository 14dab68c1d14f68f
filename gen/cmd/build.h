/* build: assemble an image from the build options. */
#ifndef LIFEBOAT_BUILD_H
#define LIFEBOAT_BUILD_H

#include <stddef.h>

#include "gen/opts/build_opts.h"
#include "gen/host/hostfacts.h"

/* Returns 0 or -errno (the reason was reported). */
int build_image(const struct build_opts *o);
/* One image, for o->kver (not "all"); host is the build host read once,
 * NULL for a generic image. Returns 0 or -errno (reported). */
int build_kernel(const struct build_opts *o, const struct host_facts *host);
/* `lifeboat build [options]` (argv[0] is "build"): 0 built, 1 the build
 * failed, 2 a usage error. */
int build_main(int argc, char **argv);

#endif
