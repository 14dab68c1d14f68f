/* ldsearch: the directories the dynamic loader searches, per ELF machine. */
#include "gen/elf/ldsearch.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* What $LIB and $PLATFORM can mean for a machine, and its multiarch
 * directory. A machine may have several rows (ARM hard and soft float). */
struct ldsearch_arch {
	uint16_t machine;
	uint8_t elf_class;
	uint8_t byte_order;
	const char *triplet;
	const char *platform;
};

static const struct ldsearch_arch arches[] = {
	{ EM_X86_64, ELFCLASS64, ELFDATA2LSB, "x86_64-linux-gnu", "x86_64" },
	{ EM_X86_64, ELFCLASS32, ELFDATA2LSB, "x86_64-linux-gnux32", "x86_64" },
	{ EM_386, ELFCLASS32, ELFDATA2LSB, "i386-linux-gnu", "i686" },
	{ EM_AARCH64, ELFCLASS64, ELFDATA2LSB, "aarch64-linux-gnu", "aarch64" },
	{ EM_AARCH64, ELFCLASS64, ELFDATA2MSB, "aarch64_be-linux-gnu", "aarch64_be" },
	{ EM_ARM, ELFCLASS32, ELFDATA2LSB, "arm-linux-gnueabihf", "v7l" },
	{ EM_ARM, ELFCLASS32, ELFDATA2LSB, "arm-linux-gnueabi", "v5l" },
	{ EM_PPC64, ELFCLASS64, ELFDATA2LSB, "powerpc64le-linux-gnu", "powerpc64le" },
	{ EM_PPC64, ELFCLASS64, ELFDATA2MSB, "powerpc64-linux-gnu", "powerpc64" },
	{ EM_PPC, ELFCLASS32, ELFDATA2MSB, "powerpc-linux-gnu", "powerpc" },
	{ EM_S390, ELFCLASS64, ELFDATA2MSB, "s390x-linux-gnu", "s390x" },
	{ EM_RISCV, ELFCLASS64, ELFDATA2LSB, "riscv64-linux-gnu", "riscv64" },
	{ EM_MIPS, ELFCLASS64, ELFDATA2LSB, "mips64el-linux-gnuabi64", "mips64" },
	{ EM_MIPS, ELFCLASS32, ELFDATA2LSB, "mipsel-linux-gnu", "mips" },
	{ EM_LOONGARCH, ELFCLASS64, ELFDATA2LSB, "loongarch64-linux-gnu", "loongarch" },
	{ EM_SPARCV9, ELFCLASS64, ELFDATA2MSB, "sparc64-linux-gnu", "sparc64" },
};

#define ARCH_COUNT (sizeof(arches) / sizeof(arches[0]))
/* An entry with more substitutions than this is not expanded: each one
 * multiplies the candidates. */
#define DST_MAX_TOKENS 4
#define DST_MAX_VALUES (ARCH_COUNT + 2)

static bool arch_matches(const struct ldsearch_arch *a, const struct elf_deps *obj)
{
	return a->machine == obj->machine && a->elf_class == obj->elf_class &&
	       a->byte_order == obj->byte_order;
}

/* The strings for "lib/<triplet>" live here while an expansion runs. */
struct dst_ctx {
	const struct elf_deps *obj;
	const char *origin;
	char multiarch[ARCH_COUNT][64];
};

static size_t dst_lib_values(struct dst_ctx *c, const char **vals)
{
	size_t n = 0;

	if (c->obj->elf_class == ELFCLASS64)
		vals[n++] = "lib64";
	for (size_t i = 0; i < ARCH_COUNT; i++) {
		if (!arch_matches(&arches[i], c->obj))
			continue;
		snprintf(c->multiarch[i], sizeof(c->multiarch[i]), "lib/%s", arches[i].triplet);
		vals[n++] = c->multiarch[i];
	}
	vals[n++] = "lib";
	return n;
}

static size_t dst_platform_values(const struct dst_ctx *c, const char **vals)
{
	size_t n = 0;

	for (size_t i = 0; i < ARCH_COUNT; i++) {
		bool seen = false;

		if (!arch_matches(&arches[i], c->obj))
			continue;
		for (size_t j = 0; j < n; j++)
			seen = seen || strcmp(vals[j], arches[i].platform) == 0;
		if (!seen)
			vals[n++] = arches[i].platform;
	}
	return n;
}

/* Length of the token after a '$' ("ORIGIN" or "{ORIGIN}") and its name. */
static size_t dst_token(const char *s, char *name, size_t size)
{
	size_t n;

	if (s[0] == '{') {
		const char *end = strchr(s, '}');

		if (!end || (size_t)(end - s - 1) >= size)
			return 0;
		snprintf(name, size, "%.*s", (int)(end - s - 1), s + 1);
		return (size_t)(end - s) + 1;
	}
	n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	if (n >= size)
		return 0;
	snprintf(name, size, "%.*s", (int)n, s);
	return n;
}

static size_t dst_values(struct dst_ctx *c, const char *name, const char **vals)
{
	if (strcmp(name, "ORIGIN") == 0) {
		vals[0] = c->origin;
		return 1;
	}
	if (strcmp(name, "LIB") == 0)
		return dst_lib_values(c, vals);
	if (strcmp(name, "PLATFORM") == 0)
		return dst_platform_values(c, vals);
	return 0;
}

static int dst_push(const char *dir, struct strv *dirs)
{
	char clean[PATH_MAX];
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (dir[0] != '/' || n >= sizeof(clean))
		return 0;
	memcpy(clean, dir, n);
	clean[n] = '\0';
	return strv_push_unique(dirs, clean);
}

/* The first substitution in s the loader would make, or NULL. An unknown
 * "$NAME" is left as it is, as the loader does. */
static const char *dst_find(struct dst_ctx *c, const char *s, const char **vals, size_t *n, size_t *len)
{
	char name[16];

	for (const char *d = strchr(s, '$'); d; d = strchr(d + 1, '$')) {
		*len = dst_token(d + 1, name, sizeof(name));
		*n = *len ? dst_values(c, name, vals) : 0;
		if (*n > 0)
			return d;
	}
	return NULL;
}

/* done holds the expansion of the entry so far; rest is still to expand. */
static int dst_expand(struct dst_ctx *c, const char *done, const char *rest, int tokens, struct strv *dirs)
{
	const char *vals[DST_MAX_VALUES];
	char next[PATH_MAX];
	size_t n = 0, len = 0;
	const char *dollar = tokens < DST_MAX_TOKENS ? dst_find(c, rest, vals, &n, &len) : NULL;
	int r = 0;

	if (!dollar) {
		if (snprintf(next, sizeof(next), "%s%s", done, rest) >= (int)sizeof(next))
			return 0;
		return dst_push(next, dirs);
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		if (snprintf(next, sizeof(next), "%s%.*s%s", done, (int)(dollar - rest), rest, vals[i]) >= (int)sizeof(next))
			continue;
		r = dst_expand(c, next, dollar + 1 + len, tokens + 1, dirs);
	}
	return r;
}

int ldsearch_expand(const struct elf_deps *obj, const char *origin, const char *entry, struct strv *dirs)
{
	struct dst_ctx c = { .obj = obj, .origin = origin };

	return dst_expand(&c, "", entry, 0, dirs);
}

int ldsearch_defaults(const struct elf_deps *obj, struct strv *dirs)
{
	static const char *const dirs64[] = { "/lib64", "/usr/lib64", NULL };
	static const char *const common[] = { "/lib", "/usr/lib", NULL };
	char dir[PATH_MAX];
	int r = 0;

	for (size_t i = 0; obj->elf_class == ELFCLASS64 && dirs64[i] && r == 0; i++)
		r = strv_push_unique(dirs, dirs64[i]);
	for (size_t i = 0; common[i] && r == 0; i++)
		r = strv_push_unique(dirs, common[i]);
	for (size_t i = 0; i < ARCH_COUNT && r == 0; i++) {
		if (!arch_matches(&arches[i], obj))
			continue;
		snprintf(dir, sizeof(dir), "/lib/%s", arches[i].triplet);
		r = strv_push_unique(dirs, dir);
		snprintf(dir, sizeof(dir), "/usr/lib/%s", arches[i].triplet);
		if (r == 0)
			r = strv_push_unique(dirs, dir);
	}
	return r;
}
