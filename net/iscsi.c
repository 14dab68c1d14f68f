/* iscsi: the iSCSI root step of the init: network, target, login, the LUN's disk. */
#include "net/iscsi.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/evwait.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/patience.h"
#include "bootlib/timeline.h"
#include "common/featuremods.h"
#include "net/config/net_state.h"
#include "net/iscsi/ibft.h"
#include "net/iscsi/iscsi_lun.h"
#include "net/iscsi/iscsistart.h"
#include "net/iscsi_conf.h"
#include "net/net.h"

/* A login that has not finished in this long will not: iscsistart's own
 * connect retries would otherwise hold the boot for minutes. Each try gets
 * its share of rd.timeout within these bounds. */
#define LOGIN_ATTEMPT_MS 20000
#define LOGIN_ATTEMPT_MIN_MS 5000

/* The kernel side: iscsi_tcp pulls libiscsi and scsi_transport_iscsi; it
 * asks the crypto API for crc32c (header digests) by request_module, which
 * nothing answers here, and fails a connection with ENOMEM without it;
 * sd_mod makes the LUN a disk. A module built into the kernel is not in the
 * table. */
static int modules_load(char *why, size_t n)
{
	static const char *const mods[] = { FEATUREMODS_ISCSI };

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		char sys[64];

		snprintf(sys, sizeof(sys), "/sys/module/%s", mods[i]);
		/* crc32c is an alias (crc32c_intel, crc32c_generic): not in /sys/module. */
		if (modload_name(mods[i]) < 0 && access(sys, F_OK) < 0 && i > 0) {
			snprintf(why, n, "the kernel module %s could not be loaded; build the "
				 "image with --iscsi (lifeboat ls shows its modules)", mods[i]);
			return -ENOENT;
		}
	}
	return 0;
}

/* The target from the firmware (rd.iscsi.firmware) or the command line and DHCP. */
static int target_choose(const struct net_request *a, const struct net_state *st,
			 struct iscsi_target *t, char *fw_initiator, size_t fw_size,
			 char *why, size_t n)
{
	int r;

	fw_initiator[0] = '\0';
	if (a->root.from != NET_ROOT_FROM_FIRMWARE)
		return iscsi_conf_target(a, st->conf6.method ? st->conf6.boot_url : st->conf.root_path,
					 t, why, n);
	modload_name(FEATUREMODS_ISCSI_FIRMWARE);
	r = ibft_read(IBFT_SYSFS, t, fw_initiator, fw_size);
	if (r < 0) {
		snprintf(why, n, "rd.iscsi.firmware: %s; check the firmware's iSCSI boot setup, "
			 "or name the target with netroot=iscsi:...", r == -ENOENT ?
			 "the firmware gives no iSCSI boot table (" IBFT_SYSFS ")" : r == -EAFNOSUPPORT ?
			 "its target is IPv6, which is not supported" : "its target has no address or name");
		return r;
	}
	iscsi_conf_chap(a, t);
	t->port = t->port ? t->port : ISCSI_DEFAULT_PORT;
	t->group = 1;
	return 0;
}

/* RFC 4173 leaves the server out when DHCP's next server is meant. */
static int server_fill(struct iscsi_target *t, const struct net_state *st, char *why, size_t n)
{
	struct in_addr a;
	struct in6_addr a6;

	if (!t->server[0]) {
		a = st->conf.siaddr.s_addr ? st->conf.siaddr : st->conf.server_id;
		if (a.s_addr)
			inet_ntop(AF_INET, &a, t->server, sizeof(t->server));
	}
	/* iscsistart takes IPv6 portals as they are, [ADDR] being RFC 4173's quoting. */
	if (inet_pton(AF_INET, t->server, &a) != 1 && inet_pton(AF_INET6, t->server, &a6) != 1) {
		snprintf(why, n, "the iSCSI target %s has %s; give the target's IPv4 address, or "
			 "its IPv6 one in brackets (no name resolver runs in the initramfs)", t->name,
			 t->server[0] ? "a server that is not an IP address" : "no server and DHCP named none");
		return -EINVAL;
	}
	return 0;
}

/* One try's bound: a quarter of what rd.timeout= left, so that a target
 * that keeps iscsistart waiting still leaves time for more tries, within
 * LOGIN_ATTEMPT_MIN_MS..LOGIN_ATTEMPT_MS (a login needs a few seconds). */
static unsigned int login_try_ms(uint64_t deadline)
{
	unsigned int ms = clock_clamp_ms(deadline, clock_now_ms(), LOGIN_ATTEMPT_MS * 4) / 4;

	return ms < LOGIN_ATTEMPT_MIN_MS ? LOGIN_ATTEMPT_MIN_MS : ms;
}

/* A target that refuses, does not answer, or says it is not available yet
 * may be starting: it is tried again until rd.timeout= (bootlib/patience.h);
 * a refused login (authorization, no such target) is not. */
static int login(const struct net_request *a, uint64_t deadline, const struct iscsi_target *t,
		 const char *initiator, char *why, size_t n)
{
	bool chap = t->chap.username[0] != '\0';
	char what[ISCSI_NAME_MAX + 96];
	const char *reason;
	struct patience wait;
	int status = 0, r;

	snprintf(what, sizeof(what), "the iSCSI target %s at %s:%u", t->name, t->server, t->port);
	patience_start(&wait, what, deadline);
	do {
		log_info("iSCSI: logging in to %s at %s:%u as %s%s (try %u)", t->name, t->server,
			 t->port, initiator, chap ? " with CHAP" : "", wait.tries + 1);
		r = iscsistart_login(t, initiator, login_try_ms(deadline), &status);
		if (r == 0 || r == -ENOENT || (r == -EIO && !iscsistart_status_transient(status)))
			break;
		reason = r == -ETIMEDOUT ? "no answer in time" : iscsistart_status_text(status);
		log_warn("iSCSI: the login to %s at %s:%u failed: %s", t->name, t->server, t->port,
			 reason);
		r = -ETIMEDOUT;   /* what stands when no time is left for another try */
	} while (patience_wait(&wait, reason));
	if (r == -ENOENT)
		snprintf(why, n, "%s is not in the image; build it with lifeboat build --iscsi",
			 ISCSISTART_PATH);
	else if (r == -ETIMEDOUT)
		snprintf(why, n, "logging in to the iSCSI target %s at %s:%u did not succeed within "
			 "rd.timeout=%u (%u tries); check that the target runs and is reachable "
			 "(iscsistart's messages above say why)", t->name, t->server, t->port,
			 a->timeout_sec, wait.tries);
	else if (r < 0)
		snprintf(why, n, "logging in to the iSCSI target %s at %s:%u failed (iscsistart "
			 "exit status %d): %s", t->name, t->server, t->port, status,
			 iscsistart_status_text(status));
	else
		timeline_mark("iscsi", "%s %s:%u", t->name, t->server, t->port);
	return r;
}

/* The LUN's disk, when the kernel has made it: "/dev/sdX" in root. */
static bool lun_found(const struct iscsi_target *t, char *root, size_t size)
{
	char session[64], dev[64];

	if (!iscsi_lun_session(ISCSI_SESSION_CLASS, t->name, session, sizeof(session)) ||
	    iscsi_lun_disk(ISCSI_SESSION_CLASS, session, t->lun_given, t->lun,
			   dev, sizeof(dev)) < 0)
		return false;
	snprintf(root, size, "/dev/%s", dev);
	return true;
}

/* A SCSI disk appeared: perhaps the LUN's. */
static bool sd_disk_added(const struct uevent *ev)
{
	return strcmp(ev->action, "add") == 0 && ev->subsystem &&
	       strcmp(ev->subsystem, "block") == 0 && ev->devtype &&
	       strcmp(ev->devtype, "disk") == 0 && ev->devname &&
	       strncmp(ev->devname, "sd", 2) == 0;
}

/* With no filesystem named by root=, the root is the LUN's disk itself;
 * sd_mod attaches it shortly after the login. The uevent socket is opened
 * before the first look, so a disk added after that look is queued. */
static int lun_wait(uint64_t deadline, const struct iscsi_target *t,
		    char *root, size_t size, char *why, size_t n)
{
	struct pollfd pfd = { .fd = uevent_open(), .events = POLLIN };
	bool look = true, found = false;

	if (pfd.fd < 0) {
		snprintf(why, n, "listening for the disk of the iSCSI target %s (kernel uevents) "
			 "failed: %s", t->name, strerror(-pfd.fd));
		return pfd.fd;
	}
	while (!(found = look && lun_found(t, root, size)) && evwait_poll(&pfd, 1, deadline) > 0)
		look = evwait_uevents(pfd.fd, sd_disk_added);
	close(pfd.fd);
	if (found) {
		log_info("iSCSI: the root is the LUN's disk %s", root);
		return 0;
	}
	snprintf(why, n, "the iSCSI target %s gave no disk%s within rd.timeout; check the "
		 "target's LUNs, or name the root filesystem with root=UUID=... or LABEL=...",
		 t->name, t->lun_given ? " at the LUN named" : "");
	return -ETIMEDOUT;
}

/* The login to the target named, once the network is up; t gets the CHAP
 * secrets, which the caller wipes whatever happens. */
static int target_login(const struct net_request *a, uint64_t deadline,
			const struct net_state *st, struct iscsi_target *t, char *why, size_t n)
{
	char fw_initiator[ISCSI_NAME_MAX], initiator[ISCSI_NAME_MAX], session[64];
	int r = target_choose(a, st, t, fw_initiator, sizeof(fw_initiator), why, n);

	if (r == 0)
		r = server_fill(t, st, why, n);
	if (r == 0)
		r = modules_load(why, n);
	if (r < 0)
		return r;
	iscsi_conf_initiator(a, fw_initiator, ISCSI_INITIATOR_FILE, st->link.mac,
			     initiator, sizeof(initiator));
	if (!iscsi_lun_session(ISCSI_SESSION_CLASS, t->name, session, sizeof(session)))
		r = login(a, deadline, t, initiator, why, n);
	return r;
}

int iscsi_root_attach(const struct net_request *a, char *root, size_t root_size,
		      char *why, size_t n)
{
	struct net_state st;
	struct iscsi_target t;
	/* The network, the login and the LUN's disk within rd.timeout=. */
	uint64_t deadline = clock_deadline(clock_now_ms(), a->timeout_sec);
	int r = net_bring_up_state(a->net, deadline, &st, why, n);

	memset(&t, 0, sizeof(t));
	if (r == 0)
		r = target_login(a, deadline, &st, &t, why, n);
	/* The kernel keeps the session's secrets; PID 1 need not, nor those of
	 * DHCP's root-path. A failed login keeps the command line's for the
	 * retry after the rescue shell. */
	explicit_bzero(&t.chap, sizeof(t.chap));
	explicit_bzero(st.conf.root_path, sizeof(st.conf.root_path));
	if (r < 0)
		return r;
	iscsi_conf_forget(a->iscsi);
	if (a->root.root_is_lun)
		return lun_wait(deadline, &t, root, root_size, why, n);
	snprintf(root, root_size, "%s", a->root.root);
	return 0;
}
