/* nvmfhost: the build host's NVMe over TCP controllers, from sysfs: whether
 * it has one (its root may be on it; a host-only image then gets what an
 * NVMe/TCP root needs, gen/feature/nvmf_pack.c, without --nvmf), and the
 * words that connect them again at boot. */
#ifndef LIFEBOAT_NVMFHOST_H
#define LIFEBOAT_NVMFHOST_H

#include <stdbool.h>
#include <stddef.h>

/* A controller under sysfs (ROOT/sys) whose class/nvme/nvmeN/transport
 * is "tcp". */
bool nvmfhost_has_tcp(const char *sysfs);

struct nvmfhost_conn {
	/* "rd.nvmf.discover=tcp,TRADDR,HOST_TRADDR,TRSVCID" once per address
	 * and port, space-separated, from each tcp controller's `address`. */
	char words[1024];
	/* The kernel's hostnqn and hostid of the first tcp controller: what
	 * the host connected as. */
	char hostnqn[224];
	char hostid[64];
};

/* Read the tcp controllers under sysfs into *out. Returns how many there
 * are (0: none, out empty). An address with a character the kernel's
 * option parser would split on is left out. */
int nvmfhost_conn_read(const char *sysfs, struct nvmfhost_conn *out);

#endif
