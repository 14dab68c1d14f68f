/* image_kinds: which kind each entry is (module, firmware, library,
 * binary), and the content size of each kind, for `lifeboat build -v`;
 * whether the image holds xz streams the init unpacks. */
#include "gen/image/image.h"
#include "gen/image/image_entry.h"

#include <stdlib.h>
#include <sys/stat.h>

static const char *const kind_names[IMAGE_KIND_COUNT] = {
	[IMAGE_KIND_OTHER] = "other",
	[IMAGE_KIND_MODULE] = "modules",
	[IMAGE_KIND_FIRMWARE] = "firmware",
	[IMAGE_KIND_LIBRARY] = "libraries",
	[IMAGE_KIND_BINARY] = "binaries",
};

void image_set_kind(struct image *img, enum image_kind kind)
{
	img->kind = (unsigned char)kind;
}

void image_set_early(struct image *img, struct image *early)
{
	img->early = early;
}

int image_add_xz(struct image *img, const char *dst, const void *data, size_t len, mode_t mode)
{
	int r = image_add_data(img, dst, data, len, mode);

	if (r == 0)
		img->has_xz = true;
	return r;
}

bool image_has_xz(const struct image *img)
{
	return img->has_xz;
}

const char *image_kind_name(enum image_kind kind)
{
	return (unsigned int)kind < IMAGE_KIND_COUNT ? kind_names[kind] : "other";
}

/* Host files first by identity, so hard links sit side by side. */
static int host_cmp(const void *a, const void *b)
{
	const struct image_entry *x = *(const struct image_entry *const *)a;
	const struct image_entry *y = *(const struct image_entry *const *)b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

void image_kind_bytes(const struct image *img, unsigned long long bytes[IMAGE_KIND_COUNT])
{
	const struct image_entry **files = calloc(img->len + 1, sizeof(*files));
	size_t n = 0;

	for (size_t k = 0; k < IMAGE_KIND_COUNT; k++)
		bytes[k] = 0;
	for (size_t i = 0; i < img->len; i++) {
		const struct image_entry *e = &img->entries[i];
		unsigned int kind = e->kind < IMAGE_KIND_COUNT ? e->kind : IMAGE_KIND_OTHER;

		if (e->dead || !S_ISREG(e->mode))
			continue;
		if (e->src && files)
			files[n++] = e;
		else
			bytes[kind] += e->size;
	}
	if (!files)
		return;
	/* A host file under several names is stored once, counted under one of its kinds. */
	qsort(files, n, sizeof(*files), host_cmp);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || host_cmp(&files[i - 1], &files[i]) != 0)
			bytes[files[i]->kind < IMAGE_KIND_COUNT ? files[i]->kind : 0] += files[i]->size;
	free(files);
}

unsigned long long image_content_bytes(const struct image *img)
{
	unsigned long long bytes[IMAGE_KIND_COUNT], total = 0;

	image_kind_bytes(img, bytes);
	for (size_t k = 0; k < IMAGE_KIND_COUNT; k++)
		total += bytes[k];
	return total;
}
