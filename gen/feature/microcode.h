/* microcode: the early microcode archive the kernel reads before the
 * initramfs proper (Documentation/arch/x86/microcode.rst): an uncompressed
 * cpio at the start of the image holding kernel/x86/microcode/GenuineIntel.bin
 * and AuthenticAMD.bin, made from the distributions' intel-ucode/ and
 * amd-ucode/ firmware directories. */
#ifndef LIFEBOAT_MICROCODE_H
#define LIFEBOAT_MICROCODE_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/image/image.h"
#include "gen/opts/build_opts.h"   /* enum microcode_mode, --microcode */

/* The processor a host-only image is for, from /proc/cpuinfo. */
struct cpu_id {
	char vendor[16];        /* "GenuineIntel", "AuthenticAMD", ... */
	unsigned int family, model, stepping;
};

/* The first processor's vendor_id, cpu family, model and stepping.
 * -ENOENT if any is missing, -EINVAL if a number is malformed. */
int microcode_cpuinfo_parse(const char *text, size_t len, struct cpu_id *cpu);

/* The file name, relative to the firmware directory, of one CPU's
 * microcode: "intel-ucode/06-8e-0a", "amd-ucode/microcode_amd_fam17h.bin".
 * -ENOTSUP for other vendors. */
int microcode_host_name(const struct cpu_id *cpu, char *out, size_t size);

/* Add the microcode to early (an image of its own, written uncompressed
 * before the main one): for cpu only, or every file when cpu is NULL.
 * fwdirs is a ':' list searched in order (NULL: /lib/firmware/updates and
 * /lib/firmware). Nothing found is not an error: *added says how many
 * vendors' files went in. Returns 0 or -errno (reported). */
int microcode_add(struct image *early, const struct cpu_id *cpu, const char *fwdirs, size_t *added);

/* What --microcode asks for, as an early image (*out NULL when there is
 * nothing to add: none, no files, or a host CPU without microcode).
 * cpuinfo is read for host-only images in auto mode. Returns 0 or -errno. */
int microcode_early(enum microcode_mode mode, bool host_only, const char *fwdirs,
		    const char *cpuinfo, struct image **out);

#endif
