/* netup: wait for interfaces, bring them up, configure one (ip= or DHCP). */
#include "net/netup.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/coldplug.h"
#include "bootlib/evwait.h"
#include "bootlib/log.h"
#include "bootlib/timeline.h"
#include "common/redact.h"
#include "net/leaserace.h"
#include "net/linkwatch.h"

unsigned int netup_wait_ms(const struct netup_limits *lim, unsigned int own_ms, bool *cut)
{
	unsigned int ms = clock_clamp_ms(lim->deadline, clock_now_ms(), own_ms);

	if (cut)
		*cut = ms < own_ms;
	return ms;
}

/* How long a wait that failed was given, and the word that would give it
 * more: its own rd.net.timeout.*, or rd.timeout= when that cut it. */
struct waited {
	unsigned int ms;
	bool cut;
};

static const char *waited_word(const struct waited *w, const char *own)
{
	return w->cut ? "rd.timeout=" : own;
}

static unsigned int waited_sec(const struct waited *w)
{
	return (w->ms + 999) / 1000;
}

/* Once one interface has a carrier, how long the others of the machine get
 * to have theirs too, so DHCP can go through them in bus order. */
#define SETTLE_MS 1000

struct links {
	struct link_info ready[LINKS_MAX];   /* up, with a carrier */
	int n_ready;
	int up_index[LINKS_MAX];             /* interfaces already set up */
	int n_up;
	int n_seen;                         /* matching interfaces present */
};

static bool links_was_up(const struct links *s, int index)
{
	for (int i = 0; i < s->n_up; i++)
		if (s->up_index[i] == index)
			return true;
	return false;
}

/* One look at the interfaces: bring new ones up, note those with carrier. */
static void links_scan(struct links *s, const char *want, unsigned int mtu)
{
	struct link_info all[LINKS_MAX];
	int n = link_list(all, LINKS_MAX);

	s->n_ready = 0;
	s->n_seen = 0;
	for (int i = 0; i < n; i++) {
		if (want[0] && strcmp(all[i].name, want) != 0)
			continue;
		s->n_seen++;
		if (!links_was_up(s, all[i].index) && s->n_up < LINKS_MAX) {
			int r = link_up(all[i].index, mtu);

			if (r < 0)
				log_warn("setting %s up failed: %s", all[i].name, strerror(-r));
			s->up_index[s->n_up++] = all[i].index;
		}
		if (link_has_carrier(all[i].index))
			s->ready[s->n_ready++] = all[i];
	}
}

/* Network controllers on the PCI bus (class 02xxxx), whether or not their
 * interface exists yet: a driver probing in the background makes its
 * interface appear later than the others'. */
static int pci_network_count(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char path[300], cls[16] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/class", de->d_name);
		f = fopen(path, "re");
		if (f && fgets(cls, sizeof(cls), f) && strncmp(cls, "0x02", 4) == 0)
			n++;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Whether the wait is over: every interface there is has its carrier, and
 * every PCI network controller has its interface (with a name asked for,
 * that one). */
static bool links_complete(const struct links *s, int expected)
{
	return s->n_ready > 0 && s->n_ready == s->n_seen && s->n_seen >= expected;
}

/* A uevent that may change the interfaces: one of the net subsystem. */
static bool net_event(const struct uevent *ev)
{
	return ev->subsystem && strcmp(ev->subsystem, "net") == 0;
}

/* Handle what woke the wait: load the drivers of devices that appeared (a
 * virtio NIC appears only once virtio_pci is loaded), read the link
 * messages. True when the interfaces should be looked at again. */
static bool links_events(struct pollfd fds[2])
{
	bool look = evwait_uevents(fds[0].fd, net_event);
	int r = linkwatch_drain(fds[1].fd);

	if (r == -ENOBUFS)
		log_warn("rtnetlink: link messages were lost; looking at every interface again");
	return look || r != 0;
}

/* When the wait ends without news: the deadline, or SETTLE_MS after the
 * first carrier if that is sooner. */
static uint64_t links_until(const struct links *s, uint64_t deadline, uint64_t *settled)
{
	if (s->n_ready > 0 && !*settled)
		*settled = clock_now_ms() + SETTLE_MS;
	return *settled && *settled < deadline ? *settled : deadline;
}

/* The uevent and rtnetlink sockets are opened before the coldplug pass and
 * the first look, so that nothing that happens after either is missed; the
 * wait then sleeps only in poll(). Done early when links_complete(); else
 * the other interfaces get SETTLE_MS after the first carrier. Returns 0
 * (some interface has a carrier), -ETIMEDOUT, or -errno when the kernel's
 * events cannot be listened to. */
static int links_wait(struct links *s, const char *want, unsigned int mtu, unsigned int timeout_ms)
{
	uint64_t deadline = clock_now_ms() + timeout_ms, settled = 0;
	struct pollfd fds[2] = { { .fd = uevent_open(), .events = POLLIN },
				 { .fd = linkwatch_open(), .events = POLLIN } };
	int expected = want[0] ? 1 : pci_network_count();
	int r = fds[0].fd < 0 ? fds[0].fd : fds[1].fd;

	memset(s, 0, sizeof(*s));
	if (fds[0].fd >= 0 && fds[1].fd >= 0) {
		coldplug_devices();
		links_scan(s, want, mtu);
		while (!links_complete(s, expected) &&
		       evwait_poll(fds, 2, links_until(s, deadline, &settled)) > 0)
			if (links_events(fds))
				links_scan(s, want, mtu);
		r = s->n_ready > 0 ? 0 : -ETIMEDOUT;
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	return r;
}

static void conf_from_ip(const struct ip_conf *ipc, struct dhcp_lease *c)
{
	memset(c, 0, sizeof(*c));
	c->addr = ipc->addr;
	c->netmask = ipc->netmask;
	c->router = ipc->gateway;
	c->mtu = ipc->mtu;
	for (int i = 0; i < IPCONF_DNS_MAX; i++)
		if (ipc->dns[i].s_addr)
			c->dns[c->n_dns++] = ipc->dns[i];
	snprintf(c->hostname, sizeof(c->hostname), "%s", ipc->hostname);
}

/* Address, MTU and default route on the chosen interface. */
static int link_apply(const struct net_state *st, const struct ip_conf *ipc)
{
	const struct dhcp_lease *c = &st->conf;
	int prefix = c->netmask.s_addr ? ip_mask_prefix(c->netmask) : 32;
	int r;

	if (prefix < 0)
		prefix = 24;
	/* ip='s MTU wins over the server's. */
	if (c->mtu && !ipc->mtu)
		link_up(st->link.index, c->mtu);
	r = link_add_address(st->link.index, c->addr, prefix);
	if (r < 0)
		return r;
	if (c->router.s_addr) {
		int rr = link_add_default_route(st->link.index, c->router);
		char gw[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &c->router, gw, sizeof(gw));
		if (rr < 0)
			log_warn("%s: adding the default route through %s failed: %s; only the "
				 "local network is reachable", st->link.name, gw, strerror(-rr));
	}
	return 0;
}

static bool tried_has(const int *tried, int n, int index)
{
	for (int i = 0; i < n; i++)
		if (tried[i] == index)
			return true;
	return false;
}

/* How ip='s method asks: either6 both ways on each interface. */
static int method_kinds(enum ip_method m, enum lease_kind kinds[2])
{
	kinds[0] = m == IP_METHOD_DHCP6 ? LEASE_DHCP6 :
		   m == IP_METHOD_AUTO6 || m == IP_METHOD_EITHER6 ? LEASE_SLAAC : LEASE_DHCP4;
	kinds[1] = LEASE_DHCP6;
	return m == IP_METHOD_EITHER6 ? 2 : 1;
}

/* Ask on every interface with a carrier at once; the first answer wins.
 * An interface whose carrier came after the settle time (a busy machine)
 * is found by a new look once the first ones have failed, and asked then. */
static int lease_on_links(struct links *s, const struct ip_conf *ipc, const char *want,
			  const struct netup_limits *lim, struct net_state *out, struct waited *w)
{
	static struct lease_race race;
	enum lease_kind kinds[2];
	int n_kinds = method_kinds(ipc->method, kinds);
	int tried[LINKS_MAX], n_tried = 0;
	int r = -ENODEV;

	for (;;) {
		unsigned int ms;

		memset(&race, 0, sizeof(race));
		race.hostname = ipc->hostname;
		for (int i = 0; i < s->n_ready && n_tried < LINKS_MAX; i++)
			if (!tried_has(tried, n_tried, s->ready[i].index)) {
				tried[n_tried++] = s->ready[i].index;
				for (int k = 0; k < n_kinds; k++)
					lease_race_add(&race, kinds[k], &s->ready[i]);
			}
		if (!race.n)
			return r;
		ms = netup_wait_ms(lim, lim->dhcp_ms, &w->cut);
		if (!ms) {
			/* rd.timeout= is over: the failure of the round before stands. */
			w->cut = true;
			lease_race_stop(&race);
			return -ETIMEDOUT;
		}
		w->ms = ms;
		r = lease_race_run(&race, ms);
		if (r >= 0)
			lease_race_result(&race, r, out);
		lease_race_stop(&race);
		if (r >= 0)
			return 0;
		log_warn("%s: no address on %s%s: %s", lease_kind_name(kinds[0]), race.slot[0].link.name,
			 race.n > n_kinds ? " and the others" : "",
			 r == -ETIMEDOUT ? "no server answered" : strerror(-r));
		links_scan(s, want, ipc->mtu);
	}
}

/* ip=[ADDR]:...: the address on the first interface with a carrier, DAD
 * waited for (by events), then the default route. */
static int static6_configure(const struct links *s, const struct ip_conf *ipc,
			     const struct netup_limits *lim, struct net_state *out, struct waited *w)
{
	static struct lease_race race;
	static const struct in6_addr none;
	int r;

	memset(&race, 0, sizeof(race));
	race.static_addr = ipc->addr6;
	race.static_prefix = ipc->prefix6;
	lease_race_add(&race, LEASE_STATIC6, &s->ready[0]);
	w->ms = netup_wait_ms(lim, lim->dhcp_ms, &w->cut);
	r = w->ms ? lease_race_run(&race, w->ms) : -ETIMEDOUT;
	if (r >= 0)
		lease_race_result(&race, r, out);
	lease_race_stop(&race);
	if (r < 0)
		return r;
	out->conf6.gateway = ipc->gateway6;
	out->conf6.server = ipc->server6;
	for (int i = 0; i < IPCONF_DNS_MAX; i++)
		if (memcmp(&ipc->dns6[i], &none, sizeof(none)) != 0)
			out->conf6.dns[out->conf6.n_dns++] = ipc->dns6[i];
	if (memcmp(&ipc->gateway6, &none, sizeof(none)) != 0 &&
	    (r = link_add_default_route6(out->link.index, &ipc->gateway6)) < 0)
		log_warn("%s: adding the IPv6 default route failed: %s; only the local network "
			 "is reachable", out->link.name, strerror(-r));
	return 0;
}

static void log_conf6(const struct net_state *st)
{
	char a[INET6_ADDRSTRLEN], url[DHCP_STR_MAX];

	redact_path(st->conf6.boot_url, url, sizeof(url));
	inet_ntop(AF_INET6, &st->conf6.addr, a, sizeof(a));
	log_info("%s: %s/%d by %s%s%s", st->link.name, a, st->conf6.prefix, st->conf6.method,
		 url[0] ? ", boot file URL " : "", url);
	timeline_mark("lease", "%s %s %s", st->link.name, a, st->conf6.method);
}

static void log_conf(const struct net_state *st)
{
	char a[INET_ADDRSTRLEN], srv[INET_ADDRSTRLEN], root_path[DHCP_STR_MAX];

	/* An iSCSI root-path may hold USER:PASSWORD@. */
	redact_path(st->conf.root_path, root_path, sizeof(root_path));
	inet_ntop(AF_INET, &st->conf.addr, a, sizeof(a));
	inet_ntop(AF_INET, &st->conf.server_id, srv, sizeof(srv));
	if (st->from_dhcp)
		log_info("%s: %s/%d from DHCP server %s, root-path '%s'", st->link.name, a,
			 ip_mask_prefix(st->conf.netmask), srv, root_path);
	else
		log_info("%s: %s/%d from ip=", st->link.name, a, ip_mask_prefix(st->conf.netmask));
	timeline_mark("lease", "%s %s %s", st->link.name, a, st->from_dhcp ? "dhcp" : "static");
}

/* Why no interface could be used, for the user. */
static void links_why(int r, const struct links *s, const char *want, const struct waited *w,
		      char *why, size_t why_size)
{
	if (r != -ETIMEDOUT)
		snprintf(why, why_size, "listening for network interfaces (kernel uevents and "
			 "rtnetlink) failed: %s", strerror(-r));
	else if (s->n_seen)
		snprintf(why, why_size, "no carrier on %s within %u s; check the cable or "
			 "the virtual network, or raise %s", want[0] ? want : "any interface",
			 waited_sec(w), waited_word(w, "rd.net.timeout.carrier="));
	else
		snprintf(why, why_size, "no network interface%s%s appeared within %u s; "
			 "check that the image has the NIC's driver (lifeboat build --net) "
			 "and the interface name%s", want[0] ? " named " : "", want, waited_sec(w),
			 w->cut ? ", or raise rd.timeout=" : "");
}

/* The end of an IPv6 configuration: the log, or what failed for the user. */
static int configure6_why(int r, const struct ip_conf *ipc, const struct links *s,
			  const struct waited *w, const struct net_state *out,
			  char *why, size_t why_size)
{
	static const char *const what[] = {
		[IP_METHOD_DHCP6] = "no DHCPv6 server answered",
		[IP_METHOD_AUTO6] = "no router advertised a prefix to make an address from",
		[IP_METHOD_EITHER6] = "neither a router advertisement nor a DHCPv6 server "
				      "gave an address",
	};

	if (r == -EADDRINUSE || (r < 0 && ipc->method == IP_METHOD_STATIC6)) {
		snprintf(why, why_size, "the IPv6 address of ip=%s could not be used on %s: %s; "
			 "another machine on the link may have it", ipc->method == IP_METHOD_STATIC6 ?
			 "[ADDR]" : "dhcp6", s->ready[0].name, r == -EADDRINUSE ?
			 "duplicate address detection failed" : strerror(-r));
		return r;
	}
	if (r < 0) {
		snprintf(why, why_size, "%s on %s%s within %u s; check the router's "
			 "advertisements and the DHCPv6 server (dhcp6 takes its routes from the "
			 "advertisements), raise %s, or give a static "
			 "ip=[ADDR]::[GW]:PREFIX::IFACE:none", what[ipc->method],
			 s->ready[0].name, s->n_ready > 1 ? " and the others" : "",
			 waited_sec(w), waited_word(w, "rd.net.timeout.dhcp="));
		return r;
	}
	log_conf6(out);
	return 0;
}

int netup_configure(const struct ip_conf *ipc, const char *bootdev,
		    const struct netup_limits *lim, struct net_state *out,
		    char *why, size_t why_size)
{
	const char *want = ipc->dev[0] ? ipc->dev : bootdev;
	struct waited w = { 0, false };
	struct links s;
	int r;

	memset(out, 0, sizeof(*out));
	w.ms = netup_wait_ms(lim, lim->link_ms, &w.cut);
	r = links_wait(&s, want, ipc->mtu, w.ms);
	if (r < 0) {
		links_why(r, &s, want, &w, why, why_size);
		return r;
	}
	timeline_mark("carrier", "%s%s", s.ready[0].name, s.n_ready > 1 ? " and others" : "");
	if (ipc->method == IP_METHOD_STATIC6)
		return configure6_why(static6_configure(&s, ipc, lim, out, &w), ipc, &s, &w,
				      out, why, why_size);
	if (IP_METHOD_IS_V6(ipc->method))
		return configure6_why(lease_on_links(&s, ipc, want, lim, out, &w), ipc, &s, &w,
				      out, why, why_size);
	if (ipc->method == IP_METHOD_STATIC) {
		out->link = s.ready[0];
		conf_from_ip(ipc, &out->conf);
	} else {
		r = lease_on_links(&s, ipc, want, lim, out, &w);
		if (r < 0) {
			snprintf(why, why_size, "no DHCP server answered on %s%s within %u s; "
				 "check the DHCP server, raise %s, or give a static "
				 "ip=ADDR::GW:MASK::IFACE:none", s.ready[0].name,
				 s.n_ready > 1 ? " and the others" : "", waited_sec(&w),
				 waited_word(&w, "rd.net.timeout.dhcp="));
			return r;
		}
	}
	r = link_apply(out, ipc);
	if (r < 0) {
		snprintf(why, why_size, "configuring the address on %s failed: %s", out->link.name,
			 strerror(-r));
		return r;
	}
	log_conf(out);
	return 0;
}
