/* coldplug: load the drivers of devices that exist before the init listens. */
#ifndef LIFEBOAT_COLDPLUG_H
#define LIFEBOAT_COLDPLUG_H

#include <stdbool.h>

/* Read the modalias of every device on every bus (/sys/bus/STAR/devices/STAR)
 * and load what each needs. Returns the number of modules loaded. */
int coldplug_devices(void);
/* The first pass of a boot: every device but the late ones (below);
 * *late_skipped says whether a late one is waiting for coldplug_late(). */
int coldplug_early(bool *late_skipped);
/* The late devices' drivers. */
int coldplug_late(void);
/* Whether a device is late: a controller that seldom holds a root today
 * but whose driver costs the boot (a PCI IDE controller: qemu's and old
 * hypervisors' PIIX, whose libata, SCSI core and ATAPI probe take about
 * 0.3 s of a one-CPU VM), or a PS/2 port (serio_raw, psmouse: no disk is
 * there, and a keyboard's driver is loaded before any prompt as for
 * every late device). Its driver is loaded once the device wait has
 * found nothing for a moment, before any prompt, or left to the real
 * root's udev when the root was found without it (docs/benchmarks.md). */
bool coldplug_is_late(const char *modalias);
/* Whether a device is a virtio disk or its controller: in the early pass
 * (and while late ones wait, evloop.c) their drivers probe before the
 * load returns, every other in the background. A virtio probe waits on no
 * hardware (tens of ms); a real controller's can (SATA link resets), and
 * must not hold up the next device's driver. */
bool coldplug_is_disk_maker(const char *modalias);
/* Load the driver a device's modalias asks for. With early (the first
 * pass, or while late devices wait) a virtio disk's driver probes before
 * the call returns; every other probes in the background. Returns the
 * number of modules loaded. */
int coldplug_load(const char *modalias, bool early);
/* The same for the buses named (NULL-terminated: "usb", "hid"). */
int coldplug_buses(const char *const *buses);

#endif
