/* kdump_fixture: synthetic ELF cores, as /proc/vmcore shows them, written
 * to a memfd: a note segment (VMCOREINFO, CPU register notes) and PT_LOAD
 * ranges of physical memory whose contents the test chooses. */
#ifndef LIFEBOAT_TEST_KDUMP_FIXTURE_H
#define LIFEBOAT_TEST_KDUMP_FIXTURE_H

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct fixture_load {
	uint64_t paddr, filesz, memsz;
};

static size_t fixture_note(uint8_t *out, const char *name, uint32_t type, const void *desc, size_t dlen)
{
	Elf64_Nhdr nh = { (Elf64_Word)(strlen(name) + 1), (Elf64_Word)dlen, type };
	size_t pos = sizeof(nh);

	memcpy(out, &nh, sizeof(nh));
	memcpy(out + pos, name, nh.n_namesz);
	pos += (nh.n_namesz + 3) & ~3u;
	memcpy(out + pos, desc, dlen);
	return pos + ((dlen + 3) & ~(size_t)3);
}

/* The fuzz targets that build a core for every input (fuzz_diskdump)
 * spent half their time in the coverage hooks of fixture_core's byte loop
 * (inlined into the target, so instrumented): the fixture is not what they
 * fuzz. noinline keeps it a function of its own, left uninstrumented. */
#if defined(__clang__)
#define FIXTURE_NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define FIXTURE_NO_COVERAGE
#endif

/* The content of physical byte paddr in the fixture's memory: a pattern
 * that differs page by page, with every fourth page all zeros. */
static inline uint8_t fixture_byte(uint64_t paddr)
{
	uint64_t pfn = paddr / 4096;

	if (pfn % 4 == 3)
		return 0;
	return (uint8_t)(pfn * 7 + (paddr % 4096) / 64 + (pfn % 5 == 0 ? paddr : 0));
}

/* Build the core in a buffer: ELF header, phdrs, notes, then each load's
 * file bytes. *size gets its length; the caller frees. nr_cpus register
 * notes precede VMCOREINFO (NULL: none). */
FIXTURE_NO_COVERAGE
static uint8_t *fixture_core(const struct fixture_load *loads, int nloads, const char *vmcoreinfo,
			     int nr_cpus, size_t *size)
{
	size_t phoff = sizeof(Elf64_Ehdr), notes_at = phoff + (size_t)(nloads + 1) * sizeof(Elf64_Phdr);
	uint8_t notes[8192] = { 0 }, prstatus[336] = { 0 };
	size_t nlen = 0, total, at;
	Elf64_Ehdr eh = { 0 };
	uint8_t *buf;

	for (int i = 0; i < nr_cpus; i++)
		nlen += fixture_note(notes + nlen, "CORE", NT_PRSTATUS, prstatus, sizeof(prstatus));
	if (vmcoreinfo)
		nlen += fixture_note(notes + nlen, "VMCOREINFO", 0, vmcoreinfo, strlen(vmcoreinfo));
	total = notes_at + nlen;
	for (int i = 0; i < nloads; i++)
		total += loads[i].filesz;
	buf = calloc(1, total);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = phoff;
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (Elf64_Half)(nloads + 1);
	memcpy(buf, &eh, sizeof(eh));
	Elf64_Phdr note = { .p_type = PT_NOTE, .p_offset = notes_at, .p_filesz = nlen, .p_memsz = nlen };
	memcpy(buf + phoff, &note, sizeof(note));
	memcpy(buf + notes_at, notes, nlen);
	at = notes_at + nlen;
	for (int i = 0; i < nloads; i++) {
		Elf64_Phdr ph = { .p_type = PT_LOAD, .p_offset = at, .p_paddr = loads[i].paddr,
				  .p_vaddr = 0xffff888000000000ULL + loads[i].paddr,
				  .p_filesz = loads[i].filesz, .p_memsz = loads[i].memsz, .p_flags = PF_R | PF_W };

		memcpy(buf + phoff + (size_t)(i + 1) * sizeof(ph), &ph, sizeof(ph));
		for (uint64_t b = 0; b < loads[i].filesz; b++)
			buf[at + b] = fixture_byte(loads[i].paddr + b);
		at += loads[i].filesz;
	}
	*size = total;
	return buf;
}

/* A memfd holding len bytes of buf, at offset 0. */
static inline int fixture_memfd(const void *buf, size_t len)
{
	int fd = memfd_create("core", 0);

	if (fd >= 0 && write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

#endif
