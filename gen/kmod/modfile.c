/* modfile: the files of a kernel module on the build host: the module itself
 * (decompressed) and the firmware it declares. */
#include "gen/kmod/modfile.h"

#include "common/fileread.h"
#include "gen/archive/decompress.h"
#include "gen/gen_report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* No module comes near this; a bigger output is a corrupt or hostile file. */
#define MODFILE_MAX_SIZE (512u << 20)

bool modfile_is_compressed(const char *path)
{
	unsigned char magic[6];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	return n > 0 && decompress_find(magic, (size_t)n) != NULL;
}

/* The same decompressors as the archive reader's (gen/archive/decompress.c). */
int modfile_read(const char *path, void **data, size_t *len)
{
	const struct decompressor *d;
	char *raw = NULL;
	unsigned char *out = NULL;
	size_t raw_len = 0, out_len = 0, used = 0;
	int r;

	r = file_read_all(path, MODFILE_MAX_SIZE, &raw, &raw_len);
	if (r < 0) {
		gen_error("reading module %s: %s; check the module directory is complete",
			  path, strerror(-r));
		return r;
	}
	d = decompress_find((const unsigned char *)raw, raw_len);
	if (!d) {
		*data = raw;
		*len = raw_len;
		return 0;
	}
	r = d->run((const unsigned char *)raw, raw_len, &out, &out_len, &used);
	free(raw);
	if (r < 0) {
		gen_error("decompressing module %s (%s): %s; the file is damaged or truncated, "
			  "reinstall the kernel's modules", path, d->name, strerror(-r));
		return r;
	}
	*data = out;
	*len = out_len;
	return 0;
}

/* Module file names end in .ko, possibly followed by a compression suffix. */
static size_t ko_name_len(const char *path)
{
	static const char *const suffixes[] = { ".xz", ".zst", ".gz" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t s = strlen(suffixes[i]);

		if (n > s && strcmp(path + n - s, suffixes[i]) == 0)
			return n - s;
	}
	return n;
}

char *modfile_image_path(const char *path, const char *moddir, const char *kver, bool plain)
{
	size_t dir_len = strlen(moddir);
	const char *rel;
	char *out;

	while (dir_len > 1 && moddir[dir_len - 1] == '/')
		dir_len--;
	if (strncmp(path, moddir, dir_len) == 0 && path[dir_len] == '/') {
		rel = path + dir_len + 1;
	} else {
		/* Not under moddir (an odd layout): keep the name only. */
		rel = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	}
	if (asprintf(&out, "/lib/modules/%s/%.*s%s", kver, (int)ko_name_len(rel), rel,
		     plain ? "" : ".xz") < 0)
		return NULL;
	return out;
}

/* Try DIR/NAME with each firmware suffix. */
static int firmware_try(const char *dir, size_t dir_len, const char *sub, const char *name,
			char **found, const char **suffix)
{
	static const char *const suffixes[] = { "", ".xz", ".zst" };

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *p;
		struct stat st;

		if (asprintf(&p, "%.*s%s%s/%s%s", (int)dir_len, dir, sub[0] ? "/" : "", sub,
			     name, suffixes[i]) < 0)
			return -ENOMEM;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			*found = p;
			*suffix = suffixes[i];
			return 0;
		}
		free(p);
	}
	return -ENOENT;
}

int modfile_firmware_find(const char *fwdirs, const char *kver, const char *name,
			  char **found, const char **suffix)
{
	const char *dirs = fwdirs ? fwdirs : "/lib/firmware/updates:/lib/firmware";

	/* The kernel's own search order: a per-version directory first. */
	while (*dirs) {
		size_t n = strcspn(dirs, ":");

		if (n > 0) {
			int r = firmware_try(dirs, n, kver, name, found, suffix);

			if (r == -ENOENT)
				r = firmware_try(dirs, n, "", name, found, suffix);
			if (r != -ENOENT)
				return r;
		}
		dirs += n;
		if (*dirs)
			dirs++;
	}
	return -ENOENT;
}
