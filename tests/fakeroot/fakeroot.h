/* fakeroot: build a fake root for a harness case and play its kernel.
 *
 * A case (tests/fakeroot/test_NAME.c) is a cmocka program that runs the
 * init's own code with the shim (shim.so beside it) preloaded: it makes
 * a tree here, sets FAKEROOT to it, and the init's reads of /sys, /dev,
 * /proc/cmdline, /run, ... land in the tree. What the kernel would do
 * after a module load (a disk appears, its uevent is sent) the case
 * scripts with fr_after_load. */
#ifndef LIFEBOAT_TESTS_FAKEROOT_H
#define LIFEBOAT_TESTS_FAKEROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct fr_tree {
	char dir[64];   /* /tmp/lifeboat-fakeroot-XXXXXX: short enough for a socket path */
};

/* First in main: run this program again with the shim beside it
 * preloaded, unless it is. Returns only when it is (exits on failure). */
void fr_preload(char **argv);

/* A fresh tree under /tmp (FAKEROOT is set to it): /dev with the real
 * null, zero, urandom and console nodes, empty /sys/class/block, /run.
 * Returns 0 or -errno. */
int fr_tree_make(struct fr_tree *t);
/* Remove the tree and unset FAKEROOT. */
void fr_tree_remove(struct fr_tree *t);
/* A cmocka teardown: remove the tree fr_tree_make made last. */
int fr_tree_teardown(void **state);
/* DIR/rel with its parent folders; the text (NULL: an empty folder). */
int fr_write(const struct fr_tree *t, const char *rel, const char *text);
/* The module table (/lib/lifeboat/modules.tab, common/modtab.h) and a
 * file for each module it lists. */
int fr_modtab(const struct fr_tree *t, const char *table);
/* An ext4 image at DIR/rel (mkfs.ext4, 1 MiB) with that label and UUID. */
int fr_ext4(const struct fr_tree *t, const char *rel, const char *label, const char *uuid);
/* A LUKS1 header at DIR/rel (what blkid reads of one: magic, version, UUID). */
int fr_luks1(const struct fr_tree *t, const char *rel, const char *uuid);
/* A block device as the kernel shows it: /sys/class/block/NAME/dev and
 * uevent, and /dev/NAME (the image at DIR/image, moved there). */
int fr_block_add(const struct fr_tree *t, const char *name, unsigned int major,
		 unsigned int minor, const char *image);
/* A kernel message "ACTION@DEVPATH\0KEY=VALUE\0..." into the init's uevent
 * socket; fields are the KEY=VALUE words, NULL-terminated. */
int fr_uevent_send(const struct fr_tree *t, const char *action, const char *devpath,
		   const char *const *fields);
/* The block device NAME appears: fr_block_add, then its "add" uevent. */
int fr_block_appears(const struct fr_tree *t, const char *name, unsigned int major,
		     unsigned int minor, const char *image);
/* The lines of DIR/calls.log (the shim's record) into buf, "" for none. */
void fr_calls(const struct fr_tree *t, char *buf, size_t size);
/* A disk as the kernel makes it (fr_block_appears): the image at
 * DIR/image becomes /dev/NAME. */
struct fr_disk {
	const char *name;
	unsigned int major, minor;
	const char *image;
};
/* The kernel's part, in a child: once calls.log has a line holding
 * trigger (the module load or tool run the disk waits for), the disk
 * appears. Returns the child's pid; fr_after_load_join waits for it (0:
 * the disk appeared, -ETIMEDOUT: the trigger never came within 10 s). */
pid_t fr_after_load(const struct fr_tree *t, const char *trigger, const struct fr_disk *disk);
int fr_after_load_join(pid_t pid);

#endif
