/* ifup: wait for interfaces, bring them up, configure one (ip= or DHCP). */
#include "net/config/ifup.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/evwait.h"
#include "bootlib/log.h"
#include "bootlib/timeline.h"
#include "common/redact.h"
#include "net/config/leaserace.h"
#include "net/link/links.h"
#include "net/link/linkwatch.h"

unsigned int ifup_wait_ms(const struct ifup_limits *lim, unsigned int own_ms, bool *cut)
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

static void conf_from_ip(const struct ip_param *ipc, struct dhcp_lease *c)
{
	memset(c, 0, sizeof(*c));
	c->addr = ipc->addr;
	c->netmask = ipc->netmask;
	c->router = ipc->gateway;
	c->mtu = ipc->mtu;
	for (int i = 0; i < IPPARAM_DNS_MAX; i++)
		if (ipc->dns[i].s_addr)
			c->dns[c->n_dns++] = ipc->dns[i];
	snprintf(c->hostname, sizeof(c->hostname), "%s", ipc->hostname);
}

/* Address, MTU and default route on the chosen interface. */
static int link_apply(const struct net_state *st, const struct ip_param *ipc)
{
	const struct dhcp_lease *c = &st->conf;
	int prefix = c->netmask.s_addr ? ip_param_mask_prefix(c->netmask) : 32;
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

/* Which interfaces the race has asked, and how to ask a new one. */
struct race_join {
	struct links *s;
	const char *want;
	unsigned int mtu;
	enum lease_kind kinds[2];
	int n_kinds;
	int tried[LINKS_MAX];
	int n_tried;
};

/* Add the interfaces with a carrier not asked yet, each in every kind. */
static void race_add_ready(struct lease_race *race, struct race_join *j)
{
	for (int i = 0; i < j->s->n_ready && j->n_tried < LINKS_MAX; i++)
		if (!tried_has(j->tried, j->n_tried, j->s->ready[i].index)) {
			j->tried[j->n_tried++] = j->s->ready[i].index;
			for (int k = 0; k < j->n_kinds; k++)
				lease_race_add(race, j->kinds[k], &j->s->ready[i]);
		}
}

/* A link message during the race: an interface whose carrier came (a slow
 * autonegotiation, a cable plugged in) joins the race at once, instead of
 * after the others' whole DHCP time. */
static void race_link_news(struct lease_race *race, void *ctx)
{
	struct race_join *j = ctx;
	int r = linkwatch_drain(race->watch_fd);

	if (r == -ENOBUFS)
		log_warn("rtnetlink: link messages were lost; looking at every interface again");
	if (r < 0 && r != -ENOBUFS) {
		/* A socket that keeps failing would wake the poll for nothing. */
		log_warn("rtnetlink: reading link changes failed (%s); an interface whose "
			 "carrier comes later is asked only after the others", strerror(-r));
		race->join = NULL;
		return;
	}
	if (r == 0)
		return;
	links_scan(j->s, j->want, j->mtu);
	race_add_ready(race, j);
}

/* The race for ms; past lim->say_after_ms the console hears once that it
 * still waits, and until when. */
static int lease_race_run_patiently(struct lease_race *race, unsigned int ms,
				    const struct ifup_limits *lim)
{
	unsigned int left;
	int r;

	if (!lim->say_after_ms || ms <= lim->say_after_ms)
		return lease_race_run(race, ms);
	r = lease_race_run(race, lim->say_after_ms);
	if (r != -ETIMEDOUT)
		return r;
	left = (ms - lim->say_after_ms) / 1000;
	if (lim->deadline)
		log_console("lifeboat: no server has answered on %s%s for %u s; still asking, "
			    "%u s more (rd.timeout=)\n", race->slot[0].link.name,
			    race->n > 1 ? " and the others" : "", lim->say_after_ms / 1000, left);
	else
		log_console("lifeboat: no server has answered on %s%s for %u s; still asking, "
			    "for as long as it takes (rd.timeout=0)\n", race->slot[0].link.name,
			    race->n > 1 ? " and the others" : "", lim->say_after_ms / 1000);
	return lease_race_run(race, ms - lim->say_after_ms);
}

/* One race over the interfaces not asked yet: 1 when there is none, else
 * the race's end (0: out is the winner's; -errno), -ETIMEDOUT with *over
 * set when rd.timeout= left it no time. */
static int lease_round(struct lease_race *race, struct race_join *j, int watch,
		       const struct ip_param *ipc, const struct ifup_limits *lim,
		       struct net_state *out, struct waited *w, bool *over)
{
	unsigned int ms;
	int r;

	memset(race, 0, sizeof(*race));
	race->hostname = ipc->hostname;
	race->watch_fd = watch;
	race->join = watch >= 0 ? race_link_news : NULL;
	race->join_ctx = j;
	race_add_ready(race, j);
	if (!race->n)
		return 1;
	ms = ifup_wait_ms(lim, lim->dhcp_ms, &w->cut);
	*over = ms == 0;
	if (*over) {
		w->cut = true;
		return -ETIMEDOUT;
	}
	w->ms = ms;
	r = lease_race_run_patiently(race, ms, lim);
	if (r >= 0)
		lease_race_result(race, r, out);
	lease_race_stop(race);
	if (r >= 0)
		return 0;
	log_warn("%s: no address on %s%s: %s", lease_race_kind_name(j->kinds[0]), race->slot[0].link.name,
		 race->n > j->n_kinds ? " and the others" : "",
		 r == -ETIMEDOUT ? "no server answered" : strerror(-r));
	return r;
}

/* Ask on every interface with a carrier at once; the first answer wins.
 * The link messages are listened to while it runs (race_link_news); an
 * interface that came anyway when a round had ended is asked in the next,
 * until no interface is left to ask (the last failure stands) or
 * rd.timeout= is over (-ETIMEDOUT). */
static int lease_on_links(struct links *s, const struct ip_param *ipc, const char *want,
			  const struct ifup_limits *lim, struct net_state *out, struct waited *w)
{
	static struct lease_race race;
	static struct race_join j;
	int watch = linkwatch_open();
	int r = -ENODEV;
	bool over = false;

	memset(&j, 0, sizeof(j));
	j.s = s;
	j.want = want;
	j.mtu = ipc->mtu;
	j.n_kinds = method_kinds(ipc->method, j.kinds);
	if (watch < 0)
		log_warn("rtnetlink: listening for link changes failed (%s); an interface whose "
			 "carrier comes later is asked only after the others", strerror(-watch));
	else
		links_scan(s, want, ipc->mtu);   /* what came before the watch opened */
	for (unsigned int attempt = 1;;) {
		int round = lease_round(&race, &j, watch, ipc, lim, out, w, &over);

		if (round == 1) {
			/* Every interface was asked: rd.net.dhcp.retry= asks them all again. */
			if (r == -ENODEV || attempt >= lim->dhcp_tries)
				break;
			log_info("asking every interface again (round %u of %u, rd.net.dhcp.retry=)",
				 ++attempt, lim->dhcp_tries);
			j.n_tried = 0;
			continue;
		}
		r = round;
		if (r == 0 || over)
			break;
		links_scan(s, want, ipc->mtu);
	}
	if (watch >= 0)
		close(watch);
	return r;
}

/* ip=[ADDR]:...: the address on the first interface with a carrier, DAD
 * waited for (by events), then the default route. */
static int static6_configure(const struct links *s, const struct ip_param *ipc,
			     const struct ifup_limits *lim, struct net_state *out, struct waited *w)
{
	static struct lease_race race;
	static const struct in6_addr none;
	int r;

	memset(&race, 0, sizeof(race));
	race.static_addr = ipc->addr6;
	race.static_prefix = ipc->prefix6;
	lease_race_add(&race, LEASE_STATIC6, &s->ready[0]);
	w->ms = ifup_wait_ms(lim, lim->dhcp_ms, &w->cut);
	r = w->ms ? lease_race_run(&race, w->ms) : -ETIMEDOUT;
	if (r >= 0)
		lease_race_result(&race, r, out);
	lease_race_stop(&race);
	if (r < 0)
		return r;
	out->conf6.gateway = ipc->gateway6;
	out->conf6.server = ipc->server6;
	for (int i = 0; i < IPPARAM_DNS_MAX; i++)
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
			 ip_param_mask_prefix(st->conf.netmask), srv, root_path);
	else
		log_info("%s: %s/%d from ip=", st->link.name, a, ip_param_mask_prefix(st->conf.netmask));
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
static int configure6_why(int r, const struct ip_param *ipc, const struct links *s,
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

int ifup_configure(const struct ip_param *ipc, const char *bootdev,
		   const struct ifup_limits *lim, struct net_state *out,
		   char *why, size_t why_size)
{
	const char *want = ipc->dev[0] ? ipc->dev : bootdev;
	struct waited w = { 0, false };
	struct links s;
	int r;

	memset(out, 0, sizeof(*out));
	w.ms = ifup_wait_ms(lim, lim->link_ms, &w.cut);
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
