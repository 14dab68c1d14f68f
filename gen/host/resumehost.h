/* resumehost: the host's resume device (gen/feature/resume_pack.c records it). */
#ifndef LIFEBOAT_RESUMEHOST_H
#define LIFEBOAT_RESUMEHOST_H

#include <stddef.h>


struct resume_host {
	char spec[320];              /* "UUID=...", or "MAJ:MIN" when it has none */
	unsigned long long offset;   /* resume_offset, pages; 0 for a partition */
	char from[64];               /* where it was found, for the report */
};

/* The swap partition /proc/swaps lists with the largest size (what
 * initramfs-tools picks too): its path into path. Swap files are skipped:
 * resuming from one needs its offset, which only the kernel's setting
 * gives. Returns 0, or -ENOENT when there is none. */
int resumehost_swaps_pick_largest(const char *text, char *path, size_t size);
/* The host's resume device, reading ROOT/sys/power/resume (and
 * resume_offset) first, then ROOT/proc/swaps (root "" is the host).
 * Returns 0, -ENOENT when the host has none, or another -errno. */
int resumehost_detect(const char *root, struct resume_host *out);

#endif
