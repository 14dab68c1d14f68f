/* nfsspec: where an NFS root is (root=nfs:, nfsroot=, netroot=, DHCP root-path). */
#ifndef LIFEBOAT_NET_NFSSPEC_H
#define LIFEBOAT_NET_NFSSPEC_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#define NFS_PATH_MAX 256
#define NFS_OPTS_MAX 256

struct nfs_spec {
	int family;                   /* AF_INET, AF_INET6; 0: no server given */
	struct in_addr server;        /* AF_INET (DHCP's server is used when none) */
	struct in6_addr server6;      /* AF_INET6: [ADDR] in the text */
	char path[NFS_PATH_MAX];      /* may hold %s: the client's address */
	char options[NFS_OPTS_MAX];   /* the user's mount options, "" for none */
	bool v4;                      /* nfs4: prefix, or vers=4* in the options */
	/* NFSv4 minor version to ask for; -1: the options name the version.
	 * Parsing sets 2 (the newest), the mount steps down as mount.nfs does. */
	int v4_minor;
};

/* dracut's form, also the DHCP root-path's:
 *   [nfs:|nfs4:][SERVER:]PATH[:OPTIONS]   or   ...PATH[,OPTIONS]
 * and the URL form of DHCPv6's boot file URL (RFC 2224, RFC 5970):
 *   nfs://SERVER/PATH   nfs4://SERVER/PATH
 * SERVER must be an IPv4 address or an IPv6 one in brackets (the init has
 * no resolver). Returns 0, -EINVAL when malformed, -EOPNOTSUPP for a server
 * given by name. */
int nfs_spec_parse(const char *text, struct nfs_spec *out);
/* The kernel's nfsroot=[SERVER:]PATH[,OPTIONS]. */
int nfs_spec_parse_nfsroot(const char *text, struct nfs_spec *out);
/* Whether root= names an NFS root by itself (nfs:, nfs4:, SERVER:/PATH). */
bool nfs_spec_is_nfs_root(const char *root);
/* The server as the kernel's NFS source wants it: 198.51.100.1 or
 * [2001:db8::1] (bracketed when brackets is true). "" when none. */
void nfs_spec_server_text(const struct nfs_spec *spec, bool brackets, char *out, size_t size);

/* The kernel's text mount options for spec, from the server's and client's
 * addresses (client as text, IPv4 or IPv6): vers= (3, or 4.MINOR), addr=,
 * proto=tcp (tcp6 for IPv6), nolock (v3: there is no statd), clientaddr=
 * (v4), then the user's options. A default the user's options name
 * (vers=, nfsvers=, v3, addr=, clientaddr=, proto=, tcp, udp, lock, nolock)
 * is left out: the user's wins, and the line says each once. Writes the path with %s
 * replaced by the client address into path. Returns 0 or -ENAMETOOLONG. */
int nfs_spec_mount_data(const struct nfs_spec *spec, const char *client,
			char *data, size_t data_size, char *path, size_t path_size);

#endif
