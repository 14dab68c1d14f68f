/* capture: what the capture hands each target: the open core, its
 * VMCOREINFO, the settings, the dump's name, the kernel log. */
#ifndef LIFEBOAT_KDUMP_CAPTURE_H
#define LIFEBOAT_KDUMP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/net_args.h"
#include "common/kdumpconf.h"
#include "kdump/diskdump.h"
#include "kdump/elfcore.h"
#include "kdump/vmcoreinfo.h"

struct capture {
	struct elfcore core;
	struct vmcoreinfo vi;
	bool have_vi;
	struct kdump_conf conf;
	const struct net_args *net;     /* ip= and the rest, for a network target */
	char host[65];               /* the crashed kernel's node name */
	char name[128];              /* HOST-YYYYmmdd-HHMMSS: the dump's directory */
	char *dmesg;                 /* the crashed kernel's log, or NULL */
	size_t dmesg_len;
	uint64_t bound;              /* the most the dump can take (diskdump_bound) */
	uint64_t elf_bound;          /* the ELF file's size, with format=elf (elfdump_bound) */
};

/* A target saves the dump where t says. Returns 0, or -errno after
 * reporting what failed (the capture then tries the next target). */
typedef int (*target_save_fn)(struct capture *cap, const struct kdump_target *t);

int target_disk_save(struct capture *cap, const struct kdump_target *t);
int target_url_save(struct capture *cap, const struct kdump_target *t);
int target_nfs_save(struct capture *cap, const struct kdump_target *t);

/* Bring the network up as ip= says (DHCP by default), once for all the
 * network targets. Returns 0 or -errno after reporting. */
int capture_network_up(struct capture *cap);

/* After the core and its VMCOREINFO are read: leave out the ranges beyond
 * NUMBER(MAX_PHYSMEM_BITS) and say once what the crashed kernel's data
 * does not allow (corrupt PT_LOADs, no page filtering). */
void capture_trust_core(struct capture *cap);
/* The crashed kernel's log into cap->dmesg; when it cannot be had, says
 * why once and leaves cap->dmesg NULL. */
void capture_read_dmesg(struct capture *cap);

/* Write the kdump-compressed dump of cap to sink, with a progress line on
 * the console, compressed as kdump.conf says on every CPU; says which
 * compressor and how many threads, and when the chosen one could not be
 * had. Returns 0 or -errno; reports no error. */
int capture_write_kdump(struct capture *cap, struct dump_sink *sink, struct diskdump_stats *stats);
/* Write the ELF core to the file fd, filtered by the same dump level
 * (level 0: every page), with a progress line. Returns 0 or -errno. */
int capture_write_elf(struct capture *cap, int fd);

#endif
