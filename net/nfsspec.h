/* nfsspec: where an NFS root is (root=nfs:, nfsroot=, netroot=, DHCP root-path). */
#ifndef LIFEBOAT_NET_NFSSPEC_H
#define LIFEBOAT_NET_NFSSPEC_H

#include <netinet/in.h>
#include <stdbool.h>

#define NFS_PATH_MAX 256
#define NFS_OPTS_MAX 256

struct nfs_spec {
	struct in_addr server;        /* 0: not given (DHCP's server is used) */
	char path[NFS_PATH_MAX];      /* may hold %s: the client's address */
	char options[NFS_OPTS_MAX];   /* the user's mount options, "" for none */
	bool v4;                      /* nfs4: prefix, or vers=4* in the options */
	/* NFSv4 minor version to ask for; -1: the options name the version.
	 * Parsing sets 2 (the newest), the mount steps down as mount.nfs does. */
	int v4_minor;
};

/* dracut's form, also the DHCP root-path's:
 *   [nfs:|nfs4:][SERVER:]PATH[:OPTIONS]   or   ...PATH[,OPTIONS]
 * SERVER must be an IPv4 address (the init has no resolver). Returns 0,
 * -EINVAL when malformed, -EOPNOTSUPP for a server given by name or IPv6. */
int nfs_spec_parse(const char *text, struct nfs_spec *out);
/* The kernel's nfsroot=[SERVER:]PATH[,OPTIONS]. */
int nfs_spec_parse_nfsroot(const char *text, struct nfs_spec *out);
/* Whether root= names an NFS root by itself (nfs:, nfs4:, SERVER:/PATH). */
bool nfs_spec_is_nfs_root(const char *root);

/* The kernel's text mount options for spec, from the server's and client's
 * addresses: vers= (3, or 4.MINOR), addr=, proto=tcp, nolock (v3: there is
 * no statd), clientaddr= (v4), then the user's options, which win. Writes the path with
 * %s replaced by the client address into path. Returns 0 or -ENAMETOOLONG. */
int nfs_spec_mount_data(const struct nfs_spec *spec, struct in_addr client,
			char *data, size_t data_size, char *path, size_t path_size);

#endif
