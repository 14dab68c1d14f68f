/* uki: appending sections to the EFI stub. The stub's own bytes are kept as
 * they are; the new entries go into the free room after its section table,
 * their bytes after its last section. A COFF symbol table left after the
 * sections (systemd's stub has one; no loader reads it in an image) is
 * dropped: sections after it would leave a gap that signing tools warn
 * about and hash differently. */
#include "gen/uki/uki.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gen/uki/pe.h"

#define UKI_PAGE 4096u
/* IMAGE_SCN_CNT_INITIALIZED_DATA | IMAGE_SCN_MEM_READ: data, read-only. */
#define SCN_DATA_READ 0x40000040u

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Where each section goes, in memory and in the file; the total file size. */
struct placement {
	uint32_t vaddr, raw_ptr, raw_size;
};

/* The headers and the sections' bytes. */
static uint32_t stub_used(const struct pe_layout *pe)
{
	return pe->raw_end > pe->headers_end ? pe->raw_end : pe->headers_end;
}

static bool symtab_dropped(const struct pe_layout *pe)
{
	return pe->symtab_offset && pe->symtab_offset >= stub_used(pe);
}

/* How much of the stub is kept: all of it, or up to a symbol table at its end. */
static size_t stub_kept(const struct pe_layout *pe, size_t stub_len)
{
	return symtab_dropped(pe) ? stub_used(pe) : stub_len;
}

static int place(const struct pe_layout *pe, size_t kept, const struct uki_section *secs,
		 size_t n, struct placement *where, uint64_t *file_end, uint64_t *vm_end)
{
	uint64_t page = pe->section_align > UKI_PAGE ? pe->section_align : UKI_PAGE;
	uint64_t vm = align_up(pe->vm_end, page);
	uint64_t file = align_up(kept > pe->raw_end ? kept : pe->raw_end, pe->file_align);

	for (size_t i = 0; i < n; i++) {
		uint64_t raw = align_up(secs[i].size, pe->file_align);

		if (file + raw > INT32_MAX || vm + secs[i].size > INT32_MAX)
			return -EFBIG;
		where[i].vaddr = (uint32_t)vm;
		where[i].raw_ptr = (uint32_t)file;
		where[i].raw_size = (uint32_t)raw;
		file += raw;
		vm = align_up(vm + secs[i].size, page);
	}
	*file_end = file;
	*vm_end = vm;
	return 0;
}

static void entry_write(uint8_t *e, const struct uki_section *s, const struct placement *p)
{
	memset(e, 0, PE_SECTION_HEADER_SIZE);
	memcpy(e, s->name, strnlen(s->name, PE_SECTION_NAME_MAX));
	pe_put32(e + 8, (uint32_t)s->size);   /* VirtualSize */
	pe_put32(e + 12, p->vaddr);
	pe_put32(e + 16, p->raw_size);
	pe_put32(e + 20, p->raw_ptr);
	pe_put32(e + 36, SCN_DATA_READ);
}

/* The headers' totals: sections, size in memory, initialized data, checksum. */
static void headers_update(uint8_t *img, size_t len, const struct pe_layout *pe, size_t n,
			   uint64_t vm_end, uint64_t added_raw)
{
	uint8_t *opt = img + pe->opt_offset;
	uint64_t init_data = pe_get32(opt + PE_OPT_SIZE_OF_INIT_DATA) + added_raw;

	pe_put16(img + pe->coff_offset + PE_COFF_N_SECTIONS, (uint16_t)(pe->n_sections + n));
	if (symtab_dropped(pe)) {
		pe_put32(img + pe->coff_offset + PE_COFF_SYMTAB, 0);
		pe_put32(img + pe->coff_offset + PE_COFF_N_SYMBOLS, 0);
	}
	pe_put32(opt + PE_OPT_SIZE_OF_IMAGE, (uint32_t)align_up(vm_end, pe->section_align));
	pe_put32(opt + PE_OPT_SIZE_OF_INIT_DATA, init_data > UINT32_MAX ? UINT32_MAX : (uint32_t)init_data);
	pe_put32(opt + PE_OPT_CHECKSUM, 0);
	pe_put32(opt + PE_OPT_CHECKSUM, pe_checksum(img, len));
}

static int sections_check(const struct pe_layout *pe, const struct uki_section *secs, size_t n,
			  const char **why)
{
	if (pe->table_offset + (uint64_t)(pe->n_sections + n) * PE_SECTION_HEADER_SIZE > pe->room_end ||
	    pe->n_sections + n > 96) {
		*why = "its headers have no room for more section entries";
		return -ENOEXEC;
	}
	for (size_t i = 0; i < n; i++)
		if (!secs[i].name[0] || strlen(secs[i].name) > PE_SECTION_NAME_MAX) {
			*why = "a section name is empty or longer than 8 characters";
			return -EINVAL;
		}
	return 0;
}

int uki_assemble(const uint8_t *stub, size_t stub_len, const struct uki_section *secs, size_t n,
		 uint8_t **out, size_t *out_len, const char **why)
{
	struct pe_layout pe;
	struct placement *where;
	uint64_t file_end, vm_end;
	uint8_t *img;
	size_t kept;
	int r = pe_layout_read(stub, stub_len, &pe, why);

	if (r == 0)
		r = sections_check(&pe, secs, n, why);
	if (r < 0)
		return r;
	where = calloc(n ? n : 1, sizeof(*where));
	if (!where)
		return -ENOMEM;
	kept = stub_kept(&pe, stub_len);
	r = place(&pe, kept, secs, n, where, &file_end, &vm_end);
	img = r == 0 ? calloc(1, file_end) : NULL;
	if (r == 0 && !img)
		r = -ENOMEM;
	if (r < 0) {
		*why = r == -EFBIG ? "the sections together pass 2 GiB" : "out of memory";
		free(where);
		return r;
	}
	memcpy(img, stub, kept);
	for (size_t i = 0; i < n; i++) {
		entry_write(img + pe.table_offset + (pe.n_sections + i) * PE_SECTION_HEADER_SIZE,
			    &secs[i], &where[i]);
		if (secs[i].size)
			memcpy(img + where[i].raw_ptr, secs[i].data, secs[i].size);
	}
	headers_update(img, file_end, &pe, n, vm_end, file_end - kept);
	free(where);
	*out = img;
	*out_len = file_end;
	return 0;
}
