/* coldplug: load the drivers of devices that exist before the init listens. */
#ifndef LIFEBOAT_COLDPLUG_H
#define LIFEBOAT_COLDPLUG_H

/* Read the modalias of every device on every bus (/sys/bus/STAR/devices/STAR)
 * and load what each needs. Returns the number of modules loaded. */
int coldplug_devices(void);
/* The same for the buses named (NULL-terminated: "usb", "hid"). */
int coldplug_buses(const char *const *buses);

#endif
