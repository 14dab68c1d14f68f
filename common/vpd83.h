/* vpd83: a SCSI disk's identity from its Device Identification VPD page
 * (0x83, sysfs device/vpd_pg83), spelled as multipath-tools spells it.
 *
 * With no udev in the image there is no ID_SERIAL, and libmultipath's
 * one-shot `multipath` falls back to this page (its sysfs uid, multipath.conf(5)
 * "WWID generation"). The init reads the same page to know, before
 * multipath runs, which disks are paths of one LUN: the two must agree,
 * so the designator chosen and its prefix follow libmultipath 0.9.4:
 * among the designators associated with the logical unit, NAA (IEEE
 * Registered Extended > Registered > Extended > Locally assigned) beats
 * EUI-64 and SCSI name strings, which beat T10 vendor ids; the WWID is
 * "3" + hex for NAA, "2" + hex for EUI-64, "1" + vendor id with runs of
 * spaces turned into one '_' for T10, and for a SCSI name string "3"
 * (naa.), "2" (eui.) or "8" (iqn. and others) + the name after its
 * four-character prefix (lower case, except for "8"). */
#ifndef LIFEBOAT_COMMON_VPD83_H
#define LIFEBOAT_COMMON_VPD83_H

#include <stddef.h>

/* libmultipath's WWID_SIZE: a WWID is at most 127 characters. */
#define VPD83_WWID_MAX 128

/* Parse page (len bytes, as read from vpd_pg83) into wwid (size bytes,
 * NUL-terminated; a WWID longer than fits is cut, as libmultipath cuts
 * it). Returns the WWID's length, -EINVAL when the page is no page 0x83,
 * or -ENODATA when it has no usable designator. */
int vpd83_wwid(const unsigned char *page, size_t len, char *wwid, size_t size);

#endif
