/* pe: reading a PE32+ executable's headers, checking every offset against
 * the file's length (the stub is outside input). */
#include "gen/uki/pe.h"

#include <errno.h>
#include <stdbool.h>

#define MZ_LFANEW 0x3c           /* DOS header: offset of "PE\0\0" */
#define COFF_SIZE 20             /* the COFF file header after the signature */
#define PE_MAGIC_PE32PLUS 0x20b
#define OPT_MAGIC 0
#define OPT_SECTION_ALIGN 32
#define OPT_FILE_ALIGN 36
#define OPT_SIZE_OF_HEADERS 60
#define OPT64_N_DIRS 108         /* NumberOfRvaAndSizes in PE32+ */
#define OPT64_DIRS 112           /* the data directories in PE32+ */
#define DIR_SECURITY 4           /* the certificate table (Authenticode) */
#define SEC_VSIZE 8
#define SEC_VADDR 12
#define SEC_RAW_SIZE 16
#define SEC_RAW_PTR 20

uint16_t pe_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t pe_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void pe_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void pe_put32(uint8_t *p, uint32_t v)
{
	pe_put16(p, (uint16_t)v);
	pe_put16(p + 2, (uint16_t)(v >> 16));
}

static int fail(const char **why, const char *what)
{
	*why = what;
	return -ENOEXEC;
}

static bool is_power_of_two(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* The optional header: PE32+, sane alignments, not signed. */
static int optional_read(const uint8_t *buf, size_t len, uint32_t opt, uint16_t opt_size,
			 struct pe_layout *pe, const char **why)
{
	const uint8_t *o = buf + opt;
	uint32_t n_dirs;

	if (opt_size < OPT64_DIRS || (size_t)opt + opt_size > len)
		return fail(why, "the optional header is cut short");
	if (pe_get16(o + OPT_MAGIC) != PE_MAGIC_PE32PLUS)
		return fail(why, "not a PE32+ (64-bit) executable");
	pe->section_align = pe_get32(o + OPT_SECTION_ALIGN);
	pe->file_align = pe_get32(o + OPT_FILE_ALIGN);
	if (!is_power_of_two(pe->section_align) || !is_power_of_two(pe->file_align) ||
	    pe->file_align > 0x10000 || pe->section_align > 0x200000)
		return fail(why, "its section or file alignment is not a power of two up to 64 KiB/2 MiB");
	pe->headers_end = pe_get32(o + OPT_SIZE_OF_HEADERS);
	pe->room_end = pe->headers_end;
	n_dirs = pe_get32(o + OPT64_N_DIRS);
	if (n_dirs > DIR_SECURITY && OPT64_DIRS + 8u * (DIR_SECURITY + 1) <= opt_size &&
	    pe_get32(o + OPT64_DIRS + 8 * DIR_SECURITY + 4) != 0)
		return fail(why, "it is signed (its signature would not cover the added sections): use the unsigned stub");
	return 0;
}

/* Each section: its bytes inside the file; the table's ends. */
static int sections_read(const uint8_t *buf, size_t len, struct pe_layout *pe, const char **why)
{
	if ((size_t)pe->table_offset + (size_t)pe->n_sections * PE_SECTION_HEADER_SIZE > len)
		return fail(why, "the section table is cut short");
	pe->vm_end = 0;
	pe->raw_end = 0;
	for (uint16_t i = 0; i < pe->n_sections; i++) {
		const uint8_t *s = buf + pe->table_offset + (size_t)i * PE_SECTION_HEADER_SIZE;
		uint64_t vsize = pe_get32(s + SEC_VSIZE), raw = pe_get32(s + SEC_RAW_SIZE);
		uint64_t vend = pe_get32(s + SEC_VADDR) + (vsize > raw ? vsize : raw);
		uint64_t ptr = pe_get32(s + SEC_RAW_PTR);

		if (raw && ptr + raw > len)
			return fail(why, "a section's bytes lie beyond the end of the file");
		if (vend > UINT32_MAX / 2)
			return fail(why, "a section lies beyond 2 GiB in memory");
		if (raw && ptr < pe->room_end)
			pe->room_end = (uint32_t)ptr;
		if (vend > pe->vm_end)
			pe->vm_end = (uint32_t)vend;
		if (raw && ptr + raw > pe->raw_end)
			pe->raw_end = (uint32_t)(ptr + raw);
	}
	if (pe->table_offset + (uint32_t)pe->n_sections * PE_SECTION_HEADER_SIZE > pe->room_end)
		return fail(why, "the section table overlaps the sections' bytes");
	return 0;
}

int pe_layout_read(const uint8_t *buf, size_t len, struct pe_layout *pe, const char **why)
{
	uint32_t sig;
	uint16_t opt_size;
	int r;

	if (len < MZ_LFANEW + 4 || buf[0] != 'M' || buf[1] != 'Z')
		return fail(why, "no MZ header: not an EFI executable");
	sig = pe_get32(buf + MZ_LFANEW);
	if (sig > len || len - sig < 4 + COFF_SIZE || buf[sig] != 'P' || buf[sig + 1] != 'E' ||
	    buf[sig + 2] || buf[sig + 3])
		return fail(why, "no PE signature where the MZ header points");
	pe->coff_offset = sig + 4;
	pe->n_sections = pe_get16(buf + pe->coff_offset + PE_COFF_N_SECTIONS);
	opt_size = pe_get16(buf + pe->coff_offset + 16);
	pe->symtab_offset = pe_get32(buf + pe->coff_offset + PE_COFF_SYMTAB);
	pe->opt_offset = pe->coff_offset + COFF_SIZE;
	pe->table_offset = pe->opt_offset + opt_size;
	r = optional_read(buf, len, pe->opt_offset, opt_size, pe, why);
	if (r == 0 && pe->room_end > len)
		return fail(why, "its headers are longer than the file");
	return r ? r : sections_read(buf, len, pe, why);
}

uint32_t pe_checksum(const uint8_t *buf, size_t len)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < len; i += 2) {
		sum += buf[i] | (i + 1 < len ? buf[i + 1] << 8 : 0);
		sum = (sum & 0xffff) + (sum >> 16);
	}
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint32_t)(sum + len);
}
