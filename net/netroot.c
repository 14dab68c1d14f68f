/* netroot: root=, netroot=, nfsroot=, ip= and rd.iscsi.* read once into struct net_root. */
#include "net/netroot.h"

#include <string.h>

#include "bootlib/devspec.h"
#include "net/iscsi/rfc4173.h"
#include "net/live/live_url.h"
#include "net/nfs/nfsspec.h"

/* root= names no filesystem: the iSCSI LUN's disk is the root. */
static bool root_is_lun(const char *root)
{
	return !root[0] || rfc4173_is_iscsi(root) || strcmp(root, "iscsi") == 0 ||
	       strcmp(root, "/dev/root") == 0;
}

static bool iscsi_wanted(const char *root, const struct net_args *net,
			 const struct iscsi_args *iscsi)
{
	struct dev_spec spec;

	if (strncmp(net->netroot, "iscsi", 5) == 0 || rfc4173_is_iscsi(root) ||
	    iscsi->target_name[0] || iscsi->firmware)
		return true;
	if (strcmp(net->netroot, "dhcp") != 0)
		return false;
	/* dracut's words for an iSCSI root by DHCP: root=/dev/root is the disk
	 * the network root gives, which only a block root has (an NFS root by
	 * DHCP is root=dhcp, or netroot=dhcp alone). */
	if (strcmp(root, "/dev/root") == 0 || strcmp(root, "iscsi") == 0)
		return true;
	return !root_is_lun(root) && devspec_parse(root, &spec) == 0;
}

static bool nfs_wanted(const char *root, const struct net_args *net)
{
	if (strncmp(net->netroot, "nfs", 3) == 0 || strcmp(net->netroot, "dhcp") == 0 ||
	    strcmp(root, "/dev/nfs") == 0 || strcmp(root, "dhcp") == 0 ||
	    nfs_spec_is_nfs_root(root))
		return true;
	return !root[0] && (net->neednet || strncmp(net->ip, "dhcp", 4) == 0 ||
			    strstr(net->ip, ":dhcp") != NULL);
}

static void spec_set(struct net_root *out, const char *word, const char *spec)
{
	out->from = NET_ROOT_FROM_SPEC;
	out->spec_word = word;
	out->spec = spec;
}

/* The firmware's table first, then the command line's words, then DHCP. */
static void iscsi_from(const char *root, const struct net_args *net,
		       const struct iscsi_args *iscsi, struct net_root *out)
{
	if (iscsi->firmware)
		out->from = NET_ROOT_FROM_FIRMWARE;
	else if (rfc4173_is_iscsi(net->netroot))
		spec_set(out, "netroot=", net->netroot);
	else if (rfc4173_is_iscsi(root))
		spec_set(out, "root=", root);
	else if (iscsi->target_name[0])
		out->from = NET_ROOT_FROM_PARAMS;
	out->root_is_lun = root_is_lun(root);
}

/* netroot=nfs and netroot=nfs4 alone name the protocol, not a location. */
static void nfs_from(const char *root, const struct net_args *net, struct net_root *out)
{
	if (nfs_spec_is_nfs_root(root))
		spec_set(out, "root=", root);
	else if (strncmp(net->netroot, "nfs", 3) == 0 && strcmp(net->netroot, "nfs") != 0 &&
		 strcmp(net->netroot, "nfs4") != 0)
		spec_set(out, "netroot=", net->netroot);
	else if (strcmp(root, "/dev/nfs") == 0 && net->nfsroot[0]) {
		out->from = NET_ROOT_FROM_NFSROOT;
		out->spec_word = "nfsroot=";
		out->spec = net->nfsroot;
	}
	out->nfs4 = strncmp(root, "nfs4", 4) == 0 || strncmp(net->netroot, "nfs4", 4) == 0;
	out->kernel_default = strcmp(root, "/dev/nfs") == 0;
}

void net_root_classify(const char *root, const struct net_args *net,
		       const struct iscsi_args *iscsi, struct net_root *out)
{
	*out = (struct net_root){ .kind = NET_ROOT_NONE, .from = NET_ROOT_FROM_DHCP,
				  .spec = "", .spec_word = "", .root = root,
				  .netroot_dhcp = strcmp(net->netroot, "dhcp") == 0 };
	if (live_url_is_live(root)) {
		out->kind = NET_ROOT_LIVE;
		spec_set(out, "root=", root);
	} else if (iscsi_wanted(root, net, iscsi)) {
		out->kind = NET_ROOT_ISCSI;
		iscsi_from(root, net, iscsi, out);
	} else if (nfs_wanted(root, net)) {
		out->kind = NET_ROOT_NFS;
		nfs_from(root, net, out);
	}
}
