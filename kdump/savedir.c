/* savedir: save the dump into a directory of its own, with atomic names. */
#include "kdump/savedir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "kdump/dumpdir.h"

enum save_kind { SAVE_KDUMP, SAVE_ELF, SAVE_DMESG };

static int write_content(struct capture *cap, int fd, enum save_kind kind)
{
	struct diskdump_stats stats;
	struct dump_sink sink;
	ssize_t n;

	switch (kind) {
	case SAVE_KDUMP:
		dump_sink_init(&sink, fd, false);
		return capture_write_kdump(cap, &sink, &stats);
	case SAVE_ELF:
		return capture_write_elf(cap, fd);
	case SAVE_DMESG:
		n = write(fd, cap->dmesg, cap->dmesg_len);
		return n == (ssize_t)cap->dmesg_len ? 0 : n < 0 ? -errno : -EIO;
	}
	return -EINVAL;
}

/* NAME.incomplete in the dump's directory dir, made here (O_EXCL, never
 * through a symlink), written, synced, renamed to NAME. */
static int save_file(struct capture *cap, int dir, const char *name, enum save_kind kind)
{
	char tmp[64];
	int fd, r;

	snprintf(tmp, sizeof(tmp), "%s.incomplete", name);
	fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	r = write_content(cap, fd, kind);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dir, tmp, dir, name) < 0)
		r = -errno;
	/* A partial dump is worth nothing and takes the room a retry needs. */
	if (r < 0)
		unlinkat(dir, tmp, 0);
	return r;
}

static int room_check(struct capture *cap, int dir, const char *where)
{
	struct statvfs st;
	uint64_t need = 0, have;

	if (cap->conf.formats & FORMAT_KDUMP)
		need += cap->bound;
	if (cap->conf.formats & FORMAT_ELF)
		need += cap->elf_bound;
	need += cap->dmesg_len;
	if (fstatvfs(dir, &st) < 0)
		return -errno;
	have = (uint64_t)st.f_bavail * st.f_frsize;
	if (have >= need)
		return 0;
	log_warn("kdump: %s: %llu MiB free, the dump may take up to %llu MiB; skipping it "
		 "(free some space there, or give a larger target first)", where,
		 (unsigned long long)(have >> 20), (unsigned long long)((need >> 20) + 1));
	return -ENOSPC;
}

/* The one message for a dump directory that could not be made. */
static void report_dir(const struct dumpdir *d, int r, const char *subdir, const char *name,
		       const char *where)
{
	const char *dir = d->refused[0] ? d->refused : "/";

	if (r == -EPERM)
		log_error("kdump: %s on %s could be changed by another user (owner uid %u, mode "
			  "%04o), who would get the crashed kernel's memory; the dump is not saved "
			  "there: make it root's and not writable by group or others, or give it the "
			  "sticky bit (chmod 1777)", dir, where, (unsigned)d->refused_uid,
			  (unsigned)d->refused_mode);
	else if (r == -ELOOP || r == -ENOTDIR)
		log_error("kdump: %s on %s is a symlink or no directory; the dump is not saved "
			  "through it: make it a directory of root's", dir, where);
	else if (r == -EEXIST)
		log_error("kdump: %s/%s and its %d suffixed names on %s already exist; the dump "
			  "is not saved into a directory it did not make: remove them", subdir,
			  name, DUMPDIR_TRIES - 1, where);
	else
		log_error("kdump: making the dump's directory in %s on %s failed: %s", subdir[0] ?
			  subdir : "/", where, strerror(-r));
}

static int save_files(struct capture *cap, const struct dumpdir *d, const char *subdir,
		      const char *where)
{
	static const struct { enum kdump_format format; const char *name; enum save_kind kind; } files[] = {
		{ FORMAT_KDUMP, "vmcore", SAVE_KDUMP },
		{ FORMAT_ELF, "vmcore.elf", SAVE_ELF },
	};
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]); i++)
		if (cap->conf.formats & files[i].format)
			r = save_file(cap, d->fd, files[i].name, files[i].kind);
	if (r == 0 && cap->dmesg && save_file(cap, d->fd, "vmcore-dmesg.txt", SAVE_DMESG) < 0)
		log_warn("kdump: writing %s/%s/vmcore-dmesg.txt on %s failed; the dump itself is "
			 "saved (makedumpfile --dump-dmesg reads the log from it)", subdir, d->name, where);
	if (r == 0 && fsync(d->fd) < 0)
		r = -errno;
	return r;
}

int savedir_save(struct capture *cap, const char *mnt, const char *subdir, const char *where)
{
	struct dumpdir d;
	int r = dumpdir_make(&d, mnt, subdir, cap->name);

	if (r < 0) {
		report_dir(&d, r, subdir, cap->name, where);
		return r;
	}
	r = room_check(cap, d.fd, where);
	if (r == 0)
		r = save_files(cap, &d, subdir, where);
	if (r == 0) {
		log_info("kdump: saved %s/%s/vmcore on %s", subdir, d.name, where);
		snprintf(cap->name, sizeof(cap->name), "%s", d.name);
	} else if (r != -ENOSPC) {
		log_error("kdump: saving the dump into %s/%s on %s failed: %s; no partial vmcore "
			  "was left there", subdir, d.name, where, strerror(-r));
	}
	if (r < 0)
		dumpdir_remove(&d);
	dumpdir_close(&d);
	return r;
}
