/* dmname: root= paths that name a device-mapper device (/dev/mapper/NAME, /dev/VG/LV). */
#ifndef LIFEBOAT_BLOCKSTACK_DMNAME_H
#define LIFEBOAT_BLOCKSTACK_DMNAME_H

#include <stddef.h>

/* The device-mapper name a path below /dev stands for ("mapper/NAME" ->
 * NAME; "VG/LV" -> LVM's "VG-LV", each '-' inside VG and LV doubled).
 * Returns 0, or -EINVAL when the path names no dm device (a single
 * component, more than two, an empty part), -ENAMETOOLONG. */
int dmname_from_path(const char *path, char *out, size_t size);

#endif
