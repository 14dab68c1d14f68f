/* sigprobe: read a resume device's hibernation signature, directly and with libblkid.
 *
 * The direct read decides (it is the page the kernel checks); libblkid's
 * view is recorded beside it so the log shows both, and a disagreement is
 * visible.
 */
#include "resume/sigprobe.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"

static void copy_value(blkid_probe pr, const char *name, char *dst, size_t size)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		snprintf(dst, size, "%s", v);
}

/* libblkid on the area from offset on: a swap file is probed in place. */
static void probe_blkid(int fd, unsigned long long offset, struct resume_sig *out)
{
	blkid_probe pr = blkid_new_probe();

	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)offset, 0) == 0) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_VERSION);
		if (blkid_do_safeprobe(pr) == 0) {
			copy_value(pr, "TYPE", out->blkid_type, sizeof(out->blkid_type));
			copy_value(pr, "VERSION", out->blkid_version, sizeof(out->blkid_version));
		}
	}
	blkid_free_probe(pr);
}

static int read_page(int fd, unsigned long long offset, unsigned char *page, size_t size)
{
	ssize_t n = file_read_fd_at(fd, page, size, offset);

	if (n < 0)
		return (int)n;
	return (size_t)n == size ? 0 : -ENODATA;
}

int resume_sig_probe(const char *devname, unsigned long long offset_pages,
		     struct resume_sig *out)
{
	long page_size = sysconf(_SC_PAGESIZE);
	unsigned long long offset;
	unsigned char *page;
	char path[128];
	int fd, r;

	memset(out, 0, sizeof(*out));
	if (page_size <= 0 || offset_pages > (unsigned long long)INT64_MAX / (unsigned long)page_size)
		return -EINVAL;
	offset = offset_pages * (unsigned long)page_size;
	page = malloc((size_t)page_size);
	if (!page)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s%s", devname[0] == '/' ? "" : "/dev/", devname);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		free(page);
		return r;
	}
	r = read_page(fd, offset, page, (size_t)page_size);
	if (r == 0)
		r = swsusp_header_parse(page, (size_t)page_size, (size_t)page_size, &out->header);
	if (r == 0)
		probe_blkid(fd, offset, out);
	close(fd);
	free(page);
	return r;
}
