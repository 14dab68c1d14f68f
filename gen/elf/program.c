/* program: a program put into the image with what it needs to run. */
#include "gen/elf/program.h"

#include "common/strv.h"
#include "gen/elf/libdeps.h"

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
