/* elf_fixture: tiny ELF files built byte by byte, for the ELF and library tests. */
#ifndef LIFEBOAT_TEST_ELF_FIXTURE_H
#define LIFEBOAT_TEST_ELF_FIXTURE_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURE_BASE 0x400000u   /* virtual address of file offset 0 */

/* What to put in the file; NULL fields are left out. */
struct fixture {
	uint8_t elf_class;
	uint8_t byte_order;
	uint16_t machine;
	const char *interp;
	const char *needed[8];
	const char *rpath, *runpath, *soname;
};

static inline void fixture_put(uint8_t *buf, size_t off, size_t width, uint64_t v, bool msb)
{
	for (size_t i = 0; i < width; i++) {
		size_t b = msb ? width - 1 - i : i;

		buf[off + b] = (uint8_t)(v >> (8 * i));
	}
}

/* The string table: a leading NUL, then each string; returns its size. */
static inline size_t fixture_strtab(const struct fixture *f, char *tab, size_t *needed_off, size_t *rp, size_t *rnp,
			     size_t *so)
{
	size_t n = 1;
	const char *extra[3] = { f->rpath, f->runpath, f->soname };
	size_t *extra_off[3] = { rp, rnp, so };

	tab[0] = '\0';
	for (size_t i = 0; i < 8 && f->needed[i]; i++) {
		needed_off[i] = n;
		n += strlen(strcpy(tab + n, f->needed[i])) + 1;
	}
	for (size_t i = 0; i < 3; i++) {
		*extra_off[i] = n;
		if (extra[i])
			n += strlen(strcpy(tab + n, extra[i])) + 1;
	}
	return n;
}

struct fixture_layout {
	bool is64, msb;
	size_t ehsize, phsize, dynsize, word;
};

static inline void fixture_dyn(uint8_t *buf, const struct fixture_layout *l, size_t *off, uint64_t tag, uint64_t val)
{
	fixture_put(buf, *off, l->word, tag, l->msb);
	fixture_put(buf, *off + l->word, l->word, val, l->msb);
	*off += l->dynsize;
}

/* Program header: type, file offset, size; vaddr is FIXTURE_BASE + offset. */
static inline void fixture_phdr(uint8_t *buf, const struct fixture_layout *l, size_t at, uint32_t type, size_t off,
			 size_t size)
{
	fixture_put(buf, at, 4, type, l->msb);
	if (l->is64) {
		fixture_put(buf, at + offsetof(Elf64_Phdr, p_offset), 8, off, l->msb);
		fixture_put(buf, at + offsetof(Elf64_Phdr, p_vaddr), 8, FIXTURE_BASE + off, l->msb);
		fixture_put(buf, at + offsetof(Elf64_Phdr, p_filesz), 8, size, l->msb);
		fixture_put(buf, at + offsetof(Elf64_Phdr, p_memsz), 8, size, l->msb);
	} else {
		fixture_put(buf, at + offsetof(Elf32_Phdr, p_offset), 4, off, l->msb);
		fixture_put(buf, at + offsetof(Elf32_Phdr, p_vaddr), 4, FIXTURE_BASE + off, l->msb);
		fixture_put(buf, at + offsetof(Elf32_Phdr, p_filesz), 4, size, l->msb);
		fixture_put(buf, at + offsetof(Elf32_Phdr, p_memsz), 4, size, l->msb);
	}
}

static inline void fixture_ehdr(uint8_t *buf, const struct fixture *f, const struct fixture_layout *l, unsigned int phnum)
{
	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = f->elf_class;
	buf[EI_DATA] = f->byte_order;
	buf[EI_VERSION] = EV_CURRENT;
	fixture_put(buf, offsetof(Elf32_Ehdr, e_type), 2, ET_DYN, l->msb);
	fixture_put(buf, offsetof(Elf32_Ehdr, e_machine), 2, f->machine, l->msb);
	fixture_put(buf, offsetof(Elf32_Ehdr, e_version), 4, EV_CURRENT, l->msb);
	if (l->is64) {
		fixture_put(buf, offsetof(Elf64_Ehdr, e_phoff), 8, l->ehsize, l->msb);
		fixture_put(buf, offsetof(Elf64_Ehdr, e_ehsize), 2, l->ehsize, l->msb);
		fixture_put(buf, offsetof(Elf64_Ehdr, e_phentsize), 2, l->phsize, l->msb);
		fixture_put(buf, offsetof(Elf64_Ehdr, e_phnum), 2, phnum, l->msb);
	} else {
		fixture_put(buf, offsetof(Elf32_Ehdr, e_phoff), 4, l->ehsize, l->msb);
		fixture_put(buf, offsetof(Elf32_Ehdr, e_ehsize), 2, l->ehsize, l->msb);
		fixture_put(buf, offsetof(Elf32_Ehdr, e_phentsize), 2, l->phsize, l->msb);
		fixture_put(buf, offsetof(Elf32_Ehdr, e_phnum), 2, phnum, l->msb);
	}
}

/* Build the file: ELF header, program headers (PT_LOAD over the whole file,
 * PT_INTERP, PT_DYNAMIC), the interpreter string, the string table, the
 * dynamic section. Returns a malloc'd buffer of *len bytes. */
static inline uint8_t *fixture_build(const struct fixture *f, size_t *len)
{
	struct fixture_layout l = { f->elf_class == ELFCLASS64, f->byte_order == ELFDATA2MSB, 0, 0, 0, 0 };
	size_t needed_off[8], rp, rnp, so, strsz, interp_off, str_off, dyn_off, off, ph;
	char tab[4096];
	unsigned int phnum = f->interp ? 3 : 2;
	uint8_t *buf;

	l.ehsize = l.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	l.phsize = l.is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	l.dynsize = l.is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	l.word = l.is64 ? 8 : 4;
	strsz = fixture_strtab(f, tab, needed_off, &rp, &rnp, &so);
	interp_off = l.ehsize + phnum * l.phsize;
	str_off = interp_off + (f->interp ? strlen(f->interp) + 1 : 0);
	dyn_off = (str_off + strsz + 7) & ~(size_t)7;
	*len = dyn_off + 16 * l.dynsize;
	buf = calloc(1, *len);
	if (!buf)
		return NULL;
	fixture_ehdr(buf, f, &l, phnum);
	ph = l.ehsize;
	fixture_phdr(buf, &l, ph, PT_LOAD, 0, *len);
	fixture_phdr(buf, &l, ph + l.phsize, PT_DYNAMIC, dyn_off, 16 * l.dynsize);
	if (f->interp) {
		fixture_phdr(buf, &l, ph + 2 * l.phsize, PT_INTERP, interp_off, strlen(f->interp) + 1);
		strcpy((char *)buf + interp_off, f->interp);
	}
	memcpy(buf + str_off, tab, strsz);
	off = dyn_off;
	for (size_t i = 0; i < 8 && f->needed[i]; i++)
		fixture_dyn(buf, &l, &off, DT_NEEDED, needed_off[i]);
	if (f->rpath)
		fixture_dyn(buf, &l, &off, DT_RPATH, rp);
	if (f->runpath)
		fixture_dyn(buf, &l, &off, DT_RUNPATH, rnp);
	if (f->soname)
		fixture_dyn(buf, &l, &off, DT_SONAME, so);
	fixture_dyn(buf, &l, &off, DT_STRTAB, FIXTURE_BASE + str_off);
	fixture_dyn(buf, &l, &off, DT_STRSZ, strsz);
	return buf;
}

static inline int fixture_write(const struct fixture *f, const char *path)
{
	size_t len;
	uint8_t *buf = fixture_build(f, &len);
	FILE *out = buf ? fopen(path, "wb") : NULL;
	int ok = out && fwrite(buf, 1, len, out) == len;

	if (out && fclose(out) != 0)
		ok = 0;
	free(buf);
	return ok ? 0 : -1;
}

#endif
