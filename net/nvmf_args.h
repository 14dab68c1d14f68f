/* nvmf_args: the words of an NVMe over TCP root (dracut's, docs/network.md):
 * rd.nvmf.hostnqn= and rd.nvmf.hostid= (also nvmf.hostnqn=, nvmf.hostid=),
 * rd.nvmf.discover=TRANSPORT,TRADDR[,HOST_TRADDR[,TRSVCID]] (repeatable;
 * also nvmf.discover=), rd.nvmf.discover=fw (the firmware's NBFT table,
 * net/nvmf/nbft.h), rd.nvmf.nonbft (not the NBFT), rd.nonvmf. */
#ifndef LIFEBOAT_NVMF_ARGS_H
#define LIFEBOAT_NVMF_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "bootlib/cmdline.h"
#include "net/nvmf/fabrics.h"

/* Discovery controllers a command line may name. */
#define NVMF_ARGS_DISCOVER_MAX 8

struct nvmf_args {
	char hostnqn[CMDLINE_VALUE_MAX];
	char hostid[CMDLINE_VALUE_MAX];
	/* Each rd.nvmf.discover= as written, once. */
	char discover[NVMF_ARGS_DISCOVER_MAX][CMDLINE_VALUE_MAX];
	size_t n_discover;
	bool discover_dropped;                /* more than NVMF_ARGS_DISCOVER_MAX were given */
	bool off;                             /* rd.nonvmf */
	bool fw;                              /* rd.nvmf.discover=fw */
	bool nonbft;                          /* rd.nvmf.nonbft */
};

/* a starts zeroed. */
struct cmdline_owner nvmf_args_cmdline(struct nvmf_args *a);

/* Whether the root is to be looked for over NVMe/TCP: a discovery
 * controller is named and rd.nonvmf is not given. Then the network is
 * needed (dracut: tcp implies rd.neednet=1). */
bool nvmf_args_wanted(const struct nvmf_args *a);

/* One rd.nvmf.discover= value into the discovery controller to connect to
 * (nqn is the discovery NQN, trsvcid 4420 when not given; an IPv6 address
 * may be in brackets). Returns 0, or -EINVAL with what is wrong and the
 * word's form in why. */
int nvmf_args_discover_parse(const char *value, struct nvmf_fabrics_target *t,
			     char *why, size_t why_size);

/* The host's NQN and ID: the command line's, else the files etc_dir/hostnqn
 * and etc_dir/hostid (the image's /etc/nvme, the host's copied by the
 * generator). A host NQN is required: a target that lists its allowed
 * hosts refuses the one the kernel would invent. With no host ID, the
 * UUID of an NQN of the form nqn.2014-08.org.nvmexpress:uuid:UUID, else
 * none (the kernel makes one). Returns 0, or -EINVAL / -ENOENT with which
 * word to give in why. */
int nvmf_args_host(const struct nvmf_args *a, const char *etc_dir,
		   struct nvmf_fabrics_host *host, char *why, size_t why_size);

#endif
