/* mountopts: split a mount option string into mount(2) flags and fs data. */
#include "init/mountopts.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mount.h>

struct mount_flag {
	const char *name;
	unsigned long flag;
	bool clear;    /* the option turns the flag off */
};

static const struct mount_flag mount_flags[] = {
	{ "ro",          MS_RDONLY,      false },
	{ "rw",          MS_RDONLY,      true },
	{ "nosuid",      MS_NOSUID,      false },
	{ "suid",        MS_NOSUID,      true },
	{ "nodev",       MS_NODEV,       false },
	{ "dev",         MS_NODEV,       true },
	{ "noexec",      MS_NOEXEC,      false },
	{ "exec",        MS_NOEXEC,      true },
	{ "sync",        MS_SYNCHRONOUS, false },
	{ "async",       MS_SYNCHRONOUS, true },
	{ "dirsync",     MS_DIRSYNC,     false },
	{ "noatime",     MS_NOATIME,     false },
	{ "atime",       MS_NOATIME,     true },
	{ "nodiratime",  MS_NODIRATIME,  false },
	{ "diratime",    MS_NODIRATIME,  true },
	{ "relatime",    MS_RELATIME,    false },
	{ "norelatime",  MS_RELATIME,    true },
	{ "strictatime", MS_STRICTATIME, false },
	{ "lazytime",    MS_LAZYTIME,    false },
	{ "nolazytime",  MS_LAZYTIME,    true },
	{ "silent",      MS_SILENT,      false },
	{ "loud",        MS_SILENT,      true },
	/* fstab words that mean nothing to the kernel. */
	{ "defaults",    0,              false },
	{ "auto",        0,              false },
	{ "noauto",      0,              false },
	{ "nofail",      0,              false },
	{ "user",        0,              false },
	{ "nouser",      0,              false },
};

static const struct mount_flag *flag_find(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof(mount_flags) / sizeof(mount_flags[0]); i++)
		if (strlen(mount_flags[i].name) == len &&
		    strncmp(mount_flags[i].name, word, len) == 0)
			return &mount_flags[i];
	return NULL;
}

int mountopts_parse(const char *opts, unsigned long *flags, char *data, size_t size)
{
	size_t used = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	data[0] = '\0';
	while (opts && *opts) {
		size_t len = strcspn(opts, ",");
		const struct mount_flag *f = flag_find(opts, len);

		if (f && f->clear)
			*flags &= ~f->flag;
		else if (f)
			*flags |= f->flag;
		else if (len > 0) {
			if (used + len + 2 > size)
				return -ENAMETOOLONG;
			if (used)
				data[used++] = ',';
			memcpy(data + used, opts, len);
			used += len;
			data[used] = '\0';
		}
		opts += len;
		if (*opts == ',')
			opts++;
	}
	return 0;
}
