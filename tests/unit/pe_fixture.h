/* pe_fixture: a minimal PE32+ EFI application made byte by byte, as the
 * stub of the unified kernel image tests: DOS header, "PE\0\0", the COFF
 * header, the optional header (SectionAlignment 0x1000, FileAlignment
 * 0x200, SizeOfHeaders 0x400) and one .text section of 0x10 bytes. */
#ifndef LIFEBOAT_PE_FIXTURE_H
#define LIFEBOAT_PE_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "gen/uki/pe.h"

#define FIX_LFANEW 0x40
#define FIX_COFF (FIX_LFANEW + 4)
#define FIX_OPT (FIX_COFF + 20)
#define FIX_OPT_SIZE 240
#define FIX_TABLE (FIX_OPT + FIX_OPT_SIZE)
#define FIX_LEN 0x600

/* Writes the stub into buf (FIX_LEN bytes; more when symtab_len > 0: a
 * symbol table of that many bytes after the section, as systemd's has). */
static inline size_t pe_fixture(uint8_t *buf, size_t symtab_len)
{
	uint8_t *sec = buf + FIX_TABLE;

	memset(buf, 0, FIX_LEN + symtab_len);
	buf[0] = 'M';
	buf[1] = 'Z';
	pe_put32(buf + 0x3c, FIX_LFANEW);
	memcpy(buf + FIX_LFANEW, "PE\0\0", 4);
	pe_put16(buf + FIX_COFF, 0x8664);          /* Machine: x86-64 */
	pe_put16(buf + FIX_COFF + 2, 1);           /* NumberOfSections */
	pe_put16(buf + FIX_COFF + 16, FIX_OPT_SIZE);
	pe_put16(buf + FIX_COFF + 18, 0x0206);     /* executable */
	pe_put16(buf + FIX_OPT, 0x20b);            /* PE32+ */
	pe_put32(buf + FIX_OPT + 8, 0x200);        /* SizeOfInitializedData */
	pe_put32(buf + FIX_OPT + 16, 0x1000);      /* AddressOfEntryPoint */
	pe_put32(buf + FIX_OPT + 32, 0x1000);      /* SectionAlignment */
	pe_put32(buf + FIX_OPT + 36, 0x200);       /* FileAlignment */
	pe_put32(buf + FIX_OPT + 56, 0x2000);      /* SizeOfImage */
	pe_put32(buf + FIX_OPT + 60, 0x400);       /* SizeOfHeaders */
	pe_put16(buf + FIX_OPT + 68, 10);          /* Subsystem: EFI application */
	pe_put32(buf + FIX_OPT + 108, 16);         /* NumberOfRvaAndSizes */
	memcpy(sec, ".text", 5);
	pe_put32(sec + 8, 0x10);                   /* VirtualSize */
	pe_put32(sec + 12, 0x1000);                /* VirtualAddress */
	pe_put32(sec + 16, 0x200);                 /* SizeOfRawData */
	pe_put32(sec + 20, 0x400);                 /* PointerToRawData */
	pe_put32(sec + 36, 0x60000020);            /* code, execute, read */
	memset(buf + 0x400, 0xc3, 0x10);           /* ret */
	if (symtab_len) {
		pe_put32(buf + FIX_COFF + 8, FIX_LEN);
		pe_put32(buf + FIX_COFF + 12, 1);
		memset(buf + FIX_LEN, 0x5a, symtab_len);
	}
	return FIX_LEN + symtab_len;
}

#endif
