/* elf: read PT_INTERP, the dynamic section and the dynamic symbols' imports
 * of an ELF file, bounds-checked. */
#include "gen/elf/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the fields we read sit in each class; the rest of the code is the
 * same for 32 and 64 bits. */
struct elf_layout {
	size_t ehdr_size;
	size_t e_phoff, e_phentsize, e_phnum;
	size_t phdr_size;
	size_t p_offset, p_vaddr, p_filesz;
	size_t dyn_size;
	size_t word;       /* size of an address/offset/d_tag/d_val */
	size_t e_shoff, e_shentsize, e_shnum;
	size_t shdr_size;
	size_t sh_type, sh_offset, sh_size, sh_link, sh_entsize;
	size_t sym_size, st_shndx;
};

static const struct elf_layout layout32 = {
	sizeof(Elf32_Ehdr),
	offsetof(Elf32_Ehdr, e_phoff), offsetof(Elf32_Ehdr, e_phentsize), offsetof(Elf32_Ehdr, e_phnum),
	sizeof(Elf32_Phdr),
	offsetof(Elf32_Phdr, p_offset), offsetof(Elf32_Phdr, p_vaddr), offsetof(Elf32_Phdr, p_filesz),
	sizeof(Elf32_Dyn), 4,
	offsetof(Elf32_Ehdr, e_shoff), offsetof(Elf32_Ehdr, e_shentsize), offsetof(Elf32_Ehdr, e_shnum),
	sizeof(Elf32_Shdr),
	offsetof(Elf32_Shdr, sh_type), offsetof(Elf32_Shdr, sh_offset), offsetof(Elf32_Shdr, sh_size),
	offsetof(Elf32_Shdr, sh_link), offsetof(Elf32_Shdr, sh_entsize),
	sizeof(Elf32_Sym), offsetof(Elf32_Sym, st_shndx),
};

static const struct elf_layout layout64 = {
	sizeof(Elf64_Ehdr),
	offsetof(Elf64_Ehdr, e_phoff), offsetof(Elf64_Ehdr, e_phentsize), offsetof(Elf64_Ehdr, e_phnum),
	sizeof(Elf64_Phdr),
	offsetof(Elf64_Phdr, p_offset), offsetof(Elf64_Phdr, p_vaddr), offsetof(Elf64_Phdr, p_filesz),
	sizeof(Elf64_Dyn), 8,
	offsetof(Elf64_Ehdr, e_shoff), offsetof(Elf64_Ehdr, e_shentsize), offsetof(Elf64_Ehdr, e_shnum),
	sizeof(Elf64_Shdr),
	offsetof(Elf64_Shdr, sh_type), offsetof(Elf64_Shdr, sh_offset), offsetof(Elf64_Shdr, sh_size),
	offsetof(Elf64_Shdr, sh_link), offsetof(Elf64_Shdr, sh_entsize),
	sizeof(Elf64_Sym), offsetof(Elf64_Sym, st_shndx),
};

struct elf_image {
	const uint8_t *buf;
	size_t len;
	bool msb;
	const struct elf_layout *lay;
	uint64_t phoff;
	uint16_t phentsize, phnum;
};

/* A byte range of the file, known to lie inside the buffer. */
struct elf_span {
	uint64_t off, size;
};

static bool image_contains(const struct elf_image *im, uint64_t off, uint64_t size)
{
	return off <= im->len && size <= im->len - off;
}

/* An unsigned integer of width bytes at off; the caller has bounds-checked. */
static uint64_t image_uint(const struct elf_image *im, uint64_t off, size_t width)
{
	uint64_t v = 0;

	for (size_t i = 0; i < width; i++) {
		size_t b = im->msb ? i : width - 1 - i;

		v = (v << 8) | im->buf[off + b];
	}
	return v;
}

static uint64_t image_word(const struct elf_image *im, uint64_t off)
{
	return image_uint(im, off, im->lay->word);
}

static int image_open(struct elf_image *im, const uint8_t *buf, size_t len, struct elf_deps *out)
{
	im->buf = buf;
	im->len = len;
	if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return -ENOEXEC;
	if (buf[EI_CLASS] != ELFCLASS32 && buf[EI_CLASS] != ELFCLASS64)
		return -ENOEXEC;
	if (buf[EI_DATA] != ELFDATA2LSB && buf[EI_DATA] != ELFDATA2MSB)
		return -ENOEXEC;
	if (buf[EI_VERSION] != EV_CURRENT)
		return -ENOEXEC;
	im->msb = buf[EI_DATA] == ELFDATA2MSB;
	im->lay = buf[EI_CLASS] == ELFCLASS64 ? &layout64 : &layout32;
	if (len < im->lay->ehdr_size)
		return -ENOEXEC;

	out->elf_class = buf[EI_CLASS];
	out->byte_order = buf[EI_DATA];
	out->machine = (uint16_t)image_uint(im, offsetof(Elf32_Ehdr, e_machine), 2);
	im->phoff = image_word(im, im->lay->e_phoff);
	im->phentsize = (uint16_t)image_uint(im, im->lay->e_phentsize, 2);
	im->phnum = (uint16_t)image_uint(im, im->lay->e_phnum, 2);
	/* A table we cannot read whole is as good as none: the loader would
	 * refuse it too. */
	if (im->phnum > 0 && im->phentsize < im->lay->phdr_size)
		return -ENOEXEC;
	if (!image_contains(im, im->phoff, (uint64_t)im->phnum * im->phentsize))
		return -ENOEXEC;
	return 0;
}

static uint64_t phdr_at(const struct elf_image *im, unsigned int i)
{
	return im->phoff + (uint64_t)i * im->phentsize;
}

/* The file bytes of the first program header of the given type. */
static int image_find_segment(const struct elf_image *im, uint32_t type, struct elf_span *out)
{
	for (unsigned int i = 0; i < im->phnum; i++) {
		uint64_t ph = phdr_at(im, i);

		if (image_uint(im, ph, 4) != type)
			continue;
		out->off = image_word(im, ph + im->lay->p_offset);
		out->size = image_word(im, ph + im->lay->p_filesz);
		return image_contains(im, out->off, out->size) ? 0 : -ENOEXEC;
	}
	return -ENOENT;
}

/* Map a virtual address to the file bytes from there to the end of the
 * PT_LOAD segment that holds it, as the dynamic loader sees the file. */
static int image_map_vaddr(const struct elf_image *im, uint64_t vaddr, struct elf_span *out)
{
	for (unsigned int i = 0; i < im->phnum; i++) {
		uint64_t ph = phdr_at(im, i);
		uint64_t start, filesz, off;

		if (image_uint(im, ph, 4) != PT_LOAD)
			continue;
		start = image_word(im, ph + im->lay->p_vaddr);
		filesz = image_word(im, ph + im->lay->p_filesz);
		off = image_word(im, ph + im->lay->p_offset);
		if (vaddr < start || vaddr - start >= filesz)
			continue;
		if (!image_contains(im, off, filesz))
			return -ENOEXEC;
		out->off = off + (vaddr - start);
		out->size = filesz - (vaddr - start);
		return 0;
	}
	return -ENOEXEC;
}

static int parse_interp(const struct elf_image *im, struct elf_deps *out)
{
	struct elf_span seg;
	const char *s;
	int r = image_find_segment(im, PT_INTERP, &seg);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	s = (const char *)im->buf + seg.off;
	if (seg.size < 2 || !memchr(s, '\0', seg.size) || s[0] == '\0')
		return -ENOEXEC;
	out->interp = strdup(s);
	return out->interp ? 0 : -ENOMEM;
}

/* The dynamic section, read once into the values we use. */
struct dyn_info {
	bool has_strtab, has_strsz;
	uint64_t strtab, strsz;
	struct elf_span strings;   /* the string table's bytes in the file */
};

static uint64_t dyn_tag(const struct elf_image *im, const struct elf_span *dyn, uint64_t i)
{
	return image_word(im, dyn->off + i * im->lay->dyn_size);
}

static uint64_t dyn_val(const struct elf_image *im, const struct elf_span *dyn, uint64_t i)
{
	return image_word(im, dyn->off + i * im->lay->dyn_size + im->lay->word);
}

static int dyn_find_strings(const struct elf_image *im, const struct elf_span *dyn, struct dyn_info *info)
{
	uint64_t n = dyn->size / im->lay->dyn_size;
	int r;

	for (uint64_t i = 0; i < n && dyn_tag(im, dyn, i) != DT_NULL; i++) {
		uint64_t tag = dyn_tag(im, dyn, i);

		if (tag == DT_STRTAB && !info->has_strtab) {
			info->has_strtab = true;
			info->strtab = dyn_val(im, dyn, i);
		} else if (tag == DT_STRSZ && !info->has_strsz) {
			info->has_strsz = true;
			info->strsz = dyn_val(im, dyn, i);
		}
	}
	if (!info->has_strtab)
		return 0;
	r = image_map_vaddr(im, info->strtab, &info->strings);
	if (r < 0)
		return r;
	if (info->has_strsz && info->strsz < info->strings.size)
		info->strings.size = info->strsz;
	return 0;
}

/* A NUL-terminated string at offset val of the string table. */
static const char *dyn_string(const struct elf_image *im, const struct dyn_info *info, uint64_t val)
{
	const char *s;

	if (!info->has_strtab || val >= info->strings.size)
		return NULL;
	s = (const char *)im->buf + info->strings.off + val;
	return memchr(s, '\0', info->strings.size - val) ? s : NULL;
}

static int dyn_take(struct elf_deps *out, uint64_t tag, const char *s)
{
	switch (tag) {
	case DT_NEEDED:
		return strv_push(&out->needed, s);
	case DT_RPATH:
		return strv_split_append(&out->rpath, s, ":");
	case DT_RUNPATH:
		return strv_split_append(&out->runpath, s, ":");
	case DT_SONAME:
		if (out->soname)
			return 0;
		out->soname = strdup(s);
		return out->soname ? 0 : -ENOMEM;
	}
	return 0;
}

static bool dyn_is_string_tag(uint64_t tag)
{
	return tag == DT_NEEDED || tag == DT_RPATH || tag == DT_RUNPATH || tag == DT_SONAME;
}

static int parse_dynamic(const struct elf_image *im, struct elf_deps *out)
{
	struct dyn_info info = { 0 };
	struct elf_span dyn;
	uint64_t n;
	int r = image_find_segment(im, PT_DYNAMIC, &dyn);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	r = dyn_find_strings(im, &dyn, &info);
	if (r < 0)
		return r;
	n = dyn.size / im->lay->dyn_size;
	for (uint64_t i = 0; i < n && dyn_tag(im, &dyn, i) != DT_NULL; i++) {
		uint64_t tag = dyn_tag(im, &dyn, i);
		const char *s;

		if (!dyn_is_string_tag(tag))
			continue;
		s = dyn_string(im, &info, dyn_val(im, &dyn, i));
		if (!s)
			return -ENOEXEC;
		r = dyn_take(out, tag, s);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Section i's file bytes (its sh_offset and sh_size), when they lie in the
 * file; *entsize gets its sh_entsize. */
static bool section_span(const struct elf_image *im, uint64_t shdr, struct elf_span *out,
			 uint64_t *entsize)
{
	out->off = image_word(im, shdr + im->lay->sh_offset);
	out->size = image_word(im, shdr + im->lay->sh_size);
	*entsize = image_word(im, shdr + im->lay->sh_entsize);
	return image_contains(im, out->off, out->size);
}

static bool symbol_unwinds(const char *name)
{
	return strcmp(name, "pthread_cancel") == 0 || strcmp(name, "pthread_exit") == 0;
}

/* Whether the symbol table at shdr (its strings in section link) imports a
 * symbol that unwinds. */
static bool dynsym_unwinds(const struct elf_image *im, uint64_t shoff, uint16_t shentsize,
			   uint16_t shnum, uint64_t shdr)
{
	uint64_t link = image_uint(im, shdr + im->lay->sh_link, 4), entsize, strentsize;
	struct elf_span syms, strs;

	if (link >= shnum || !section_span(im, shdr, &syms, &entsize) || entsize < im->lay->sym_size ||
	    !section_span(im, shoff + link * shentsize, &strs, &strentsize))
		return false;
	for (uint64_t k = 0; k < syms.size / entsize; k++) {
		uint64_t sym = syms.off + k * entsize, name = image_uint(im, sym, 4);
		const char *s = (const char *)im->buf + strs.off + name;

		if (image_uint(im, sym + im->lay->st_shndx, 2) == SHN_UNDEF && name < strs.size &&
		    memchr(s, '\0', strs.size - name) && symbol_unwinds(s))
			return true;
	}
	return false;
}

/* The loader does not read section headers, so a file without them (or
 * with broken ones) still runs: its imports are then simply not known. */
static void parse_imports(const struct elf_image *im, struct elf_deps *out)
{
	uint64_t shoff = image_word(im, im->lay->e_shoff);
	uint16_t shentsize = (uint16_t)image_uint(im, im->lay->e_shentsize, 2);
	uint16_t shnum = (uint16_t)image_uint(im, im->lay->e_shnum, 2);

	if (shnum == 0 || shentsize < im->lay->shdr_size ||
	    !image_contains(im, shoff, (uint64_t)shnum * shentsize))
		return;
	for (uint16_t i = 0; i < shnum && !out->unwinds; i++) {
		uint64_t shdr = shoff + (uint64_t)i * shentsize;

		if (image_uint(im, shdr + im->lay->sh_type, 4) == SHT_DYNSYM)
			out->unwinds = dynsym_unwinds(im, shoff, shentsize, shnum, shdr);
	}
}

int elf_parse(const void *buf, size_t len, struct elf_deps *out)
{
	struct elf_image im;
	int r;

	memset(out, 0, sizeof(*out));
	r = image_open(&im, buf, len, out);
	if (r == 0)
		r = parse_interp(&im, out);
	if (r == 0)
		r = parse_dynamic(&im, out);
	if (r == 0)
		parse_imports(&im, out);
	if (r < 0)
		elf_deps_free(out);
	return r;
}

int elf_read_fd(int fd, struct elf_deps *out)
{
	struct stat st;
	void *map;
	int r;

	memset(out, 0, sizeof(*out));
	if (fstat(fd, &st) < 0)
		return -errno;
	/* Only a regular file can be mapped, and an empty one is no ELF. */
	if (!S_ISREG(st.st_mode) || st.st_size < EI_NIDENT)
		return -ENOEXEC;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	r = elf_parse(map, (size_t)st.st_size, out);
	munmap(map, (size_t)st.st_size);
	return r;
}

int elf_read_file(const char *path, struct elf_deps *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0) {
		memset(out, 0, sizeof(*out));
		return -errno;
	}
	r = elf_read_fd(fd, out);
	close(fd);
	return r;
}

void elf_deps_free(struct elf_deps *d)
{
	free(d->interp);
	free(d->soname);
	strv_free(&d->needed);
	strv_free(&d->rpath);
	strv_free(&d->runpath);
	d->interp = NULL;
	d->soname = NULL;
}
