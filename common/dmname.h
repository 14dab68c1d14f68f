/* dmname: device-mapper names of LVM volumes, both ways: the init maps
 * root= paths (/dev/mapper/NAME, /dev/VG/LV) to them, the generator reads
 * a logical volume's volume group from its name. */
#ifndef LIFEBOAT_DMNAME_H
#define LIFEBOAT_DMNAME_H

#include <stddef.h>

/* The device-mapper name a path below /dev stands for ("mapper/NAME" ->
 * NAME; "VG/LV" -> LVM's "VG-LV", each '-' inside VG and LV doubled).
 * Returns 0, or -EINVAL when the path names no dm device (a single
 * component, more than two, an empty part), -ENAMETOOLONG. */
int dmname_from_path(const char *path, char *out, size_t size);
/* The volume group of an LVM device-mapper name ("my--vg-root" -> "my-vg"):
 * the part before the first '-' that is not doubled, undoubled. Returns 0,
 * -EINVAL when there is no such '-' or either part is empty, -ENAMETOOLONG. */
int dmname_lvm_vg(const char *dm_name, char *vg, size_t size);

#endif
