/* dumpdir: the dump's own directory. The capture runs as root and writes
 * the crashed kernel's memory (disk keys, passwords), so it never writes
 * into a directory it did not make: the dump directory is made fresh
 * (mode 0700, a suffixed name when the name is taken), inside a directory
 * that no other user can change, and every step is opened relative to the
 * one before, without following a symlink, so no rename redirects it. */
#ifndef LIFEBOAT_KDUMP_DUMPDIR_H
#define LIFEBOAT_KDUMP_DUMPDIR_H

#include <stdbool.h>
#include <sys/types.h>

#define DUMPDIR_NAME_MAX 128
/* Directories below the mount point: more is no dump directory anyone means. */
#define DUMPDIR_DEPTH_MAX 32
/* NAME, NAME-1, ... NAME-(DUMPDIR_TRIES-1); someone who made them all
 * before the crash only keeps the dump off this target. */
#define DUMPDIR_TRIES 100

struct dumpdir {
	int parent;                      /* MNT/SUBDIR */
	int fd;                          /* the dump's own directory in it */
	char name[DUMPDIR_NAME_MAX];     /* its name: NAME or NAME-N */
	bool made;                       /* by this capture: it may remove it */
	/* After -EPERM, -ELOOP or -ENOTDIR: the directory refused (its path
	 * under the mount point, "" for the mount point), its owner and mode. */
	char refused[256];
	uid_t refused_uid;
	mode_t refused_mode;
};

/* Open MNT/SUBDIR (SUBDIR "" or "/DIR/..."; missing directories are made,
 * 0700), check that each directory on the way is root's (or, on NFS, of
 * the user the server maps root to) and not writable by group or others
 * unless sticky, then make the dump's directory NAME in it. Returns 0, or
 * -EPERM (a directory others could change), -ELOOP / -ENOTDIR (a symlink
 * or no directory on the way), -EEXIST (every name taken), -EINVAL (".."
 * in SUBDIR), -errno; d->refused says where for the first three. */
int dumpdir_make(struct dumpdir *d, const char *mnt, const char *subdir, const char *name);
/* After a failed save: remove the dump's directory if it is empty. */
void dumpdir_remove(struct dumpdir *d);
void dumpdir_close(struct dumpdir *d);

#endif
