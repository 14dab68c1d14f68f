/* pe: reading and extending a PE32+ executable's headers (the EFI stub of a
 * unified kernel image): where its section table is, how much room the
 * headers have for more section entries, and where the image ends in the
 * file and in memory. Offsets and fields as the PE/COFF specification
 * gives them; only what adding sections needs. */
#ifndef LIFEBOAT_PE_H
#define LIFEBOAT_PE_H

#include <stddef.h>
#include <stdint.h>

#define PE_SECTION_HEADER_SIZE 40
#define PE_SECTION_NAME_MAX 8

struct pe_layout {
	uint32_t coff_offset;    /* the COFF file header, after "PE\0\0" */
	uint32_t opt_offset;     /* the optional header (its fields at fixed offsets from here) */
	uint32_t table_offset;   /* the section table */
	uint16_t n_sections;
	uint32_t section_align;  /* SectionAlignment: where sections may start in memory */
	uint32_t file_align;     /* FileAlignment: where their bytes may start in the file */
	uint32_t headers_end;    /* SizeOfHeaders */
	uint32_t room_end;       /* where more section entries must stop: the first section's bytes or SizeOfHeaders */
	uint32_t vm_end;         /* the end of the highest section in memory */
	uint32_t raw_end;        /* the end of the last section's bytes in the file */
	uint32_t symtab_offset;  /* PointerToSymbolTable: a COFF symbol table after the sections, or 0 */
};

/* Optional header fields used here, at the same offset in PE32 and PE32+. */
#define PE_OPT_SIZE_OF_INIT_DATA 8
#define PE_OPT_SIZE_OF_IMAGE 56
#define PE_OPT_CHECKSUM 64
/* The COFF header's NumberOfSections. */
#define PE_COFF_N_SECTIONS 2
/* PointerToSymbolTable and NumberOfSymbols. */
#define PE_COFF_SYMTAB 8
#define PE_COFF_N_SYMBOLS 12

/* Reads buf's headers. Returns 0, or -ENOEXEC with *why naming the check
 * that failed (not an MZ/PE file, not PE32+, truncated, a section outside
 * the file, signed: a signature would not cover what is added). */
int pe_layout_read(const uint8_t *buf, size_t len, struct pe_layout *pe, const char **why);

/* The PE checksum of buf, whose CheckSum field the caller has zeroed: the
 * 16-bit one's complement sum of the file's words plus its length. */
uint32_t pe_checksum(const uint8_t *buf, size_t len);

uint16_t pe_get16(const uint8_t *p);
uint32_t pe_get32(const uint8_t *p);
void pe_put16(uint8_t *p, uint16_t v);
void pe_put32(uint8_t *p, uint32_t v);

#endif
