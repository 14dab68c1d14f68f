/* mountinfo: the one reader of /proc/self/mountinfo (proc(5)), for the
 * generator (the host's root), resume's safety check (nothing on a block
 * device is mounted yet) and the way out (what is left under /oldroot). */
#ifndef LIFEBOAT_COMMON_MOUNTINFO_H
#define LIFEBOAT_COMMON_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

/* One line. The strings point into the line, which the parser cut into
 * fields and unescaped in place (\040 a space, \011 a tab, \012 a newline,
 * \134 a backslash): valid while the line is, for the callback's time. */
struct mountinfo_entry {
	unsigned int major, minor;  /* st_dev of the filesystem (0:N for pseudo, btrfs) */
	const char *root;           /* the mounted directory within its filesystem */
	const char *path;           /* the mount point */
	const char *options;        /* per-mount options (rw, nosuid, ...) */
	const char *fstype;
	const char *source;         /* "/dev/vda1", "server:/export", "proc", ... */
};

/* Parse one line (without or with its newline) in place; 0, or -EINVAL
 * when it is not a mountinfo line. */
int mountinfo_parse_line(char *line, struct mountinfo_entry *out);

/* Called for each line that parses; a non-zero return stops the walk and
 * is what the walk returns. */
typedef int (*mountinfo_fn)(const struct mountinfo_entry *m, void *ctx);

/* Walk len bytes of mountinfo text (lines however long; lines that do not
 * parse are skipped). 0 when fn never stopped it, fn's value, or -ENOMEM. */
int mountinfo_walk(const char *text, size_t len, mountinfo_fn fn, void *ctx);

/* The same over a file (normally "/proc/self/mountinfo"); -errno when it
 * cannot be opened. */
int mountinfo_walk_file(const char *path, mountinfo_fn fn, void *ctx);

/* True when the mount is of a filesystem on a block device: a non-zero
 * major, or (btrfs, whose st_dev is anonymous) a /dev/ source. */
bool mountinfo_is_block(const struct mountinfo_entry *m);

#endif
