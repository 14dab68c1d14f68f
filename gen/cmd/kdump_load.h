/* kdump_load: `lifeboat kdump load|status|unload`: arm the crash kernel
 * with kexec_file_load(2), without kexec-tools. */
#ifndef LIFEBOAT_GEN_KDUMP_LOAD_H
#define LIFEBOAT_GEN_KDUMP_LOAD_H

#include <stddef.h>

/* The capture kernel's command line from the running one: crashkernel=,
 * BOOT_IMAGE= and initrd= dropped (the capture must not reserve memory
 * again, and the loader passes the image itself), then irqpoll
 * reset_devices (devices reset from their crashed state) and nr_cpus=1
 * (one CPU) unless extra gives nr_cpus= (the dump is then compressed on
 * that many: docs/kdump.md), then extra. Returns 0 or -ENAMETOOLONG. */
int kdump_load_capture_cmdline(const char *running, const char *extra, char *out, size_t size);

/* argv[0] is "kdump". Returns the exit status. */
int kdump_load_main(int argc, char **argv);

#endif
