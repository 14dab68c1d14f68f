/* sigprobe: read a resume device's hibernation signature, directly and with libblkid. */
#ifndef LIFEBOAT_SIGPROBE_H
#define LIFEBOAT_SIGPROBE_H

#include "resume/swsusp.h"

struct resume_sig {
	struct swsusp_header header;   /* read directly: what the kernel will check */
	char blkid_type[32];           /* libblkid's TYPE ("swap", "swsuspend"), or "" */
	char blkid_version[32];        /* its VERSION ("1", "s1suspend", ...), or "" */
};

/* Probe the swap area that starts offset_pages pages into /dev/DEVNAME (or
 * the file DEVNAME when it is an absolute path; 0 for a swap partition, resume_offset= for a swap file). Returns 0, or
 * -errno when the device cannot be opened or its first page read. */
int resume_sig_probe(const char *devname, unsigned long long offset_pages,
		     struct resume_sig *out);

#endif
