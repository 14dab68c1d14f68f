/* resume: restore a hibernated system before anything mounts a disk. */
#ifndef LIFEBOAT_RESUME_H
#define LIFEBOAT_RESUME_H

#include "resume/resume_args.h"

/* Decide whether to resume, and resume: wait for the device resume= names
 * (up to rd.resume.timeout), read its hibernation signature and, for a
 * kernel image, hand the device to the kernel through /sys/power/resume.
 * When the image is restored this never returns (the hibernated system
 * continues); otherwise it says why on the console or in the log and
 * returns, and the normal boot goes on. Must run before any block
 * filesystem is mounted (docs/resume.md): it checks, and refuses otherwise. */
void resume_from_hibernation(const struct resume_args *args);

#endif
