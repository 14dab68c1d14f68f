/* net: the network root step of the init: configure, find the NFS root, mount it. */
#include "net/net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/patience.h"
#include "bootlib/sysroot.h"
#include "bootlib/timeline.h"
#include "common/featuremods.h"
#include "net/config/ifstate.h"
#include "net/config/ifup.h"
#include "net/config/ipparam.h"
#include "net/iscsi/rfc4173.h"
#include "net/link/link.h"
#include "net/link/netdev_setup.h"
#include "net/nfs/nfsspec.h"

/* Defaults when rd.net.timeout.* are not given: long enough for a slow
 * switch port or DHCP server, short enough that a missing one ends in a
 * message the user can act on. */
#define LINK_TIMEOUT_SEC 20
#define DHCP_TIMEOUT_SEC 30
#define KERNEL_NFSROOT_DEFAULT "/tftpboot/%s"

/* A location without a server: ip='s server, then (IPv4) DHCP's next
 * server, then the DHCP server itself; spec->family stays 0 without one. */
static void server_default(const struct ip_param *ipc, const struct net_state *st,
			   struct nfs_spec *spec)
{
	static const struct in6_addr none6;

	if (spec->family)
		return;
	if (st->conf6.method && memcmp(&ipc->server6, &none6, sizeof(none6)) != 0) {
		spec->family = AF_INET6;
		spec->server6 = ipc->server6;
		return;
	}
	spec->server = ipc->server.s_addr ? ipc->server :
		       st->conf.siaddr.s_addr ? st->conf.siaddr : st->conf.server_id;
	if (spec->server.s_addr)
		spec->family = AF_INET;
}

/* DHCP names an iSCSI target, but the command line asks for an NFS root:
 * the words that would make it an iSCSI one, only those not given yet.
 * The root path is not repeated: it may hold a CHAP secret. */
static void iscsi_from_nfs_why(const struct net_root *root, const struct net_state *st,
			       char *why, size_t n)
{
	char root_word[CMDLINE_VALUE_MAX + 32] = "";

	if (root->root[0])
		snprintf(root_word, sizeof(root_word), " instead of root=%s", root->root);
	snprintf(why, n, "DHCP's root-path on %s names an iSCSI target, but the command line "
		 "asks for an NFS root; %s root=/dev/root (the LUN's disk) or a root= naming "
		 "the filesystem on the LUN (root=LABEL=...)%s (docs/iscsi.md)", st->link.name,
		 root->netroot_dhcp ? "give" : "add netroot=dhcp and give", root_word);
}

/* The root's location, once the network says what DHCP gave. Without a
 * server named, the one ip= names, then DHCP's next server, then the
 * DHCP server itself are used, as the kernel and dracut do. */
static int spec_resolve(const struct net_root *root, const struct ip_param *ipc,
			const struct net_state *st, struct nfs_spec *spec, char *why, size_t n)
{
	const char *dhcp_root = st->conf6.method ? st->conf6.boot_url : st->conf.root_path;
	const char *text = root->spec;
	int r;

	if (root->from == NET_ROOT_FROM_DHCP)
		text = !dhcp_root[0] && root->kernel_default ? KERNEL_NFSROOT_DEFAULT : dhcp_root;
	if (!text[0]) {
		snprintf(why, n, "the DHCP server on %s gave no %s and the command line names no "
			 "NFS root; give root=nfs:SERVER:/PATH or set it on the DHCP server",
			 st->link.name, st->conf6.method ? "boot file URL (DHCPv6 option 59)" :
			 "root-path (option 17)");
		return -ENOENT;
	}
	if (root->from == NET_ROOT_FROM_DHCP && rfc4173_is_iscsi(text)) {
		iscsi_from_nfs_why(root, st, why, n);
		return -EMEDIUMTYPE;
	}
	r = root->from == NET_ROOT_FROM_NFSROOT ? nfs_spec_parse_nfsroot(text, spec) :
		nfs_spec_parse(text, spec);
	if (r < 0) {
		snprintf(why, n, "the NFS root '%s' is %s; write it as [nfs:|nfs4:]SERVER:/PATH"
			 "[:OPTIONS] with SERVER an IPv4 address or an IPv6 one in brackets", text,
			 r == -EOPNOTSUPP ? "not an IP address and path" : "malformed");
		return r;
	}
	if (root->nfs4)
		spec->v4 = true;
	server_default(ipc, st, spec);
	if (!spec->family) {
		snprintf(why, n, "the NFS root '%s' names no server and none is known from ip= "
			 "or DHCP; give root=nfs:SERVER:/PATH", text);
		return -EINVAL;
	}
	return 0;
}

/* Errors worth waiting out: the server may be starting (not listening
 * yet, its programs not registered with rpcbind yet: the kernel says the
 * version or the operation is not supported), or the path to it may come.
 * The others cannot change by waiting (EACCES: not exported to this
 * client; ENOENT: no such export; EINVAL: options) and fail at once. */
static bool mount_error_transient(int err)
{
	static const int transient[] = { ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH,
					 EHOSTDOWN, ENETDOWN, EAGAIN, ECONNRESET, EIO,
					 EPROTONOSUPPORT, EOPNOTSUPP };

	for (size_t i = 0; i < sizeof(transient) / sizeof(transient[0]); i++)
		if (err == transient[i])
			return true;
	return false;
}

/* The kernel's NFS client takes text options, so no mount.nfs is needed;
 * it asks for nfsv3/nfsv4 by request_module, which has no modprobe to run
 * here, so they are loaded first. */
static int nfs_mount(const struct net_request *a, uint64_t deadline, const struct net_state *st,
		     struct nfs_spec *spec, char *why, size_t n)
{
	static const char *const mods[] = { FEATUREMODS_NFS };
	char data[CMDLINE_VALUE_MAX * 2], path[NFS_PATH_MAX + 32], src[NFS_PATH_MAX + 64];
	char server[INET6_ADDRSTRLEN + 2], me[INET6_ADDRSTRLEN], what[INET6_ADDRSTRLEN + 32];
	unsigned long flags = a->read_write ? 0 : MS_RDONLY;
	struct patience wait;
	int r;

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		modload_name(mods[i]);
	modload_name(spec->v4 ? FEATUREMODS_NFS_V4 : FEATUREMODS_NFS_V3);
	nfs_spec_server_text(spec, true, server, sizeof(server));
	if (st->conf6.method)
		inet_ntop(AF_INET6, &st->conf6.addr, me, sizeof(me));
	else
		inet_ntop(AF_INET, &st->conf.addr, me, sizeof(me));
	if (nfs_spec_mount_data(spec, me, data, sizeof(data), path, sizeof(path)) < 0 ||
	    snprintf(src, sizeof(src), "%s:%s", server, path) >= (int)sizeof(src)) {
		snprintf(why, n, "the NFS root's path or options are too long");
		return -ENAMETOOLONG;
	}
	log_info("mounting %s (%s) on %s", src, data, SYSROOT);
	snprintf(what, sizeof(what), "the NFS server %s", server);
	patience_start(&wait, what, deadline);
	while ((r = mount(src, SYSROOT, "nfs", flags, data) < 0 ? -errno : 0) < 0) {
		if (r == -EPROTONOSUPPORT && spec->v4 && spec->v4_minor > 0) {
			/* An older server: the next lower NFSv4 minor version. */
			spec->v4_minor--;
			nfs_spec_mount_data(spec, me, data, sizeof(data), path, sizeof(path));
			log_info("the server has no NFSv4.%d; trying %s", spec->v4_minor + 1, data);
			continue;
		}
		if (!mount_error_transient(-r))
			break;
		log_warn("mounting %s failed: %s; trying again", src, strerror(-r));
		if (!patience_wait(&wait, strerror(-r)))
			break;
	}
	if (r < 0 && mount_error_transient(-r))
		snprintf(why, n, "mounting the NFS root %s failed: %s, still after rd.timeout; "
			 "check that the NFS server runs and is reachable from %s",
			 src, strerror(-r), st->link.name);
	else if (r < 0)
		snprintf(why, n, "mounting the NFS root %s failed: %s; check that the server "
			 "exports %s to this client, and the options '%s'", src, strerror(-r),
			 path, data);
	else
		timeline_mark("mounted", "%s nfs%s", src, spec->v4 ? "4" : "");
	return r;
}

/* vlan=, bond=, bridge=, ifname= and BOOTIF= before ip=: the interface
 * to use is then bootdev=, else BOOTIF's; ip= naming one wins over both,
 * and BOOTIF's NIC is then not waited for. */
static int net_interfaces(const struct net_args *a, const struct ifup_limits *lim,
			  const struct ip_param *ipc, char bootif_dev[IF_NAMESIZE],
			  const char **bootdev, char *why, size_t n)
{
	bool bootif_used = !a->bootif_ignored && !ipc->dev[0] && !a->bootdev[0];
	struct netdev_setup_request req = {
		.words = &a->netdevs,
		.bootif = bootif_used ? a->bootif : "",
	};
	int r;

	req.wait_ms = ifup_wait_ms(lim, (a->timeout_iflink ? a->timeout_iflink :
					  LINK_TIMEOUT_SEC) * 1000, &req.wait_cut);
	r = netdev_setup_run(&req, bootif_dev, why, n);

	*bootdev = a->bootdev[0] ? a->bootdev : bootif_dev;
	return r;
}

/* The waits' bounds. A network root's step keeps asking for a lease until
 * rd.timeout= ends it (for good with rd.timeout=0, as the kernel's own
 * ip=dhcp does): when power comes back to a rack, the DHCP server may boot
 * after its clients. rd.net.timeout.dhcp= given bounds one round instead,
 * and rd.net.dhcp.retry= the rounds. Elsewhere (rd.neednet, Tang, kdump's
 * targets) a lease that does not come must not hold the boot: 30 s. */
static struct ifup_limits net_limits(const struct net_args *a, uint64_t deadline, bool root_step)
{
	struct ifup_limits lim = {
		.link_ms = (a->timeout_carrier ? a->timeout_carrier : LINK_TIMEOUT_SEC) * 1000,
		.dhcp_ms = (a->timeout_dhcp ? a->timeout_dhcp : DHCP_TIMEOUT_SEC) * 1000,
		.dhcp_tries = a->dhcp_retry,
		.deadline = deadline,
	};

	if (root_step && !a->timeout_dhcp) {
		lim.dhcp_ms = UINT_MAX;
		lim.say_after_ms = DHCP_TIMEOUT_SEC * 1000;
	}
	return lim;
}

/* Every wait is bounded by its rd.net.timeout.* word and by deadline
 * (0: none), the end of rd.timeout= for a network root (root_step). */
static int net_configure(const struct net_args *a, uint64_t deadline, bool root_step,
			 struct ip_param *ipc, struct net_state *st, char *why, size_t n)
{
	char bootif_dev[IF_NAMESIZE];
	const char *bootdev = "";
	struct ifup_limits lim = net_limits(a, deadline, root_step);
	int r = a->ip[0] ? ip_param_parse(a->ip, ipc) : 0;

	if (!a->ip[0]) {
		memset(ipc, 0, sizeof(*ipc));
		ipc->method = IP_METHOD_DHCP;
	}
	if (r < 0) {
		snprintf(why, n, "ip=%s is %s; see docs/network.md for its forms", a->ip,
			 r == -EOPNOTSUPP ? "not supported (link6, ibft and single-dhcp are not)" :
			 "malformed");
		return r;
	}
	if (ipc->method == IP_METHOD_OFF) {
		snprintf(why, n, "ip=%s turns the network off but the root is on it; give "
			 "ip=dhcp or a static address", a->ip);
		return -EINVAL;
	}
	r = link_loopback_up();
	if (r < 0)
		log_warn("setting lo up failed: %s; a server whose address does not answer "
			 "ARP is then waited for until its deadline", strerror(-r));
	r = net_interfaces(a, &lim, ipc, bootif_dev, &bootdev, why, n);
	if (r == 0)
		r = ifup_configure(ipc, bootdev, &lim, st, why, n);
	if (r == 0) {
		int w = st->conf6.method ?
			ifstate_write6(IFSTATE_DIR, RESOLV_CONF, &st->link, &st->conf6) :
			ifstate_write(IFSTATE_DIR, RESOLV_CONF, &st->link,
				      st->from_dhcp ? "dhcp" : "static", &st->conf);

		if (w < 0)
			log_warn("writing %s/net.%s.conf failed: %s; the real root will have to "
				 "configure %s itself", IFSTATE_DIR, st->link.name, strerror(-w),
				 st->link.name);
	}
	return r;
}

int net_bring_up(const struct net_args *args, char *why, size_t why_size)
{
	struct ip_param ipc;
	struct net_state st;

	return net_configure(args, 0, false, &ipc, &st, why, why_size);
}

int net_bring_up_state(const struct net_args *args, uint64_t deadline, struct net_state *st,
		       char *why, size_t why_size)
{
	struct ip_param ipc;

	return net_configure(args, deadline, true, &ipc, st, why, why_size);
}

int net_root_mount(const struct net_request *args, char *why, size_t why_size)
{
	struct ip_param ipc;
	struct net_state st;
	struct nfs_spec spec;
	/* The whole step, network and mount, within rd.timeout=. */
	uint64_t deadline = clock_deadline(clock_now_ms(), args->timeout_sec);
	int r = net_configure(args->net, deadline, true, &ipc, &st, why, why_size);

	if (r == 0)
		r = spec_resolve(&args->root, &ipc, &st, &spec, why, why_size);
	if (r == 0)
		r = nfs_mount(args, deadline, &st, &spec, why, why_size);
	return r;
}
