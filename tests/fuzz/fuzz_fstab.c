/* fuzz_fstab: bootlib/fstab.c on arbitrary text, the real root's
 * /etc/fstab being outside input. No crash, and:
 *  - the text reader and the file reader find the same /usr entry;
 *  - an entry found has its fields inside their buffers, its mount point
 *    is /usr but for repeated or trailing slashes, and a missing one
 *    leaves the entry empty;
 *  - the kernel's options are never longer than fstab's, hold none of
 *    the userspace words, and are the same when filtered again;
 *  - the spec's device, when it has one, is of a known kind with a value.
 * Any difference aborts. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bootlib/fstab.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_dir(const char *dir)
{
	const char *p = dir;

	CHECK(*p == '/');
	while (*p == '/')
		p++;
	CHECK(strncmp(p, "usr", 3) == 0);
	for (p += 3; *p; p++)
		CHECK(*p == '/');
}

static void check_options(const char *opts)
{
	char out[FSTAB_OPTS_MAX], again[FSTAB_OPTS_MAX];
	const char *p;

	CHECK(fstab_options_kernel(opts, out, sizeof(out)) == 0);
	CHECK(strlen(out) <= strlen(opts));
	CHECK(fstab_options_kernel(out, again, sizeof(again)) == 0);
	CHECK(strcmp(out, again) == 0);
	for (p = out; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t len = strcspn(p, ",");

		CHECK(len > 0);
		CHECK(strncmp(p, "x-", 2) != 0 && strncmp(p, "X-", 2) != 0);
		CHECK(!(len == 6 && strncmp(p, "noauto", 6) == 0));
		CHECK(!(len == 8 && strncmp(p, "defaults", 8) == 0));
	}
}

static void check_entry(const struct fstab_entry *e)
{
	struct dev_spec spec;
	int r;

	CHECK(memchr(e->spec, '\0', sizeof(e->spec)) && memchr(e->type, '\0', sizeof(e->type)) &&
	      memchr(e->opts, '\0', sizeof(e->opts)));
	check_dir(e->dir);
	CHECK(e->type[0] && e->opts[0]);
	check_options(e->opts);
	r = fstab_spec_parse(e->spec, &spec);
	CHECK(r == 0 || r == -ENOTBLK || r == -EOPNOTSUPP || r == -EINVAL);
	if (r == 0)
		CHECK(spec.kind <= DEVSPEC_DEVNUM && spec.value[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fstab_entry from_text, from_file;
	static const struct fstab_entry none;
	char path[64];
	int fd = memfd_create("fstab", 0), r;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (size > FSTAB_FILE_MAX)
		return 0;
	r = fstab_find((const char *)data, size, "/usr", &from_text);
	CHECK(r == 0 || r == -ENOENT || r == -ENAMETOOLONG);
	CHECK(fstab_find_file(path, "/usr", &from_file) == r);
	CHECK(memcmp(&from_text, &from_file, sizeof(from_text)) == 0);
	if (r == 0)
		check_entry(&from_text);
	else if (r == -ENOENT)
		CHECK(memcmp(&from_text, &none, sizeof(none)) == 0);
	close(fd);
	return 0;
}
