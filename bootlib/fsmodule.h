/* fsmodule: load the kernel module a filesystem type needs before it is
 * mounted (the root, a key device, a dump target). */
#ifndef LIFEBOAT_BOOTLIB_FSMODULE_H
#define LIFEBOAT_BOOTLIB_FSMODULE_H

/* Load the module of filesystem type (as mount(2) takes it: "ext4") by its
 * alias fs-TYPE, else by the type's name, through bootlib/modload.h.
 * Returns what modload_name does: the number of modules newly loaded,
 * -ENOENT when the table knows neither name, or another -errno. */
int fsmodule_load(const char *type);
/* The same through modload_background: the module links while the caller
 * waits for the device. Returns 0 once started, or what that returns. */
int fsmodule_load_background(const char *type);

#endif
