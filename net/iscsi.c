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
#include "common/redact.h"
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

/* One iscsistart run for t. Returns 0, -ENOENT (no iscsistart), -EIO (the
 * target refused: another try will not help) or -EAGAIN with *reason. */
static int login_try(const struct net_request *a, uint64_t deadline, const struct iscsi_target *t,
		     const char *initiator, int *status, const char **reason)
{
	const char *params[ISCSI_ARGS_PARAMS_MAX + 1] = { NULL };
	int r;

	for (unsigned int i = 0; i < a->iscsi->n_params && i < ISCSI_ARGS_PARAMS_MAX; i++)
		params[i] = a->iscsi->params[i];
	r = iscsistart_login(t, initiator, params, login_try_ms(deadline), status);

	if (r == 0 || r == -ENOENT || (r == -EIO && !iscsistart_status_transient(*status)))
		return r;
	*reason = r == -ETIMEDOUT ? "no answer in time" : iscsistart_status_text(*status);
	return -EAGAIN;
}

static void login_log(const struct iscsi_target *t, const char *initiator, unsigned int try)
{
	log_info("iSCSI: logging in to %s at %s:%u as %s%s (try %u)", t->name, t->server,
		 t->port, initiator, t->chap.username[0] ? " with CHAP" : "", try);
}

static void login_failed(const struct iscsi_target *t, int r, int status, char *why, size_t n)
{
	if (r == -ENOENT)
		snprintf(why, n, "%s is not in the image; build it with lifeboat build --iscsi",
			 ISCSISTART_PATH);
	else
		snprintf(why, n, "logging in to the iSCSI target %s at %s:%u failed (iscsistart "
			 "exit status %d): %s", t->name, t->server, t->port, status,
			 iscsistart_status_text(status));
}

/* A target that refuses, does not answer, or says it is not available yet
 * may be starting: it is tried again until rd.timeout= (bootlib/patience.h);
 * a refused login (authorization, no such target) is not. */
static int login(const struct net_request *a, uint64_t deadline, const struct iscsi_target *t,
		 const char *initiator, char *why, size_t n)
{
	char what[ISCSI_NAME_MAX + 96];
	const char *reason = "";
	struct patience wait;
	int status = 0, r;

	snprintf(what, sizeof(what), "the iSCSI target %s at %s:%u", t->name, t->server, t->port);
	patience_start(&wait, what, deadline);
	do {
		login_log(t, initiator, wait.tries + 1);
		r = login_try(a, deadline, t, initiator, &status, &reason);
		if (r != -EAGAIN)
			break;
		log_warn("iSCSI: the login to %s at %s:%u failed: %s", t->name, t->server, t->port,
			 reason);
		r = -ETIMEDOUT;   /* what stands when no time is left for another try */
	} while (patience_wait(&wait, reason));
	if (r == -ETIMEDOUT)
		snprintf(why, n, "logging in to the iSCSI target %s at %s:%u did not succeed within "
			 "rd.timeout=%u (%u tries); check that the target runs and is reachable "
			 "(iscsistart's messages above say why)", t->name, t->server, t->port,
			 a->timeout_sec, wait.tries);
	else if (r < 0)
		login_failed(t, r, status, why, n);
	else
		timeline_mark("iscsi", "%s %s:%u", t->name, t->server, t->port);
	return r;
}

/* Once one portal is in, another's try is bounded by LOGIN_ATTEMPT_MIN_MS
 * (iscsistart goes on connecting to a port that refuses until it is
 * killed): the root has a path, a portal that is down costs it little. */
static uint64_t spare_deadline(uint64_t deadline)
{
	uint64_t spare = clock_now_ms() + 4 * LOGIN_ATTEMPT_MIN_MS;

	return deadline && deadline < spare ? deadline : spare;
}

/* The portals' logins (dracut's several netroot=iscsi:...): each round
 * tries every portal not in yet; once one is in, the others have had
 * their try and are each said once, and the root goes on through the
 * paths it has (multipath adds none later). Until one is in, the rounds
 * go on until rd.timeout=. Returns 0 when one is in, else -ETIMEDOUT with
 * the last portal's failure in why. */
static int login_portals(const struct net_request *a, uint64_t deadline,
			 const struct iscsi_target *t, size_t count, const char *initiator,
			 char *why, size_t n)
{
	int r[ISCSI_PORTALS_MAX], status[ISCSI_PORTALS_MAX] = { 0 };
	const char *reason[ISCSI_PORTALS_MAX];
	size_t in = 0, open = count;
	struct patience wait;

	patience_start(&wait, "the iSCSI portals of netroot=", deadline);
	for (size_t i = 0; i < count; i++) {
		r[i] = -EAGAIN;
		reason[i] = "not tried";
	}
	do {
		for (size_t i = 0; i < count; i++) {
			if (r[i] != -EAGAIN)
				continue;
			login_log(&t[i], initiator, wait.tries + 1);
			r[i] = login_try(a, in ? spare_deadline(deadline) : deadline, &t[i], initiator,
					 &status[i], &reason[i]);
			in += r[i] == 0;
			open -= r[i] != -EAGAIN;
			if (r[i] == 0)
				timeline_mark("iscsi", "%s %s:%u", t[i].name, t[i].server, t[i].port);
		}
	} while (!in && open && patience_wait(&wait, "no portal answers"));
	for (size_t i = 0; i < count; i++) {
		if (r[i] == 0)
			continue;
		if (r[i] != -EAGAIN)
			login_failed(&t[i], r[i], status[i], why, n);
		else
			snprintf(why, n, "logging in to the iSCSI target %s at %s:%u did not succeed%s: "
				 "%s; check that the portal runs and is reachable", t[i].name,
				 t[i].server, t[i].port, in ? "" : " within rd.timeout", reason[i]);
		/* Each failed portal once; with none in, the last is the step's why too. */
		if (in)
			log_warn("iSCSI: %s; the root goes on through the %zu other portal%s logged "
				 "in to", why, in, in == 1 ? "" : "s");
		else
			log_warn("iSCSI: %s", why);
	}
	return in ? 0 : -ETIMEDOUT;
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

/* The server of each target, and the kernel's modules. */
static int targets_ready(const struct net_state *st, struct iscsi_target *t, size_t count,
			 char *why, size_t n)
{
	int r = 0;

	for (size_t i = 0; i < count && r == 0; i++)
		r = server_fill(&t[i], st, why, n);
	return r < 0 ? r : modules_load(why, n);
}

/* The login to the target named, or to each portal netroot= names, once
 * the network is up; t (ISCSI_PORTALS_MAX) gets the targets with their
 * CHAP secrets, which the caller wipes whatever happens. */
static int target_login(const struct net_request *a, uint64_t deadline,
			const struct net_state *st, struct iscsi_target *t, char *why, size_t n)
{
	char fw_initiator[ISCSI_NAME_MAX] = "", initiator[ISCSI_NAME_MAX], session[64];
	int count = iscsi_conf_portals(a, t, ISCSI_PORTALS_MAX, why, n), r = count < 0 ? count : 0;

	if (count == 0) {
		count = 1;
		r = target_choose(a, st, t, fw_initiator, sizeof(fw_initiator), why, n);
	}
	if (r == 0)
		r = targets_ready(st, t, (size_t)count, why, n);
	if (r < 0)
		return r;
	iscsi_conf_initiator(a, fw_initiator, ISCSI_INITIATOR_FILE, st->link.mac,
			     initiator, sizeof(initiator));
	if (count > 1)
		return login_portals(a, deadline, t, (size_t)count, initiator, why, n);
	if (!iscsi_lun_session(ISCSI_SESSION_CLASS, t->name, session, sizeof(session)))
		r = login(a, deadline, t, initiator, why, n);
	return r;
}

/* The netroot= words' iscsi:USER:SECRET@ once the logins are done (the
 * kernel keeps the sessions), as PID 1 drops netroot='s. */
static void forget_portal_credentials(const struct net_request *a)
{
	char stripped[CMDLINE_VALUE_MAX];

	for (size_t i = 0; i < a->net->iscsi_roots.len; i++) {
		char *word = a->net->iscsi_roots.items[i];

		if (!redact_path_strip(word, stripped, sizeof(stripped)))
			continue;
		explicit_bzero(word, strlen(word));
		memcpy(word, stripped, strlen(stripped) + 1);
	}
	explicit_bzero(stripped, sizeof(stripped));
}

int iscsi_root_attach(const struct net_request *a, char *root, size_t root_size,
		      char *why, size_t n)
{
	struct net_state st;
	struct iscsi_target t[ISCSI_PORTALS_MAX];
	/* The network, the login and the LUN's disk within rd.timeout=. */
	uint64_t deadline = clock_deadline(clock_now_ms(), a->timeout_sec);
	int r = net_bring_up_state(a->net, deadline, &st, why, n);

	memset(t, 0, sizeof(t));
	if (r == 0)
		r = target_login(a, deadline, &st, t, why, n);
	/* The kernel keeps the session's secrets; PID 1 need not, nor those of
	 * DHCP's root-path. A failed login keeps the command line's for the
	 * retry after the rescue shell. */
	for (size_t i = 0; i < ISCSI_PORTALS_MAX; i++)
		explicit_bzero(&t[i].chap, sizeof(t[i].chap));
	explicit_bzero(st.conf.root_path, sizeof(st.conf.root_path));
	if (r < 0)
		return r;
	iscsi_conf_forget(a->iscsi);
	forget_portal_credentials(a);
	if (a->root.root_is_lun)
		return lun_wait(deadline, t, root, root_size, why, n);
	snprintf(root, root_size, "%s", a->root.root);
	return 0;
}
