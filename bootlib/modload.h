/* modload: load kernel modules in the init from the module table. */
#ifndef LIFEBOAT_MODLOAD_H
#define LIFEBOAT_MODLOAD_H

#include <stddef.h>

#include "common/strv.h"

/* The MODULE.PARAM=VALUE words of the command line the init parsed (the
 * image's /etc/cmdline.d, then the kernel's: struct driver_args), kept
 * (copied) to be passed to the modules loaded (bootlib/modparams.h).
 * Returns 0 or -ENOMEM. */
int modload_set_params(const struct strv *words);

/* Read the table at path (MODTAB_PATH). A missing table is fine: an image
 * without modules, for a kernel with everything built in. */
int modload_open(const char *path);
/* rd.driver.blacklist=: never load this module, by name or alias. */
void modload_blacklist(const char *name);
/* Load a module by name or alias with its dependencies and softdeps
 * (rd.driver.pre=/post=). Returns the number of modules newly loaded, or
 * -ENOENT when the table does not know it, or another -errno. */
int modload_name(const char *name);
/* Load a module by name or alias (as modload_name) in a child while the
 * caller goes on: on a machine with more than one CPU the kernel links
 * it while the caller loads and probes other drivers, and on one CPU it
 * uses the time the caller waits for devices. One at a time. Returns 0
 * once started, -ENOENT when the table does not know the name, -EBUSY
 * while another runs, or another -errno. */
int modload_background(const char *name);
/* Wait for the background load and give its name. Returns the number of
 * modules it loaded (the table then knows them as loaded), -ECHILD when
 * none was started, or -EIO when a module failed (said in the log; a
 * later modload_name tries it again). */
int modload_background_join(char *name, size_t size);
/* Load what a device's modalias needs, its devices probed in the
 * background (the kernel's async_probe). Returns the number newly loaded. */
int modload_modalias(const char *modalias);
/* The same, probed before the call returns: the devices the driver makes
 * (a disk, a controller's children) exist when it does. */
int modload_modalias_probed(const char *modalias);
/* Forget the table and the blacklist. */
void modload_close(void);

/* How one module file is loaded: finit_module(2) by default. Unit tests
 * replace it to check the order without a kernel. Returns 0 or -errno
 * (-EEXIST: already loaded). */
extern int (*modload_load_fn)(const char *path, const char *options);

#endif
