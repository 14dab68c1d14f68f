/* build_all: `lifeboat build --kver all`, the hooks' "-k all": an image for
 * every installed kernel, the builds run in parallel, one process each,
 * as many at a time as the machine has online CPUs (or --jobs). */
#ifndef LIFEBOAT_BUILD_ALL_H
#define LIFEBOAT_BUILD_ALL_H

#include <stddef.h>

#include "gen/opts/build_opts.h"
#include "gen/host/hostfacts.h"

/* o->output with every %k replaced by kver. Returns 0 or -ENAMETOOLONG. */
int build_all_output(const char *pattern, const char *kver, char *out, size_t size);

/* Build o for each kernel (host as build_kernel takes it). Each build
 * reports its own errors; at the end one line names the kernels whose
 * build failed. Returns 0, or -EIO when any failed, -ENOENT when no
 * kernel is installed. */
int build_all(const struct build_opts *o, const struct host_facts *host);

#endif
