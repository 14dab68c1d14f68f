/* savedir: save the dump into a directory, with atomic names. */
#include "kdump/savedir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bootlib/log.h"

static int mkdir_p(const char *path)
{
	char buf[1024];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0700) < 0 && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	return mkdir(buf, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

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

/* DIR/NAME.incomplete, written, synced, renamed to DIR/NAME. */
static int save_file(struct capture *cap, const char *dir, const char *name, enum save_kind kind)
{
	char tmp[1200], final[1200];
	int fd, r;

	snprintf(tmp, sizeof(tmp), "%s/%s.incomplete", dir, name);
	snprintf(final, sizeof(final), "%s/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	r = write_content(cap, fd, kind);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, final) < 0)
		r = -errno;
	/* A partial dump is worth nothing and takes the room a retry needs. */
	if (r < 0)
		unlink(tmp);
	return r;
}

static int room_check(struct capture *cap, const char *dir, const char *where)
{
	struct statvfs st;
	uint64_t need = 0, have;

	if (cap->conf.formats & FORMAT_KDUMP)
		need += cap->bound;
	if (cap->conf.formats & FORMAT_ELF)
		need += cap->elf_bound;
	need += cap->dmesg_len;
	if (statvfs(dir, &st) < 0)
		return -errno;
	have = (uint64_t)st.f_bavail * st.f_frsize;
	if (have >= need)
		return 0;
	log_warn("kdump: %s: %llu MiB free, the dump may take up to %llu MiB; skipping it "
		 "(free some space there, or give a larger target first)", where,
		 (unsigned long long)(have >> 20), (unsigned long long)((need >> 20) + 1));
	return -ENOSPC;
}

int savedir_save(struct capture *cap, const char *mnt, const char *subdir, const char *where)
{
	static const struct { enum kdump_format format; const char *name; enum save_kind kind; } files[] = {
		{ FORMAT_KDUMP, "vmcore", SAVE_KDUMP },
		{ FORMAT_ELF, "vmcore.elf", SAVE_ELF },
	};
	char dir[1024], path[1200];
	int r = snprintf(dir, sizeof(dir), "%s%s", mnt, subdir) >= (int)sizeof(dir) ? -ENAMETOOLONG : 0;

	if (r == 0)
		r = mkdir_p(dir);

	if (r == 0)
		r = room_check(cap, dir, where);
	if (r == -ENOSPC)
		return r;
	if (r == 0 && snprintf(path, sizeof(path), "%s/%s", dir, cap->name) >= (int)sizeof(path))
		r = -ENAMETOOLONG;
	if (r == 0)
		r = mkdir_p(path);
	for (size_t i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]); i++)
		if (cap->conf.formats & files[i].format)
			r = save_file(cap, path, files[i].name, files[i].kind);
	if (r == 0 && cap->dmesg && save_file(cap, path, "vmcore-dmesg.txt", SAVE_DMESG) < 0)
		log_warn("kdump: writing %s/%s/vmcore-dmesg.txt on %s failed; the dump itself is "
			 "saved (makedumpfile --dump-dmesg reads the log from it)", subdir, cap->name, where);
	if (r == 0)
		r = sync_dir(path);
	if (r == 0)
		log_info("kdump: saved %s/%s/vmcore on %s", subdir, cap->name, where);
	else if (r != -ENOSPC)
		log_error("kdump: saving the dump into %s on %s failed: %s; no partial vmcore "
			  "was left there", subdir, where, strerror(-r));
	return r;
}
