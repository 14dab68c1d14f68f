/* fabrics: the kernel's NVMe over Fabrics connect interface, without
 * nvme-cli. A connect is one write of "key=value,..." options to
 * /dev/nvme-fabrics (drivers/nvme/host/fabrics.c reads them), whose answer,
 * read back on the same descriptor, names the new controller:
 * "instance=N,cntlid=M" is /dev/nvmeN. A controller goes away by writing 1
 * to /sys/class/nvme/nvmeN/delete_controller. */
#ifndef LIFEBOAT_NET_NVMF_FABRICS_H
#define LIFEBOAT_NET_NVMF_FABRICS_H

#include <stddef.h>

#define NVMF_FABRICS_DEV "/dev/nvme-fabrics"
#define NVMF_FABRICS_CLASS "/sys/class/nvme"
/* The well-known NQN of every discovery controller. */
#define NVMF_FABRICS_DISCOVERY_NQN "nqn.2014-08.org.nvmexpress.discovery"
/* NVMe/TCP's port (IANA), dracut's default for rd.nvmf.discover=. */
#define NVMF_FABRICS_PORT "4420"
/* NVMF_NQN_SIZE is 223 bytes; a UUID's text is 36. */
#define NVMF_FABRICS_NQN_MAX 224
#define NVMF_FABRICS_HOSTID_MAX 37
/* The kernel's option string is read into a page; ours stays far below. */
#define NVMF_FABRICS_OPTIONS_MAX 1024

struct nvmf_fabrics_host {
	char nqn[NVMF_FABRICS_NQN_MAX];        /* hostnqn=, always given */
	char id[NVMF_FABRICS_HOSTID_MAX];      /* hostid= (a UUID); "": the kernel makes one */
};

/* One controller to connect to over TCP. */
struct nvmf_fabrics_target {
	char nqn[257];                         /* the subsystem's NQN (or the discovery NQN) */
	char traddr[257];                      /* its address, IPv4 or IPv6 (plain, no brackets) */
	char trsvcid[33];                      /* its port, "4420" */
	char host_traddr[257];                 /* "": any local address */
	char host_iface[16];                   /* "": any interface */
};

/* The option string for target as host, into out. A value that is empty
 * (where one is required) or holds a character the kernel's parser would
 * take for a separator (',', '=', space, a control character) is refused:
 * a discovery log page from the network must not add options of its own.
 * Returns 0, -EINVAL (what names the bad field), or -ENAMETOOLONG. */
int nvmf_fabrics_options(const struct nvmf_fabrics_host *host,
			 const struct nvmf_fabrics_target *target, char *out, size_t size,
			 const char **what);

/* The kernel's answer "instance=N,cntlid=M\n": N into *instance.
 * Returns 0 or -EINVAL. */
int nvmf_fabrics_parse_answer(const char *answer, int *instance);

/* Write options to dev (NVMF_FABRICS_DEV) and read the answer: the new
 * controller's instance into *instance. Returns 0 or the kernel's -errno
 * (-EALREADY: connected already; -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH:
 * nothing listens yet; -EIO: the target refused, the kernel says why). */
int nvmf_fabrics_connect(const char *dev, const char *options, int *instance);

/* Delete controller nvmeN under class (NVMF_FABRICS_CLASS): its namespaces
 * go, the target hears a clean disconnect. Returns 0 or -errno. */
int nvmf_fabrics_delete(const char *class_dir, int instance);

#endif
