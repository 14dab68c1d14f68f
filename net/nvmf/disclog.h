/* disclog: the discovery log page of an NVMe over Fabrics discovery
 * controller (Get Log Page, log identifier 0x70): a 1024-byte header
 * (generation counter, number of records) and one 1024-byte entry per
 * subsystem port the host may reach (include/linux/nvme.h,
 * struct nvmf_disc_rsp_page_entry). The page comes from the network: every
 * offset is checked, every string is bounded and checked before it may go
 * into a connect's option string. */
#ifndef LIFEBOAT_NET_NVMF_DISCLOG_H
#define LIFEBOAT_NET_NVMF_DISCLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVMF_DISCLOG_RECORD 1024
/* More records than a boot needs: a page longer than this is read this far. */
#define NVMF_DISCLOG_RECORDS_MAX 64

#define NVMF_DISCLOG_TRTYPE_TCP 3
#define NVMF_DISCLOG_ADRFAM_IPV4 1
#define NVMF_DISCLOG_ADRFAM_IPV6 2
#define NVMF_DISCLOG_SUBTYPE_NVME 2    /* 1 and 3: discovery controllers */

struct nvmf_disclog_entry {
	uint8_t trtype, adrfam, subtype;
	uint16_t portid, cntlid;
	char trsvcid[33];
	char traddr[257];
	char subnqn[257];
	/* Each string is printable, without ',' '=' or space, and not empty. */
	bool strings_ok;
};

/* The header of page (len bytes): *genctr and *numrec. Returns 0, or
 * -EINVAL when len is shorter than a header. */
int nvmf_disclog_header(const uint8_t *page, size_t len, uint64_t *genctr, uint64_t *numrec);

/* Entry i of page (len bytes, the header first) into *e. Returns 0, or
 * -ERANGE when the entry is not wholly inside page. */
int nvmf_disclog_entry(const uint8_t *page, size_t len, uint64_t i, struct nvmf_disclog_entry *e);

/* Whether e is a controller a TCP root can be connected to: an NVM
 * subsystem over TCP with IPv4 or IPv6 and sound strings. */
bool nvmf_disclog_usable(const struct nvmf_disclog_entry *e);

/* The whole page from the discovery controller /dev/nvmeN open at fd,
 * re-read while its generation counter moves (a target changing while it
 * is read): *page (malloc'd) of *len bytes, the header and at most
 * NVMF_DISCLOG_RECORDS_MAX records. Returns 0 or -errno (-EAGAIN: it never
 * held still). */
int nvmf_disclog_read(int fd, uint8_t **page, size_t *len);

#endif
