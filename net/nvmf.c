/* nvmf: the NVMe over TCP root step of the init: network, discovery, connects. */
#include "net/nvmf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/patience.h"
#include "bootlib/timeline.h"
#include "common/featuremods.h"
#include "common/layout.h"
#include "net/config/net_state.h"
#include "net/net.h"
#include "net/nvmf/disclog.h"
#include "net/nvmf/fabrics.h"
#include "net/nvmf/nbft.h"
#include "net/nvmf_fw.h"

/* One try: how many subsystems it connected, and the first thing that
 * failed. */
struct try {
	unsigned int connected;
	int err;
	char reason[1024];
};

/* What a try connects: a discovery controller's subsystems, or the
 * firmware table's not connected yet (done[]). */
struct source {
	void (*once)(const struct source *src, struct try *t);
	const struct nvmf_fabrics_host *h;
	const struct nvmf_fabrics_target *disc;
	const struct nvmf_nbft *fw;
	bool *done;
};

/* nvme-tcp pulls nvme-fabrics and nvme-core; a module built into the
 * kernel is not in the table, but then /dev/nvme-fabrics is there. */
static int modules_load(char *why, size_t n)
{
	static const char *const mods[] = { FEATUREMODS_NVMF };

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		char sys[64];

		snprintf(sys, sizeof(sys), "/sys/module/%s", mods[i]);
		if (modload_name(mods[i]) < 0 && access(sys, F_OK) < 0) {
			snprintf(why, n, "the kernel module %s could not be loaded; build the image "
				 "with --nvmf (lifeboat ls shows its modules)", mods[i]);
			return -ENOENT;
		}
	}
	return 0;
}

static const char *errno_text(int err)
{
	switch (-err) {
	case ECONNREFUSED:
		return "the connection was refused (nothing listens there yet)";
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
		return "no answer (the target or the route is not up yet)";
	case EIO:
		return "the target refused the connection (the kernel's message above says why: "
		       "a host NQN it does not allow, or no such subsystem)";
	case EINVAL:
		return "the kernel refused the connect's options (an address that is neither "
		       "IPv4 nor IPv6? a name is not resolved in the initramfs)";
	case EPROTO:
		return "the kernel's answer was not instance=N,cntlid=M";
	default:
		return strerror(-err);
	}
}

static void try_fail(struct try *t, int err, const char *fmt, const char *addr, const char *port)
{
	if (t->err)
		return;
	t->err = err;
	snprintf(t->reason, sizeof(t->reason), fmt, addr, port, errno_text(err));
}

static int connect_one(const struct nvmf_fabrics_host *h, const struct nvmf_fabrics_target *t,
		       int *instance)
{
	char options[NVMF_FABRICS_OPTIONS_MAX];
	const char *what = "";
	int r = nvmf_fabrics_options(h, t, options, sizeof(options), &what);

	if (r < 0) {
		log_warn("NVMe/TCP: not connecting to %s at %s: its %s is not fit for the kernel's "
			 "option string", t->nqn, t->traddr, what);
		return r;
	}
	return nvmf_fabrics_connect(NVMF_FABRICS_DEV, options, instance);
}

/* Connect every NVM subsystem over TCP the page lists; the discovery
 * word's host address goes with each. */
static void entries_connect(const struct nvmf_fabrics_host *h, const struct nvmf_fabrics_target *disc,
			    const uint8_t *page, size_t len, struct try *t)
{
	struct nvmf_disclog_entry e;
	struct nvmf_fabrics_target sub;
	int instance, r;

	for (uint64_t i = 0; nvmf_disclog_entry(page, len, i, &e) == 0; i++) {
		if (!nvmf_disclog_usable(&e)) {
			log_debug("NVMe/TCP: discovery entry %llu skipped (trtype %u subtype %u adrfam %u)",
				  (unsigned long long)i, e.trtype, e.subtype, e.adrfam);
			continue;
		}
		sub = *disc;
		snprintf(sub.nqn, sizeof(sub.nqn), "%s", e.subnqn);
		snprintf(sub.traddr, sizeof(sub.traddr), "%s", e.traddr);
		snprintf(sub.trsvcid, sizeof(sub.trsvcid), "%s", e.trsvcid);
		r = connect_one(h, &sub, &instance);
		if (r == 0 || r == -EALREADY) {
			t->connected++;
			log_info("NVMe/TCP: %s at %s:%s %s", sub.nqn, sub.traddr, sub.trsvcid,
				 r == 0 ? "connected" : "was connected already");
			if (r == 0)
				timeline_mark("nvmf", "nvme%d %s %s:%s", instance, sub.nqn, sub.traddr,
					      sub.trsvcid);
		} else
			try_fail(t, r, "connecting to the subsystem at %s:%s failed: %s", sub.traddr,
				 sub.trsvcid);
	}
}

/* The discovery controller nvmeN's page, then the controller is left:
 * nothing needs it once its subsystems are connected. */
static void discovery_read(const struct nvmf_fabrics_host *h, const struct nvmf_fabrics_target *disc,
			   int instance, struct try *t)
{
	char dev[32];
	uint8_t *page = NULL;
	size_t len = 0;
	int fd, r;

	snprintf(dev, sizeof(dev), "/dev/nvme%d", instance);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	r = fd < 0 ? -errno : nvmf_disclog_read(fd, &page, &len);
	if (fd >= 0)
		close(fd);
	if (r == 0)
		entries_connect(h, disc, page, len, t);
	else
		try_fail(t, r, "reading the discovery log page at %s:%s failed: %s", disc->traddr,
			 disc->trsvcid);
	free(page);
	r = nvmf_fabrics_delete(NVMF_FABRICS_CLASS, instance);
	if (r < 0)
		log_warn("NVMe/TCP: leaving the discovery controller nvme%d failed: %s", instance,
			 strerror(-r));
}

static void discover_once(const struct source *src, struct try *t)
{
	const struct nvmf_fabrics_host *h = src->h;
	const struct nvmf_fabrics_target *disc = src->disc;
	int instance, r;

	memset(t, 0, sizeof(*t));
	r = connect_one(h, disc, &instance);
	if (r < 0) {
		try_fail(t, r, "connecting to the discovery controller at %s:%s failed: %s",
			 disc->traddr, disc->trsvcid);
		return;
	}
	discovery_read(h, disc, instance, t);
	if (!t->connected && !t->err) {
		t->err = -ENOENT;
		snprintf(t->reason, sizeof(t->reason), "the discovery controller at %s:%s lists no "
			 "NVM subsystem over TCP for host NQN %s (the target's allowed hosts?)",
			 disc->traddr, disc->trsvcid, h->nqn);
	}
}

/* Tries until one connects a subsystem, or the deadline; each distinct
 * failure is said once. */
static int try_patiently(const struct source *src, const char *what, uint64_t deadline,
			 unsigned int timeout_sec, char *why, size_t n)
{
	char said[sizeof(((struct try *)0)->reason)] = "";
	struct patience wait;
	struct try t;
	unsigned int tries = 0;

	patience_start(&wait, what, deadline);
	do {
		src->once(src, &t);
		tries++;
		if (t.connected) {
			/* The root needs one: the others are not waited for. */
			if (t.err)
				log_warn("NVMe/TCP: %s; not tried again", t.reason);
			return 0;
		}
		/* A bad option string will not get better. */
		if (t.err == -EINVAL)
			break;
		if (strcmp(said, t.reason) != 0)
			log_warn("NVMe/TCP: %s; trying again until rd.timeout", t.reason);
		snprintf(said, sizeof(said), "%s", t.reason);
	} while (patience_wait(&wait, t.reason));
	snprintf(why, n, "%s (%u tries within rd.timeout=%u); check that the target runs, is "
		 "reachable and allows host NQN %s", t.reason, tries, timeout_sec, src->h->nqn);
	return t.err < 0 ? t.err : -ETIMEDOUT;
}

static int discover_patiently(const struct nvmf_fabrics_host *h,
			      const struct nvmf_fabrics_target *disc, uint64_t deadline,
			      unsigned int timeout_sec, char *why, size_t n)
{
	const struct source src = { .once = discover_once, .h = h, .disc = disc };
	char what[384];

	snprintf(what, sizeof(what), "the NVMe/TCP discovery controller at %s:%s", disc->traddr,
		 disc->trsvcid);
	log_info("NVMe/TCP: discovering at %s:%s as %s", disc->traddr, disc->trsvcid, h->nqn);
	return try_patiently(&src, what, deadline, timeout_sec, why, n);
}

/* Each discovery controller in turn; the root needs one of them. */
static int discover_all(const struct nvmf_args *a, const struct nvmf_fabrics_host *h,
			uint64_t deadline, unsigned int timeout_sec, char *why, size_t n)
{
	struct nvmf_fabrics_target disc;
	unsigned int good = 0;
	int first = 0;

	for (size_t i = 0; i < a->n_discover; i++) {
		char text[1536];
		int r = nvmf_args_discover_parse(a->discover[i], &disc, text, sizeof(text));

		if (r == 0)
			r = discover_patiently(h, &disc, deadline, timeout_sec, text, sizeof(text));
		if (r == 0) {
			good++;
			continue;
		}
		if (!first) {
			first = r;
			snprintf(why, n, "%s", text);
		} else
			log_warn("NVMe/TCP: %s", text);
	}
	return good ? 0 : first;
}

/* One try at each of the table's subsystems not connected yet. */
static void ssns_once(const struct source *src, struct try *t)
{
	const struct nvmf_nbft *fw = src->fw;
	bool *done = src->done;
	struct nvmf_fabrics_target sub;
	int instance, r;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < fw->n_ssns; i++) {
		const struct nvmf_nbft_ssns *s = &fw->ssns[i];

		if (done[i])
			continue;
		memset(&sub, 0, sizeof(sub));
		snprintf(sub.nqn, sizeof(sub.nqn), "%s", s->nqn);
		snprintf(sub.traddr, sizeof(sub.traddr), "%s", s->traddr);
		snprintf(sub.trsvcid, sizeof(sub.trsvcid), "%s", s->trsvcid);
		r = connect_one(src->h, &sub, &instance);
		if (r == 0 || r == -EALREADY) {
			done[i] = true;
			t->connected++;
			log_info("NVMe/TCP: %s at %s:%s (the firmware's NBFT) %s", s->nqn, s->traddr,
				 s->trsvcid, r == 0 ? "connected" : "was connected already");
			if (r == 0)
				timeline_mark("nvmf", "nvme%d %s %s:%s", instance, s->nqn, s->traddr,
					      s->trsvcid);
		} else
			try_fail(t, r, "connecting to the firmware's subsystem at %s:%s failed: %s",
				 s->traddr, s->trsvcid);
	}
}

/* The table's subsystems over TCP without a security profile (the others
 * are refused, each in one line), until one is connected or the deadline;
 * a try connects every one still missing. */
static int ssns_patiently(const struct nvmf_fabrics_host *h, const struct nvmf_nbft *fw,
			  uint64_t deadline, unsigned int timeout_sec, char *why, size_t n)
{
	bool done[NVMF_NBFT_SSNS_MAX] = { false };
	const struct source src = { .once = ssns_once, .h = h, .fw = fw, .done = done };
	unsigned int usable = 0;

	for (size_t i = 0; i < fw->n_ssns; i++) {
		const struct nvmf_nbft_ssns *s = &fw->ssns[i];

		done[i] = s->trtype != NVMF_NBFT_TRTYPE_TCP || s->secured;
		if (done[i])
			log_warn("NVMe/TCP: the firmware's subsystem %s at %s is not connected: %s",
				 s->nqn, s->traddr, s->secured ? "it needs a security profile "
				 "(TLS or DH-HMAC-CHAP), which lifeboat does not support" :
				 "its transport is not TCP");
		usable += !done[i];
	}
	if (!usable) {
		snprintf(why, n, "the firmware's NBFT names no subsystem over TCP without a security "
			 "profile; give rd.nvmf.discover= instead");
		return -EOPNOTSUPP;
	}
	log_info("NVMe/TCP: connecting the firmware's %u subsystem%s as %s", usable,
		 usable == 1 ? "" : "s", h->nqn);
	return try_patiently(&src, "the firmware's NVMe/TCP subsystems", deadline, timeout_sec,
			     why, n);
}

/* The host's identity: the command line's, else the table's, else the
 * image's /etc/nvme files. */
static int host_pick(const struct nvmf_args *a, const struct nvmf_nbft *fw,
		     struct nvmf_fabrics_host *host, char *why, size_t n)
{
	static struct nvmf_args with_fw;

	if (!fw || (a->hostnqn[0] && a->hostid[0]))
		return nvmf_args_host(a, LAYOUT_NVME_DIR, host, why, n);
	with_fw = *a;
	if (!with_fw.hostnqn[0])
		snprintf(with_fw.hostnqn, sizeof(with_fw.hostnqn), "%s", fw->host_nqn);
	if (!with_fw.hostid[0] && !a->hostnqn[0])
		snprintf(with_fw.hostid, sizeof(with_fw.hostid), "%s", fw->host_id);
	return nvmf_args_host(&with_fw, LAYOUT_NVME_DIR, host, why, n);
}

/* The firmware's table, when it is to be used; false when it is not, or
 * it is unusable (said). */
static bool fw_load(const struct nvmf_args *a, struct nvmf_nbft *fw)
{
	char path[256], why[512];

	if (!nvmf_fw_present(a, NVMF_NBFT_DIR))
		return false;
	if (nvmf_fw_pick(NVMF_NBFT_DIR, fw, path, why, sizeof(why)) < 0)
		return false;
	timeline_mark("nbft", "%s %zu subsystems %zu interfaces", path, fw->n_ssns, fw->n_hfi);
	log_info("NVMe/TCP: the firmware's NBFT %s names %zu subsystem%s and %zu interface%s%s",
		 path, fw->n_ssns, fw->n_ssns == 1 ? "" : "s", fw->n_hfi, fw->n_hfi == 1 ? "" : "s",
		 fw->dropped ? "; some descriptors were malformed and are left out" : "");
	return true;
}

/* With the table, its first subsystem's interface as the network. */
static int network_up(const struct net_args *net, const struct nvmf_nbft *fw, uint64_t deadline,
		      struct net_state *st, char *why, size_t n)
{
	struct net_args fwnet;
	char iface[32];
	int r;

	if (!fw)
		return net_bring_up_state(net, deadline, st, why, n);
	r = nvmf_fw_net(fw, net, &fwnet, iface, sizeof(iface), why, n);
	if (r == 0) {
		if (net->ip[0])
			log_info("NVMe/TCP: the network comes from the firmware's NBFT (%s, ip=%s); "
				 "ip=%s of the command line is not used for it", iface, fwnet.ip, net->ip);
		r = net_bring_up_state(&fwnet, deadline, st, why, n);
	}
	net_args_free(&fwnet);
	return r;
}

/* The table's subsystems, then the command line's discovery controllers
 * (dracut's order); the root needs one of them. */
static int fw_then_words(const struct nvmf_args *a, const struct nvmf_fabrics_host *host,
			 const struct nvmf_nbft *fw, uint64_t deadline, unsigned int timeout_sec,
			 char *why, size_t n)
{
	char text[1536];
	int r = ssns_patiently(host, fw, deadline, timeout_sec, why, n), d;

	if (!a->n_discover)
		return r;
	d = discover_all(a, host, deadline, timeout_sec, text, sizeof(text));
	if (r == 0 && d < 0)
		log_warn("NVMe/TCP: %s", text);
	if (r < 0 && d == 0)
		log_warn("NVMe/TCP: %s", why);
	if (r < 0 && d < 0)
		log_warn("NVMe/TCP: %s", text);
	return r == 0 || d == 0 ? 0 : r;
}

/* An image without --nvmf does not know nvme_tcp: a table then is no
 * reason to fail a root found elsewhere. */
static bool image_can_nvmf(void)
{
	if (modload_name(FEATUREMODS_NVMF) >= 0 || access("/sys/module/" FEATUREMODS_NVMF, F_OK) == 0)
		return true;
	log_info("NVMe/TCP: the firmware left an NBFT table, but this image has no NVMe/TCP "
		 "support (build it with --nvmf); the table is not used");
	return false;
}

bool nvmf_root_wanted(const struct nvmf_args *a)
{
	static int wanted = -1;

	if (wanted < 0)
		wanted = nvmf_args_wanted(a) ||
			 (nvmf_fw_present(a, NVMF_NBFT_DIR) && image_can_nvmf());
	return wanted;
}

int nvmf_root_attach(const struct nvmf_args *a, const struct net_args *net,
		     unsigned int timeout_sec, char *why, size_t n)
{
	uint64_t deadline = clock_deadline(clock_now_ms(), timeout_sec);
	static struct nvmf_nbft table;
	const struct nvmf_nbft *fw = fw_load(a, &table) ? &table : NULL;
	struct nvmf_fabrics_host host;
	struct net_state st;
	int r = host_pick(a, fw, &host, why, n);

	if (r == 0 && a->discover_dropped)
		log_warn("NVMe/TCP: only the first %d rd.nvmf.discover= words are used",
			 NVMF_ARGS_DISCOVER_MAX);
	if (r == 0 && !fw && !a->n_discover) {
		snprintf(why, n, "the firmware's NBFT is not usable (said above) and no "
			 "rd.nvmf.discover= is given");
		r = -ENOENT;
	}
	if (r == 0)
		r = network_up(net, fw, deadline, &st, why, n);
	if (r == 0)
		r = modules_load(why, n);
	if (r < 0)
		return r;
	return fw ? fw_then_words(a, &host, fw, deadline, timeout_sec, why, n)
		  : discover_all(a, &host, deadline, timeout_sec, why, n);
}
