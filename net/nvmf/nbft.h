/* nbft: the NVMe Boot Firmware Table (ACPI signature "NBFT", NVM Express
 * Boot Specification 1.0): what a UEFI firmware that booted from NVMe/TCP
 * leaves for the OS in /sys/firmware/acpi/tables/NBFT (NBFT1, NBFT2... when
 * there are several). A 64-byte header (the ACPI header, then the heap's
 * place), the control descriptor at byte 64 giving the place of the host
 * descriptor (host NQN and ID), of the HFI descriptors (the host's fabric
 * interfaces: MAC, VLAN, address, prefix, gateway, DHCP) and of the SSNS
 * descriptors (each a subsystem namespace to connect: address, port,
 * subsystem NQN, NSID, the HFI to use); strings and the transport records
 * lie in a heap addressed from the table's first byte. The table is the
 * firmware's, as good as any outside input: every offset and length is
 * checked against the table and the heap, every string is bounded. */
#ifndef LIFEBOAT_NET_NVMF_NBFT_H
#define LIFEBOAT_NET_NVMF_NBFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVMF_NBFT_DIR "/sys/firmware/acpi/tables"
/* More than a machine has: the rest of a table is left out, and said. */
#define NVMF_NBFT_HFI_MAX 4
#define NVMF_NBFT_SSNS_MAX 8
/* The largest table read (the heap's objects are at most 64 KiB each). */
#define NVMF_NBFT_SIZE_MAX (1u << 20)
/* The transport type of NVMe/TCP (the only one the spec defines). */
#define NVMF_NBFT_TRTYPE_TCP 3

/* An address as text: IPv4, IPv6 (no brackets), or "" for none. */
#define NVMF_NBFT_ADDR_MAX 46

struct nvmf_nbft_hfi {
	uint8_t index;                     /* the SSNS descriptors name it */
	uint8_t trtype;                    /* only TCP's carries what follows */
	uint8_t mac[6];
	uint16_t vlan;                     /* 0: none */
	bool dhcp;                         /* the firmware took the address from DHCP */
	bool ipv6;
	char addr[NVMF_NBFT_ADDR_MAX];
	uint8_t prefix;
	char gateway[NVMF_NBFT_ADDR_MAX];
};

struct nvmf_nbft_ssns {
	uint16_t index;
	uint8_t trtype;
	uint8_t hfi;                       /* the primary HFI's index */
	bool secured;                      /* names a security profile (not supported) */
	uint32_t nsid;
	char traddr[NVMF_NBFT_ADDR_MAX];
	char trsvcid[33];                  /* "4420" when the table gives none */
	char nqn[224];
};

struct nvmf_nbft {
	char host_nqn[224];                /* "" when the table gives none */
	char host_id[37];                  /* a UUID's text; "" when zero */
	struct nvmf_nbft_hfi hfi[NVMF_NBFT_HFI_MAX];
	size_t n_hfi;
	struct nvmf_nbft_ssns ssns[NVMF_NBFT_SSNS_MAX];
	size_t n_ssns;
	/* Descriptors marked valid that were left out: malformed, or over the
	 * maximum above. */
	unsigned int dropped;
};

/* Parse the len bytes of table into *t. Returns 0; -ENOENT when the
 * control descriptor says the table holds nothing (its valid bit clear);
 * or -EINVAL with what is wrong in why (a bad signature, length or
 * checksum, a host descriptor or list out of the table). A malformed HFI
 * or SSNS descriptor is left out and counted, not fatal. */
int nvmf_nbft_parse(const uint8_t *table, size_t len, struct nvmf_nbft *t, char *why,
		    size_t why_size);

/* Read the table file at path and parse it. Returns as nvmf_nbft_parse,
 * or the read's -errno (why says so too). */
int nvmf_nbft_load(const char *path, struct nvmf_nbft *t, char *why, size_t why_size);

/* The HFI whose index is index, or NULL. */
const struct nvmf_nbft_hfi *nvmf_nbft_hfi_find(const struct nvmf_nbft *t, uint8_t index);

/* The paths of the tables in dir (NVMF_NBFT_DIR): NBFT, then NBFT1,
 * NBFT2... in that order, into paths (n of size bytes each). Returns how
 * many were found (at most n). */
size_t nvmf_nbft_find(const char *dir, char paths[][256], size_t n);

#endif
