/* target_nfs: an NFS export as a target, "nfs:SERVER:/EXPORT[:OPTIONS]" or
 * "nfs4:..." (dracut's form, net/nfs/nfsspec.h): bring the network up, mount the
 * export, save the dump into its top directory, unmount. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "common/featuremods.h"
#include "kdump/capture.h"
#include "kdump/savedir.h"
#include "net/nfs/nfsspec.h"

#define NFS_MNT "/run/kdump-nfs"
#define NFS_PORT 2049
/* The kernel's NFS mount waits minutes for a server that does not answer:
 * a plain TCP connect first tells within this time. */
#define PROBE_MS 5000
/* Soft mounts: a server lost in the middle fails the write (and the capture
 * tries the next target) instead of hanging the capture for ever. */
#define DEFAULT_OPTIONS "soft,timeo=100,retrans=3"

/* The address the network came up with, of the server's family (IPv6: a
 * global one, not link-local): NFSv4 names it to the server. */
static int client_address(int family, char *out, size_t size)
{
	struct ifaddrs *list, *a;
	int r = -EADDRNOTAVAIL;

	if (getifaddrs(&list) < 0)
		return -errno;
	for (a = list; a && r < 0; a = a->ifa_next) {
		const void *sa = a->ifa_addr;

		if (!sa || a->ifa_addr->sa_family != family || (a->ifa_flags & IFF_LOOPBACK))
			continue;
		if (family == AF_INET6 &&
		    IN6_IS_ADDR_LINKLOCAL(&((const struct sockaddr_in6 *)sa)->sin6_addr))
			continue;
		if (inet_ntop(family, family == AF_INET6 ?
			      (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr :
			      (const void *)&((const struct sockaddr_in *)sa)->sin_addr, out, size))
			r = 0;
	}
	freeifaddrs(list);
	return r;
}

static int server_probe(const struct nfs_spec *spec)
{
	struct sockaddr_in sa4 = { .sin_family = AF_INET, .sin_port = htons(NFS_PORT),
				   .sin_addr = spec->server };
	struct sockaddr_in6 sa6 = { .sin6_family = AF_INET6, .sin6_port = htons(NFS_PORT),
				    .sin6_addr = spec->server6 };
	bool v6 = spec->family == AF_INET6;
	int fd = socket(spec->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	int r = 0, err = 0;
	socklen_t len = sizeof(err);

	if (fd < 0)
		return -errno;
	if (connect(fd, v6 ? (struct sockaddr *)&sa6 : (struct sockaddr *)&sa4,
		    v6 ? sizeof(sa6) : sizeof(sa4)) < 0) {
		r = errno == EINPROGRESS ? 0 : -errno;
		if (r == 0 && poll(&pfd, 1, PROBE_MS) <= 0)
			r = -ETIMEDOUT;
		else if (r == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err)
			r = -err;
	}
	close(fd);
	return r;
}

/* Mount the export, stepping down NFSv4 minor versions as mount.nfs does. */
static int mount_export(struct nfs_spec *spec, const char *client, char *src, size_t src_size)
{
	char data[600], path[NFS_PATH_MAX + 32], server[INET6_ADDRSTRLEN + 2];

	modload_name("nfs");
	modload_name(spec->v4 ? FEATUREMODS_NFS_V4 : FEATUREMODS_NFS_V3);
	nfs_spec_server_text(spec, true, server, sizeof(server));
	mkdir(NFS_MNT, 0700);
	for (;;) {
		if (nfs_spec_mount_data(spec, client, data, sizeof(data), path, sizeof(path)) < 0)
			return -ENAMETOOLONG;
		if (snprintf(src, src_size, "%s:%s", server, path) >= (int)src_size)
			return -ENAMETOOLONG;
		int r = mount(src, NFS_MNT, "nfs", 0, data) < 0 ? -errno : 0;

		if (r != -EPROTONOSUPPORT || !spec->v4 || spec->v4_minor <= 0)
			return r;
		spec->v4_minor--;
	}
}

int target_nfs_save(struct capture *cap, const struct kdump_target *t)
{
	const char *spec_text = t->where;
	struct nfs_spec spec;
	char client[INET6_ADDRSTRLEN];
	char src[NFS_PATH_MAX + 96];
	int r = nfs_spec_parse(spec_text, &spec);

	if (r < 0 || !spec.family) {
		log_error("kdump: target '%s' is not an NFS export the capture can reach; use "
			  "nfs:SERVER-IP:/EXPORT or nfs4:SERVER-IP:/EXPORT (IPv6: nfs:[ADDR]:/EXPORT)",
			  spec_text);
		return -EINVAL;
	}
	if (!spec.options[0])
		snprintf(spec.options, sizeof(spec.options), "%s", DEFAULT_OPTIONS);
	r = capture_network_up(cap);
	if (r < 0)
		return r;
	if (client_address(spec.family, client, sizeof(client)) < 0) {
		log_error("kdump: the network came up with no %s address to reach %s; give the "
			  "capture kernel an ip= of that family (lifeboat kdump load --append, or "
			  "lifeboat build --cmdline)",
			  spec.family == AF_INET6 ? "IPv6" : "IPv4", spec_text);
		return -EADDRNOTAVAIL;
	}
	r = server_probe(&spec);
	if (r < 0) {
		log_error("kdump: the NFS server of %s does not answer on port %d (%s); check that "
			  "it runs and is reachable", spec_text, NFS_PORT, strerror(-r));
		return r;
	}
	r = mount_export(&spec, client, src, sizeof(src));
	if (r < 0) {
		log_error("kdump: mounting the NFS export %s failed: %s; check that the server "
			  "exports it read-write to this client", src, strerror(-r));
		return r;
	}
	r = savedir_save(cap, NFS_MNT, "", src);
	if (umount(NFS_MNT) < 0 && r == 0)
		log_warn("kdump: unmounting %s failed: %s; the dump was synced before", src, strerror(errno));
	return r;
}
