/* elf: read what the dynamic loader needs from an ELF file, without running it. */
#ifndef LIFEBOAT_ELF_H
#define LIFEBOAT_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/strv.h"

struct elf_deps {
	uint8_t elf_class;     /* ELFCLASS32 or ELFCLASS64 */
	uint8_t byte_order;    /* ELFDATA2LSB or ELFDATA2MSB */
	uint16_t machine;      /* e_machine */
	char *interp;          /* PT_INTERP, or NULL (static or a library) */
	struct strv needed;    /* DT_NEEDED, in file order */
	struct strv rpath;     /* DT_RPATH entries, split on ':' */
	struct strv runpath;   /* DT_RUNPATH entries, split on ':' */
	char *soname;          /* DT_SONAME, or NULL */
	/* It imports pthread_cancel or pthread_exit (its dynamic symbols, read
	 * through the section headers; false without them), for which glibc
	 * dlopen()s ELF_UNWIND_LIB: no DT_NEEDED names it. */
	bool unwinds;
};

/* The library glibc loads to unwind a cancelled or exiting thread. */
#define ELF_UNWIND_LIB "libgcc_s.so.1"

/* Parse an in-memory ELF image of len bytes (either class, either byte
 * order). Never reads outside buf. Returns 0, -ENOEXEC for what is not ELF
 * or is malformed, -ENOMEM. */
int elf_parse(const void *buf, size_t len, struct elf_deps *out);
/* elf_parse() on a file; -errno from opening/reading it. */
int elf_read_file(const char *path, struct elf_deps *out);
/* elf_parse() on an open file descriptor (not closed here). */
int elf_read_fd(int fd, struct elf_deps *out);
void elf_deps_free(struct elf_deps *d);

#endif
