/* shim: what the parts of the fake-root preload library share.
 *
 * The library (shim_paths.c, shim_kernel.c, shim_uevent.c) is preloaded
 * into a harness case (tests/fakeroot/test_*.c, fr_preload). With FAKEROOT set
 * to a directory it sends the paths the init reads the kernel through
 * (/sys, /dev, /proc/cmdline, /run, ...) into that tree, and does not do
 * what only a kernel can: module loads and mounts are written to
 * FAKEROOT/calls.log, and the uevent socket is fed by the harness. */
#ifndef LIFEBOAT_TESTS_FAKEROOT_SHIM_H
#define LIFEBOAT_TESTS_FAKEROOT_SHIM_H

#include <stddef.h>

/* The fake tree (FAKEROOT), or NULL outside a harness run. */
const char *shim_root(void);
/* path inside the fake tree when it is one of the redirected ones (into
 * buf), else path itself. */
const char *shim_path(const char *path, char *buf, size_t size);
/* One line appended to FAKEROOT/calls.log (or stderr without a tree). */
void shim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The next definition of name after this library's: libc's. */
void *shim_next(const char *name);

#endif
