/* uki: a unified kernel image: systemd's EFI stub with the kernel, the
 * initramfs, the command line and os-release added as PE sections, which
 * the stub finds by name when the firmware starts it. */
#ifndef LIFEBOAT_UKI_H
#define LIFEBOAT_UKI_H

#include <stddef.h>
#include <stdint.h>

struct uki_section {
	const char *name;     /* ".linux", ".initrd", ...: at most 8 characters */
	const uint8_t *data;
	size_t size;
};

/* The stub with sections appended in the order given (the kernel last: it
 * may grow in memory past its bytes when it unpacks itself). Each starts on
 * a page in memory and on FileAlignment in the file; SizeOfImage and the
 * checksum are updated. Returns 0 with a malloc'd *out, -ENOEXEC with *why
 * when the stub cannot take the sections (see pe_layout_read; or no room
 * for more section entries), -EFBIG past 2 GiB, -ENOMEM. */
int uki_assemble(const uint8_t *stub, size_t stub_len, const struct uki_section *secs, size_t n,
		 uint8_t **out, size_t *out_len, const char **why);

#endif
