/* report: /run/initramfs/rdsosreport.txt, everything needed to diagnose a boot. */
#ifndef LIFEBOAT_RESCUE_REPORT_H
#define LIFEBOAT_RESCUE_REPORT_H

#include "common/layout.h"

#include <stdio.h>

#define RESCUE_REPORT_PATH LAYOUT_RESCUE_REPORT

/* Write the report: why the rescue was entered (what), the command line,
 * the build settings, the timeline, block devices with blkid's tags, loaded
 * modules, mounts, network interfaces (when there are any besides lo) and
 * the kernel log. Written to /run only: nothing touches a disk.
 * Returns 0 or -errno. */
int rescue_report_write(const char *what);

#endif
