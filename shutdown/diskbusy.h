/* diskbusy: whether a network disk may be let go at the way out. */
#ifndef LIFEBOAT_SHUTDOWN_DISKBUSY_H
#define LIFEBOAT_SHUTDOWN_DISKBUSY_H

#include <stdbool.h>

/* Whether /dev/DISK is mounted (even detached) or held by a dm or md
 * device: it cannot then be opened exclusively, and its session (iSCSI,
 * NVMe/TCP) must stay, or writes would be lost. */
bool diskbusy_held(const char *disk);

#endif
