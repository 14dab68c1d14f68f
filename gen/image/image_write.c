/* image_write: the image as a reproducible cpio newc archive, written atomically.
 *
 * Entries go out sorted by path, so parents come before children. Every
 * entry has uid/gid 0 and the caller's mtime; inode numbers count up in that
 * order. Entries that are the same host file (st_dev, st_ino) are hard links:
 * one inode number, nlink = the count, the data on the first and size 0 on
 * the others, which is what the kernel's unpacker (and GNU cpio -i) expect.
 */
#include "gen/image/image.h"
#include "gen/image/image_entry.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/archive/cpio.h"
#include "gen/archive/decompress.h"
#include "gen/archive/sink.h"
#include "gen/gen_report.h"

/* What each sorted entry becomes in the archive. */
struct slot {
	const struct image_entry *e;
	const struct slot *leader;         /* first entry of its hard-link group */
	unsigned long nlink;
	unsigned long ino;
};

struct writer {
	struct sink sink;
	const char *out_path;
	unsigned long mtime;
};

static int slot_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct slot *)a)->e->path, ((const struct slot *)b)->e->path);
}

/* Order by host file, then by position, so a group's first is its leader. */
static int slot_host_cmp(const void *a, const void *b)
{
	const struct slot *x = *(const struct slot *const *)a, *y = *(const struct slot *const *)b;

	if (x->e->dev != y->e->dev)
		return x->e->dev < y->e->dev ? -1 : 1;
	if (x->e->ino != y->e->ino)
		return x->e->ino < y->e->ino ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Find hard-link groups among host files: set leader and nlink. */
static int slots_link(struct slot *slots, size_t n)
{
	struct slot **files = calloc(n + 1, sizeof(*files));
	size_t nf = 0;

	if (!files)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		slots[i].leader = &slots[i];
		slots[i].nlink = S_ISDIR(slots[i].e->mode) ? 2 : 1;
		if (slots[i].e->src)
			files[nf++] = &slots[i];
	}
	qsort(files, nf, sizeof(*files), slot_host_cmp);
	for (size_t i = 0, j; i < nf; i = j) {
		for (j = i + 1; j < nf && files[j]->e->dev == files[i]->e->dev &&
				files[j]->e->ino == files[i]->e->ino; j++)
			;
		for (size_t k = i; k < j; k++) {
			files[k]->leader = files[i];
			files[k]->nlink = j - i;
		}
	}
	free(files);
	return 0;
}

/* Sorted slots with inode numbers; *out is malloc'd. */
static int slots_build(const struct image *img, struct slot **out, size_t *count)
{
	struct slot *slots = calloc(img->len + 1, sizeof(*slots));
	size_t n = 0;
	unsigned long ino = 1;

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < img->len; i++)
		if (!img->entries[i].dead)
			slots[n++].e = &img->entries[i];
	qsort(slots, n, sizeof(*slots), slot_path_cmp);
	if (slots_link(slots, n) < 0) {
		free(slots);
		return -ENOMEM;
	}
	/* The leader comes first in path order, so its number is known when a
	 * later link needs it. */
	for (size_t i = 0; i < n; i++)
		slots[i].ino = slots[i].leader == &slots[i] ? ino++ : slots[i].leader->ino;
	*out = slots;
	*count = n;
	return 0;
}

/* Copy a host file's content into the archive. Read errors are reported
 * here (this knows the source); sink errors go to the caller. */
static int file_copy(struct writer *w, const struct slot *s, unsigned long long size, int fd,
		     bool *reported)
{
	static unsigned char buf[65536];
	int err = 0;

	while (size > 0 && err == 0) {
		ssize_t n = read(fd, buf, size < sizeof(buf) ? size : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			gen_error("cannot read %s (for /%s in the image): %s", s->e->src, s->e->path,
				  n < 0 ? strerror(-err) : "it shrank while being read; build again");
			*reported = true;
			return err;
		}
		err = sink_write(&w->sink, buf, (size_t)n);
		size -= (unsigned long long)n;
	}
	return err;
}

static void header_fill(const struct writer *w, const struct slot *s, struct cpio_header *h)
{
	const struct image_entry *e = s->e;

	memset(h, 0, sizeof(*h));
	h->ino = s->ino;
	/* A file has one mode: hard links all take their leader's. */
	h->mode = s->leader->e->mode;
	h->nlink = s->nlink;
	h->mtime = w->mtime;
	h->rdevmajor = e->major;
	h->rdevminor = e->minor;
	if (S_ISLNK(e->mode))
		h->filesize = strlen(e->target);
	else if (S_ISREG(e->mode) && s->leader == s)
		h->filesize = e->size;
}

/* Content that starts with a compressor's magic (the image's modules,
 * firmware .xz) is stored, not deflated a second time. */
static bool content_is_compressed(const struct image_entry *e, int fd)
{
	unsigned char head[8];
	ssize_t n;

	if (e->data)
		return decompress_find(e->data, e->size) != NULL;
	if (fd < 0)
		return false;
	n = pread(fd, head, sizeof(head), 0);
	return n > 0 && decompress_find(head, (size_t)n) != NULL;
}

/* One entry: header, name, data. Read errors are reported here; sink
 * errors are returned for the caller, who names the output file. */
static int entry_write(struct writer *w, const struct slot *s, bool *reported)
{
	const struct image_entry *e = s->e;
	struct cpio_header h;
	int fd = -1, err;

	header_fill(w, s, &h);
	if (e->src && s->leader == s) {
		struct stat st;

		fd = open(e->src, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			err = -errno;
			gen_error("cannot read %s (for /%s in the image): %s", e->src, e->path, strerror(-err));
			*reported = true;
			if (fd >= 0)
				close(fd);
			return err;
		}
		/* The size now, not when added: the file may have been updated. */
		h.filesize = (unsigned long)st.st_size;
		if (h.filesize > 0xffffffffUL) {
			gen_error("cannot add %s to the image: it is 4 GiB or larger, more than a cpio "
				  "entry can hold", e->src);
			*reported = true;
			close(fd);
			return -EFBIG;
		}
	}
	err = cpio_write_header(&w->sink, &h, e->path);
	if (err == 0 && h.filesize > 0)
		err = sink_set_stored(&w->sink, content_is_compressed(e, fd));
	if (err == 0 && fd >= 0) {
		err = file_copy(w, s, h.filesize, fd, reported);
	} else if (err == 0 && S_ISLNK(e->mode)) {
		err = sink_write(&w->sink, e->target, h.filesize);
	} else if (err == 0 && e->data) {
		err = sink_write(&w->sink, e->data, h.filesize);
	}
	if (err == 0)
		err = sink_set_stored(&w->sink, false);
	if (fd >= 0)
		close(fd);
	return err < 0 ? err : cpio_write_data_pad(&w->sink);
}

/* The temporary file, for the signal handler to remove on ^C. */
static char tmp_for_signal[PATH_MAX];

static void signal_cleanup(int sig)
{
	unlink(tmp_for_signal);
	/* SA_RESETHAND restored the default action: die of the same signal. */
	raise(sig);
}

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void signals_catch(const char *tmp, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = signal_cleanup, .sa_flags = SA_RESETHAND };

	snprintf(tmp_for_signal, sizeof(tmp_for_signal), "%s", tmp);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 3; i++)
		sigaction(cleanup_signals[i], &sa, &old[i]);
}

static void signals_restore(const struct sigaction *old)
{
	for (size_t i = 0; i < 3; i++)
		sigaction(cleanup_signals[i], &old[i], NULL);
	tmp_for_signal[0] = '\0';
}

static void write_report(const char *out_path, int err)
{
	if (err == -ENOSPC || err == -EDQUOT)
		gen_error("cannot write image %s: %s; free some space there or choose another output "
			  "file with -o", out_path, strerror(-err));
	else
		gen_error("cannot write image %s: %s", out_path, strerror(-err));
}

/* Every entry and the trailer into w->sink; reports read errors itself. */
static int archive_write(struct writer *w, const struct image *img, bool compress, int fd, bool *reported)
{
	struct slot *slots;
	size_t n;
	int err = slots_build(img, &slots, &n);

	if (err == 0)
		err = sink_open(&w->sink, fd, compress);
	if (err < 0)
		return err;
	for (size_t i = 0; i < n && err == 0; i++)
		err = entry_write(w, &slots[i], reported);
	if (err == 0)
		err = cpio_write_trailer(&w->sink);
	if (err == 0)
		err = sink_finish(&w->sink);
	sink_abort(&w->sink);
	free(slots);
	return err;
}

/* fsync and close, where a full disk may show only now (NFS, quotas). */
static int file_commit(int fd)
{
	int err = fsync(fd) < 0 ? -errno : 0;

	if (close(fd) < 0 && err == 0)
		err = -errno;
	return err;
}

/* Best effort: make the rename itself durable. */
static void dir_sync(const char *out_path)
{
	char *dir = strdup(out_path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	int fd;

	if (!dir)
		return;
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int image_write(struct image *img, const char *out_path, enum image_compress compress, time_t mtime)
{
	struct writer *w = calloc(1, sizeof(*w));
	struct sigaction old[3];
	char *tmp = NULL;
	bool reported = false;
	int fd, err;

	if (mtime < 0 || (unsigned long long)mtime > 0xffffffffULL) {
		gen_error("cannot write image %s: the timestamp %lld does not fit a cpio header; "
			  "check SOURCE_DATE_EPOCH", out_path, (long long)mtime);
		free(w);
		return -ERANGE;
	}
	if (!w || asprintf(&tmp, "%s.tmp.XXXXXX", out_path) < 0) {
		free(w);
		gen_error("cannot write image %s: out of memory", out_path);
		return -ENOMEM;
	}
	w->out_path = out_path;
	w->mtime = (unsigned long)mtime;
	/* mkstemp: O_EXCL, mode 0600, which the image keeps: it may hold keys. */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		gen_error("cannot create image %s (a temporary file beside it): %s; check that the "
			  "directory exists and is writable, or choose another output file with -o",
			  out_path, strerror(-err));
		free(tmp);
		free(w);
		return err;
	}
	signals_catch(tmp, old);
	/* Whatever the umask: readable by root only. */
	err = fchmod(fd, 0600) < 0 ? -errno : 0;
	/* The early archive first and never compressed: the kernel's microcode
	 * loader looks for it at the start of the image, before decompressing. */
	if (err == 0 && img->early)
		err = archive_write(w, img->early, false, fd, &reported);
	if (err == 0)
		err = archive_write(w, img, compress == IMAGE_COMPRESS_GZIP, fd, &reported);
	if (err < 0)
		close(fd);
	else
		err = file_commit(fd);
	if (err == 0 && rename(tmp, out_path) < 0)
		err = -errno;
	if (err < 0) {
		unlink(tmp);
		if (!reported)
			write_report(out_path, err);
	} else {
		dir_sync(out_path);
	}
	signals_restore(old);
	free(tmp);
	free(w);
	return err;
}
