/* program: a program put into the image with what it needs to run. */
#include "gen/elf/program.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
		r = image_add_data(img, dst, xz, xz_len, 0644);
	image_set_kind(img, IMAGE_KIND_OTHER);
	free(raw);
	free(xz);
	return r;
}
