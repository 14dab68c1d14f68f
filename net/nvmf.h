/* nvmf: a root on an NVMe over TCP namespace (dracut's rd.nvmf.* words,
 * docs/network.md): once the network is up, connect to each discovery
 * controller named, read its log page, connect every NVM subsystem it
 * lists over TCP, and leave the discovery controller. The namespaces then
 * appear as block devices (/dev/nvmeXnY, native NVMe multipath's heads)
 * and root= is found among them as on a local disk. No nvme-cli: the
 * kernel's /dev/nvme-fabrics does the work (net/nvmf/fabrics.h). */
#ifndef LIFEBOAT_NET_NVMF_H
#define LIFEBOAT_NET_NVMF_H

#include <stdbool.h>
#include <stddef.h>

#include "net/net_args.h"
#include "net/nvmf_args.h"

/* Whether the root is looked for over NVMe/TCP: the command line names a
 * discovery controller, or the firmware left an NBFT table and the image
 * has nvme_tcp (unless rd.nvmf.nonbft or rd.nonvmf). Decided once. */
bool nvmf_root_wanted(const struct nvmf_args *args);

/* Bring the network up as net says (as the firmware's NBFT says when
 * there is one, net/nvmf_fw.h), load nvme-tcp, connect the table's
 * subsystems and the discovery controllers args name, trying again (1, 2, 4... s apart) while a target does not answer
 * yet, all of it within timeout_sec (rd.timeout=; 0: none). Returns 0 once
 * at least one subsystem is connected, or -errno with the address, what
 * failed and what to do in why. */
int nvmf_root_attach(const struct nvmf_args *args, const struct net_args *net,
		     unsigned int timeout_sec, char *why, size_t why_size);

#endif
