/* netdev_setup: rename, create and pick interfaces as vlan=, bond=, bridge=,
 * ifname= and BOOTIF= say, waiting for their parts on kernel events. */
#include "net/link/netdev_setup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/coldplug.h"
#include "bootlib/evwait.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/timeline.h"
#include "common/featuremods.h"
#include "net/link/link.h"
#include "net/link/linkwatch.h"
#include "net/link/netdev.h"

struct plan {
	struct netdev_spec specs[NETDEV_SETUP_MAX];
	const char *words[NETDEV_SETUP_MAX];
	bool done[NETDEV_SETUP_MAX];       /* renamed or made */
	int n;
	bool want_bootif;
	uint8_t bootif[6];
	char *bootdev;
};

#define MAC_FMT "%02x:%02x:%02x:%02x:%02x:%02x"
#define MAC_ARGS(m) (m)[0], (m)[1], (m)[2], (m)[3], (m)[4], (m)[5]

static int plan_parse(const struct netdev_setup_request *req, struct plan *p, char *why, size_t n)
{
	if (req->words->len > NETDEV_SETUP_MAX) {
		snprintf(why, n, "%zu vlan=/bond=/bridge=/ifname= words are given; lifeboat makes "
			 "at most %d interfaces", req->words->len, NETDEV_SETUP_MAX);
		return -E2BIG;
	}
	for (size_t i = 0; i < req->words->len; i++) {
		int r = netdev_spec_parse(req->words->items[i], &p->specs[p->n], why, n);

		if (r < 0)
			return r;
		p->words[p->n++] = req->words->items[i];
	}
	if (req->bootif[0] && netdev_spec_bootif_parse(req->bootif, p->bootif) < 0) {
		snprintf(why, n, "BOOTIF=%s: expected the booting NIC's address as PXELINUX "
			 "gives it, 01-aa-bb-cc-dd-ee-ff (or rd.bootif=0 to ignore it)", req->bootif);
		return -EINVAL;
	}
	p->want_bootif = req->bootif[0] != '\0';
	return 0;
}

/* The kernel asks for these with request_module(), which nothing answers
 * in the image: they are loaded first. */
static int plan_load_modules(const struct plan *p, char *why, size_t n)
{
	static const char *const mods[] = { [NETDEV_VLAN] = FEATUREMODS_NET_VLAN,
		[NETDEV_BOND] = FEATUREMODS_NET_BOND, [NETDEV_BRIDGE] = FEATUREMODS_NET_BRIDGE };

	for (int i = 0; i < p->n; i++) {
		int r;

		if (p->specs[i].kind == NETDEV_IFNAME)
			continue;
		r = modload_name(mods[p->specs[i].kind]);
		if (r < 0) {
			snprintf(why, n, "%s: loading the %s module failed: %s; make the image with "
				 "lifeboat build --net, which adds it", p->words[i],
				 mods[p->specs[i].kind], strerror(-r));
			return r;
		}
	}
	return 0;
}

/* Whether name is made by a word before index (a VLAN over a bond). */
static bool plan_makes(const struct plan *p, const char *name, int before)
{
	for (int i = 0; i < before; i++)
		if (p->specs[i].kind != NETDEV_IFNAME && strcmp(p->specs[i].name, name) == 0)
			return true;
	return false;
}

static const struct link_info *find_mac(const struct link_info *all, int n, const uint8_t *mac)
{
	for (int i = 0; i < n; i++)
		if (memcmp(all[i].mac, mac, 6) == 0)
			return &all[i];
	return NULL;
}

/* Rename what ifname= names as soon as it is there. */
static void plan_rename(struct plan *p, const struct link_info *all, int n_all)
{
	for (int i = 0; i < p->n; i++) {
		const struct link_info *l = find_mac(all, n_all, p->specs[i].mac);
		int r;

		if (p->specs[i].kind != NETDEV_IFNAME || p->done[i] || !l)
			continue;
		r = strcmp(l->name, p->specs[i].name) == 0 ? 0 : netdev_rename(l->index, p->specs[i].name);
		if (r < 0)
			log_warn("%s: renaming %s failed: %s", p->words[i], l->name, strerror(-r));
		else
			log_info("%s: %s is now %s", p->words[i], l->name, p->specs[i].name);
		p->done[i] = r == 0;
	}
}

/* Everything the words stand on is there: renamed, ports present. */
static bool plan_ready(struct plan *p)
{
	struct link_info all[LINKS_MAX];
	int n_all = link_list(all, LINKS_MAX);
	bool ready = true;

	n_all = n_all < 0 ? 0 : n_all;
	plan_rename(p, all, n_all);
	for (int i = 0; i < p->n; i++) {
		ready = ready && (p->specs[i].kind != NETDEV_IFNAME || p->done[i]);
		for (int j = 0; p->specs[i].kind != NETDEV_IFNAME && j < p->specs[i].n_ports; j++)
			ready = ready && (plan_makes(p, p->specs[i].ports[j], i) ||
					  if_nametoindex(p->specs[i].ports[j]) > 0);
	}
	if (p->want_bootif && !p->bootdev[0] && find_mac(all, n_all, p->bootif))
		snprintf(p->bootdev, IF_NAMESIZE, "%s", find_mac(all, n_all, p->bootif)->name);
	return ready && (!p->want_bootif || p->bootdev[0]);
}

static bool net_event(const struct uevent *ev)
{
	return ev->subsystem && strcmp(ev->subsystem, "net") == 0;
}

/* Sleeps in poll() on the uevent and rtnetlink sockets, opened before the
 * coldplug pass and the first look so nothing after them is missed. */
static int plan_wait(struct plan *p, unsigned int wait_ms)
{
	uint64_t deadline = clock_now_ms() + wait_ms;
	struct pollfd fds[2] = { { .fd = uevent_open(), .events = POLLIN },
				 { .fd = linkwatch_open(), .events = POLLIN } };
	int r = fds[0].fd < 0 ? fds[0].fd : fds[1].fd;

	if (fds[0].fd >= 0 && fds[1].fd >= 0) {
		coldplug_devices();
		while ((r = plan_ready(p) ? 0 : -ETIMEDOUT) < 0 && evwait_poll(fds, 2, deadline) > 0) {
			evwait_uevents(fds[0].fd, net_event);
			linkwatch_drain(fds[1].fd);
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	return r;
}

/* What the wait did not see, for the user. */
static void plan_missing(const struct plan *p, const struct netdev_setup_request *req,
			 char *why, size_t n)
{
	unsigned int sec = (req->wait_ms + 999) / 1000;

	for (int i = 0; i < p->n; i++) {
		const struct netdev_spec *s = &p->specs[i];

		if (s->kind == NETDEV_IFNAME && !p->done[i]) {
			snprintf(why, n, "%s: no interface with the address " MAC_FMT " appeared "
				 "within %u s; check the address, and that the image has the NIC's "
				 "driver (lifeboat build --net)%s", p->words[i], MAC_ARGS(s->mac),
				 sec, req->wait_cut ? ", or raise rd.timeout=" : "");
			return;
		}
		for (int j = 0; s->kind != NETDEV_IFNAME && j < s->n_ports; j++)
			if (!plan_makes(p, s->ports[j], i) && if_nametoindex(s->ports[j]) == 0) {
				snprintf(why, n, "%s: the interface %s does not exist (none appeared "
					 "within %u s); name one that does, or raise %s", p->words[i],
					 s->ports[j], sec, req->wait_cut ? "rd.timeout=" :
					 "rd.net.timeout.iflink=");
				return;
			}
	}
	snprintf(why, n, "BOOTIF: no interface with the address " MAC_FMT " appeared within "
		 "%u s; check that the image has the NIC's driver, or give rd.bootif=0%s",
		 MAC_ARGS(p->bootif), sec, req->wait_cut ? " (or raise rd.timeout=)" : "");
}

static int make_one(const struct netdev_spec *s)
{
	int r = netdev_create(s);
	int master = (int)if_nametoindex(s->name);

	if (r == 0 && master <= 0)
		r = -ENODEV;
	for (int j = 0; r == 0 && j < s->n_ports; j++) {
		int port = (int)if_nametoindex(s->ports[j]);

		/* A VLAN's parent carries its frames: it only has to be up. */
		r = port <= 0 ? -ENODEV : s->kind == NETDEV_VLAN ? link_up(port, 0) :
		    netdev_enslave(port, master);
	}
	return r < 0 ? r : link_up(master, 0);
}

/* The words in their order: a VLAN over a bond comes after the bond. */
static int plan_make(struct plan *p, char *why, size_t n)
{
	for (int i = 0; i < p->n; i++) {
		const struct netdev_spec *s = &p->specs[i];
		int r;

		if (s->kind == NETDEV_IFNAME)
			continue;
		r = make_one(s);
		if (r < 0) {
			snprintf(why, n, "%s: making %s failed: %s; check the word's ports and "
				 "options (docs/network.md)", p->words[i], s->name, strerror(-r));
			return r;
		}
		log_info("%s: %s made", p->words[i], s->name);
		timeline_mark("netdev", "%s", s->name);
	}
	return 0;
}

int netdev_setup_run(const struct netdev_setup_request *req, char bootdev[IF_NAMESIZE],
		     char *why, size_t why_size)
{
	static struct plan p;   /* PID 1 keeps big structures off its stack */
	int r;

	memset(&p, 0, sizeof(p));
	bootdev[0] = '\0';
	p.bootdev = bootdev;
	r = plan_parse(req, &p, why, why_size);
	if (r < 0 || (p.n == 0 && !p.want_bootif))
		return r;
	r = plan_load_modules(&p, why, why_size);
	if (r == 0 && plan_wait(&p, req->wait_ms) < 0) {
		plan_missing(&p, req, why, why_size);
		r = -ENODEV;
	}
	if (r == 0)
		r = plan_make(&p, why, why_size);
	if (r == 0 && bootdev[0])
		log_info("BOOTIF: the firmware booted from %s", bootdev);
	return r;
}
