/* shellsetup: lifeboat's modprobe and /etc/filesystems for the rescue shell. */
#include "bootlib/shellsetup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/filewrite.h"
#include "common/layout.h"

#define SHELLSETUP_TABLE_MAX (16u << 20)
#define FS_ALIAS_PREFIX "fs-"

/* Tried first: the types most Linux roots are. */
static const char *const preferred[] = { "ext4", "xfs", "btrfs" };

/* Types with an fs- alias that no block device holds: trying them on a
 * disk would only load their modules. */
static const char *const not_on_disk[] = {
	"9p", "autofs", "ceph", "cifs", "configfs", "fuse", "fuseblk", "fusectl", "nfs",
	"nfs4", "overlay", "smb3", "virtiofs",
};

static bool listed(const char *const *list, size_t n, const char *type)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], type) == 0)
			return true;
	return false;
}

/* The type an alias names, or NULL: a literal "fs-TYPE" whose module the
 * table has. */
static const char *alias_fstype(const struct modtab *t, const struct modtab_alias *a)
{
	const char *type = a->pattern + strlen(FS_ALIAS_PREFIX);

	if (strncmp(a->pattern, FS_ALIAS_PREFIX, strlen(FS_ALIAS_PREFIX)) != 0 || !*type ||
	    a->literal_len != strlen(a->pattern) || !modtab_find(t, a->module))
		return NULL;
	if (listed(not_on_disk, sizeof(not_on_disk) / sizeof(not_on_disk[0]), type))
		return NULL;
	return type;
}

int shellsetup_fstypes(const struct modtab *t, struct strv *out)
{
	struct strv found = STRV_INIT;
	int r = 0;

	for (size_t i = 0; r == 0 && i < t->n_aliases; i++) {
		const char *type = alias_fstype(t, &t->aliases[i]);

		if (type)
			r = strv_push_unique(&found, type);
	}
	for (size_t i = 0; r == 0 && i < sizeof(preferred) / sizeof(preferred[0]); i++)
		if (strv_contains(&found, preferred[i]))
			r = strv_push_unique(out, preferred[i]);
	for (size_t i = 0; r == 0 && i < found.len; i++)
		r = strv_push_unique(out, found.items[i]);
	strv_free(&found);
	return r < 0 ? -ENOMEM : 0;
}

/* Each line followed by a newline, into a new file path (O_EXCL: an
 * existing one stays). */
static int lines_write(const char *const *lines, size_t n, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int r = 0;

	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	for (size_t i = 0; r == 0 && i < n; i++) {
		r = file_write_fd(fd, lines[i], strlen(lines[i]));
		if (r == 0)
			r = file_write_fd(fd, "\n", 1);
	}
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static const char *const rc_lines[] = {
	"# The rescue shell's rc (lifeboat, bootlib/shellsetup.c): busybox's sh",
	"# runs its own applet before it looks in PATH, and busybox's modprobe",
	"# needs a modules.dep the image does not have.",
	LAYOUT_MODPROBE_NAME "() { " LAYOUT_MODPROBE " \"$@\"; }",
};

/* /etc/filesystems, one type a line, unless the image has one. */
static int filesystems_write(void)
{
	struct strv types = STRV_INIT;
	struct modtab t;
	char *text = NULL;
	size_t len = 0;
	int r;

	if (access(SHELLSETUP_FILESYSTEMS, F_OK) == 0)
		return 0;
	r = file_read_all(MODTAB_PATH, SHELLSETUP_TABLE_MAX, &text, &len);
	if (r == -ENOENT)
		return 0;   /* no modules: the kernel has every type it can mount */
	if (r == 0)
		r = modtab_parse(text, len, &t, NULL);
	free(text);
	if (r < 0)
		return r;
	r = shellsetup_fstypes(&t, &types);
	modtab_free(&t);
	if (r == 0)
		r = lines_write((const char *const *)types.items, types.len, SHELLSETUP_FILESYSTEMS);
	strv_free(&types);
	return r;
}

/* name -> target, unless name exists. */
static int link_once(const char *target, const char *name)
{
	return symlink(target, name) == 0 || errno == EEXIST ? 0 : -errno;
}

/* LAYOUT_MODPROBE for the shell's PATH, /sbin/modprobe for the kernel's
 * request_module; an image without /sbin gets it as a link to usr/sbin,
 * as on a merged-/usr system. */
static int modprobe_links(void)
{
	int r;

	if (mkdir("/usr/sbin", 0755) < 0 && errno != EEXIST)
		return -errno;
	r = link_once(LAYOUT_INIT, LAYOUT_MODPROBE);
	if (r == 0)
		r = link_once("usr/sbin", "/sbin");
	if (r == 0)
		r = link_once(LAYOUT_INIT, "/sbin/" LAYOUT_MODPROBE_NAME);
	return r;
}

int shellsetup_install(void)
{
	int r, w;

	/* Not in an initramfs (a unit test on the build host): nothing to
	 * link to, and the host's /etc is not the image's. */
	if (access(LAYOUT_INIT, X_OK) < 0)
		return 0;
	r = modprobe_links();
	if (r == 0)
		r = lines_write(rc_lines, sizeof(rc_lines) / sizeof(rc_lines[0]), SHELLSETUP_RC);
	w = filesystems_write();

	return r < 0 ? r : w;
}
