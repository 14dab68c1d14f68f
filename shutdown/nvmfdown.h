/* nvmfdown: the way out's step for NVMe over TCP: every controller whose
 * transport is tcp (the root's subsystem, connected at boot by net/nvmf.c)
 * is deleted through sysfs, after the filesystems on its namespaces are
 * unmounted and the layers above are down, while the network is still up.
 * Deleting it sends the target a clean disconnect, so the target does not
 * wait for its keep-alive timer to expire. A controller whose namespace
 * is still in use is left to the power-off. */
#ifndef LIFEBOAT_SHUTDOWN_NVMFDOWN_H
#define LIFEBOAT_SHUTDOWN_NVMFDOWN_H

#include <stdbool.h>
#include <stddef.h>

#define NVMFDOWN_CTRL_MAX 32

struct nvmfdown_ctrl {
	char name[32];           /* nvmeN */
	char nqn[224];           /* its subsysnqn */
	char address[128];       /* traddr=...,trsvcid=... */
	char subsys[64];         /* its nvme-subsysK, "" when none is found */
};

struct nvmfdown_set {
	size_t len;
	struct nvmfdown_ctrl ctrls[NVMFDOWN_CTRL_MAX];
};

/* The tcp controllers under sys (normally "/sys"). Returns 0 (no NVMe
 * class at all: none) or -errno. */
int nvmfdown_scan(const char *sys, struct nvmfdown_set *out);

/* Whether name is a namespace's block device, nvmeXnY (not a hidden
 * path nvmeXcYnZ, not a partition nvmeXnYpZ). */
bool nvmfdown_is_namespace(const char *name);

/* A namespace of c in use: each nvmeXnY under its controller and its
 * subsystem is asked busy(name). 1 with its name, or 0. */
int nvmfdown_busy(const char *sys, const struct nvmfdown_ctrl *c,
		  bool (*busy)(const char *name), char *name, size_t size);

/* Whether the block device at block_path (its resolved sysfs path) is a
 * namespace reached over NVMe/TCP: under a fabrics controller
 * (.../nvme-fabrics/ctl/nvmeN/), or a native multipath head whose
 * subsystem directory (.../nvme-subsystem/nvme-subsysK/) lists a
 * controller with transport tcp. The init then leaves the way out. */
bool nvmfdown_is_tcp_disk(const char *block_path);

/* Delete every tcp controller nothing uses. Returns how many are left,
 * or -errno when sysfs cannot be read. */
int nvmfdown_run(void);

#endif
