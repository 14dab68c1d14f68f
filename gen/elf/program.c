/* program: a program put into the image with what it needs to run. */
#include "gen/elf/program.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/strv.h"
#include "gen/elf/libdeps.h"
#include "gen/gen_report.h"
#include "gen/kmod/modpack.h"

/* Add the libraries a resolver call found; r is what that call returned. */
static int add_libraries(struct image *img, struct strv *libs, int r)
{
	image_set_kind(img, IMAGE_KIND_LIBRARY);
	for (size_t i = 0; r == 0 && i < libs->len; i++)
		r = image_add_host_path(img, libs->items[i]);
	image_set_kind(img, IMAGE_KIND_OTHER);
	strv_free(libs);
	return r;
}

int program_add_libraries(struct image *img, const char *binary)
{
	struct strv libs = STRV_INIT;
	int r = libdeps_resolve("", binary, &libs);

	return add_libraries(img, &libs, r);
}

int program_add_dlopen(struct image *img, const char *binary, const char *soname)
{
	struct strv libs = STRV_INIT;
	int r = libdeps_resolve_dlopen("", binary, soname, &libs);

	return add_libraries(img, &libs, r);
}

int program_add(struct image *img, const char *binary, const char *dst)
{
	int r = program_add_libraries(img, binary);

	image_set_kind(img, IMAGE_KIND_BINARY);
	if (r == 0)
		r = dst ? image_add_file(img, binary, dst, 0755) : image_add_host_path(img, binary);
	image_set_kind(img, IMAGE_KIND_OTHER);
	return r;
}

/* Debian's busybox-static is 2 MB, lifeboat-shutdown under 1 MB. */
#define PROGRAM_PACKED_MAX (64u << 20)

int program_add_packed(struct image *img, const char *binary, const char *dst)
{
	char *raw;
	void *xz = NULL;
	size_t raw_len, xz_len = 0;
	int r = program_add_libraries(img, binary);

	if (r < 0)
		return r;
	r = file_read_all(binary, PROGRAM_PACKED_MAX, &raw, &raw_len);
	if (r < 0) {
		gen_error("cannot add %s to the image: %s", binary, strerror(-r));
		return r;
	}
	r = modpack_xz(raw, raw_len, &xz, &xz_len);
	if (r < 0)
		gen_error("cannot compress %s for the image: %s", binary, strerror(-r));
	image_set_kind(img, IMAGE_KIND_BINARY);
	if (r == 0)
		r = image_add_xz(img, dst, xz, xz_len, 0644);
	image_set_kind(img, IMAGE_KIND_OTHER);
	free(raw);
	free(xz);
	return r;
}

/* lifeboat's own programs are found beside the generator (the build tree)
 * or in ../lib/lifeboat/ from it (an installed lifeboat, whatever the
 * prefix). */
int program_find_own_quiet(const char *name, char *out, size_t size)
{
	static const char *const places[] = { "%s/%s", "%s/../lib/lifeboat/%s" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		int len = snprintf(out, size, places[i], exe, name);

		if (len > 0 && (size_t)len < size && access(out, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

int program_find_own(const char *name, char *out, size_t size)
{
	int r = program_find_own_quiet(name, out, size);

	if (r == -ENOENT)
		gen_error("%s not found beside the generator or in ../lib/lifeboat from it; run "
			  "'make' or 'make install' first", name);
	else if (r < 0)
		gen_error("finding %s: /proc/self/exe cannot be read (%s)", name, strerror(-r));
	return r;
}

int program_kind(const char *path, char *interp, size_t size)
{
	char head[256] = "";
	FILE *f = fopen(path, "re");
	size_t n, skip;

	if (!f)
		return -errno;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	if (n >= 4 && memcmp(head, "\177ELF", 4) == 0)
		return 0;
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return -ENOEXEC;
	head[n] = '\0';
	skip = 2 + strspn(head + 2, " \t");
	snprintf(interp, size, "%.*s", (int)strcspn(head + skip, " \t\r\n"), head + skip);
	return 1;
}
