/* nvmf_fw: an NVMe over TCP root from the firmware's NBFT table
 * (net/nvmf/nbft.h; dracut reads it too, rd.nvmf.nonbft turns it off):
 * the interface of the first subsystem's HFI is configured by the network
 * code from words made of the table (as dracut writes ifname=, vlan= and
 * ip= for it), and each subsystem is connected directly. */
#ifndef LIFEBOAT_NET_NVMF_FW_H
#define LIFEBOAT_NET_NVMF_FW_H

#include <stdbool.h>
#include <stddef.h>

#include "net/net_args.h"
#include "net/nvmf/nbft.h"
#include "net/nvmf_args.h"

/* The table dir holds at least one NBFT, and the words allow it. */
bool nvmf_fw_present(const struct nvmf_args *a, const char *dir);

/* The first table of dir with a subsystem into *t (its path in path, 256
 * bytes). Returns 0, or -ENOENT with why (each table's fault said). */
int nvmf_fw_pick(const char *dir, struct nvmf_nbft *t, char *path, char *why, size_t why_size);

/* The network words for the HFI of the table's first subsystem, into out
 * (net_args_init'ed here; the rd.net.timeout.* words kept from cmdline):
 * ifname=nbftN:MAC, vlan=nbftN.V:nbftN with a VLAN, and ip= with the
 * static address, prefix and gateway, or DHCP (DHCPv6 for an IPv6 HFI).
 * *iface gets the interface's name. Returns 0, or -EINVAL with why (no
 * such HFI, not TCP). */
int nvmf_fw_net(const struct nvmf_nbft *t, const struct net_args *cmdline, struct net_args *out,
		char *iface, size_t iface_size, char *why, size_t why_size);

#endif
