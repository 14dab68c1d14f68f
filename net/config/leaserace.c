/* leaserace: every interface asked at once in one poll(), the first good answer taken.
 *
 * Asking one interface after another makes a machine whose first NIC has
 * no server wait out the whole DHCP time on it first; asking all at once
 * makes the lease come as fast as with one NIC. Each kind of client (a
 * row of the table below) owns at most two sockets and one timer; the
 * race knows nothing else of them. The losers are only stopped: an OFFER
 * that was not REQUESTed binds nothing, and the server lets it go. */
#include "net/config/leaserace.h"

#include <errno.h>
#include <poll.h>
#include <string.h>

#include "bootlib/clock.h"
#include "bootlib/evwait.h"
#include "bootlib/log.h"

static int v4_start(struct race_slot *s, const struct lease_race *race)
{
	return dhcp_client_start(&s->c.v4, &s->link, race->hostname);
}

static int v4_fds(const struct race_slot *s, int fds[SLOT_FDS])
{
	fds[0] = s->c.v4.fd;
	return 1;
}

static uint64_t v4_next(const struct race_slot *s)
{
	return s->c.v4.next_ms;
}

static int v4_timer(struct race_slot *s)
{
	return dhcp_client_timer(&s->c.v4);
}

static int v4_input(struct race_slot *s, int which)
{
	(void)which;
	return dhcp_client_input(&s->c.v4);
}

static void v4_result(const struct race_slot *s, struct net_state *out)
{
	out->link = s->link;
	out->conf = s->c.v4.lease;
	out->from_dhcp = true;
}

static void v4_stop(struct race_slot *s)
{
	dhcp_client_stop(&s->c.v4);
}

static int v6_start(struct race_slot *s, const struct lease_race *race)
{
	(void)race;
	return dhcp6_client_start(&s->c.v6, &s->link);
}

static int v6_fds(const struct race_slot *s, int fds[SLOT_FDS])
{
	fds[0] = s->c.v6.nl_fd;
	fds[1] = s->c.v6.udp_fd;
	return s->c.v6.udp_fd >= 0 ? 2 : 1;
}

static uint64_t v6_next(const struct race_slot *s)
{
	return s->c.v6.next_ms;
}

static int v6_timer(struct race_slot *s)
{
	return dhcp6_client_timer(&s->c.v6);
}

static int v6_input(struct race_slot *s, int which)
{
	return dhcp6_client_input(&s->c.v6, which);
}

static void v6_result(const struct race_slot *s, struct net_state *out)
{
	out->link = s->link;
	dhcp6_client_result(&s->c.v6, &out->conf6);
}

static void v6_stop(struct race_slot *s)
{
	dhcp6_client_stop(&s->c.v6);
}

static int ra_start(struct race_slot *s, const struct lease_race *race)
{
	(void)race;
	return slaac_client_start(&s->c.ra, &s->link);
}

static int ra_fds(const struct race_slot *s, int fds[SLOT_FDS])
{
	fds[0] = s->c.ra.nl_fd;
	fds[1] = s->c.ra.icmp_fd;
	return 2;
}

static uint64_t ra_next(const struct race_slot *s)
{
	return s->c.ra.next_ms;
}

static int ra_timer(struct race_slot *s)
{
	return slaac_client_timer(&s->c.ra);
}

static int ra_input(struct race_slot *s, int which)
{
	return slaac_client_input(&s->c.ra, which);
}

static void ra_result(const struct race_slot *s, struct net_state *out)
{
	out->link = s->link;
	slaac_client_result(&s->c.ra, &out->conf6);
}

static void ra_stop(struct race_slot *s)
{
	slaac_client_stop(&s->c.ra);
}

static int st6_start(struct race_slot *s, const struct lease_race *race)
{
	return static6_client_start(&s->c.st6, &s->link, &race->static_addr, race->static_prefix);
}

static int st6_fds(const struct race_slot *s, int fds[SLOT_FDS])
{
	fds[0] = s->c.st6.nl_fd;
	return 1;
}

static uint64_t st6_next(const struct race_slot *s)
{
	(void)s;
	return UINT64_MAX;
}

static int st6_timer(struct race_slot *s)
{
	(void)s;
	return 0;
}

static int st6_input(struct race_slot *s, int which)
{
	(void)which;
	return static6_client_input(&s->c.st6);
}

static void st6_result(const struct race_slot *s, struct net_state *out)
{
	out->link = s->link;
	memset(&out->conf6, 0, sizeof(out->conf6));
	out->conf6.method = "static";
	out->conf6.addr = s->c.st6.addr;
	out->conf6.prefix = s->c.st6.prefix;
}

static void st6_stop(struct race_slot *s)
{
	static6_client_stop(&s->c.st6);
}

static const struct lease_ops kinds[LEASE_KINDS] = {
	[LEASE_DHCP4] = { "DHCP", v4_start, v4_fds, v4_next, v4_timer, v4_input, v4_result, v4_stop },
	[LEASE_DHCP6] = { "DHCPv6", v6_start, v6_fds, v6_next, v6_timer, v6_input, v6_result,
			  v6_stop },
	[LEASE_SLAAC] = { "router advertisements", ra_start, ra_fds, ra_next, ra_timer, ra_input,
			  ra_result, ra_stop },
	[LEASE_STATIC6] = { "ip='s IPv6 address", st6_start, st6_fds, st6_next, st6_timer, st6_input,
			    st6_result, st6_stop },
};

const char *lease_race_kind_name(enum lease_kind kind)
{
	return kinds[kind].name;
}

static const struct lease_ops *ops_of(const struct lease_race *race, const struct race_slot *s)
{
	return &(race->ops ? race->ops : kinds)[s->kind];
}

int lease_race_add(struct lease_race *race, enum lease_kind kind, const struct link_info *link)
{
	struct race_slot *s;

	if (race->n >= RACE_MAX)
		return -ENOSPC;
	s = &race->slot[race->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->link = *link;
	return 0;
}

static void slot_drop(const struct lease_race *race, struct race_slot *s, int err)
{
	log_warn("%s on %s stopped: %s", ops_of(race, s)->name, s->link.name, strerror(-err));
	ops_of(race, s)->stop(s);
	s->running = false;
}

/* The pollfds of the running slots; owner[i] = slot index, which[i] = its fd number. */
static int race_fds(const struct lease_race *race, struct pollfd *pfd, int *owner, int *which)
{
	int n = 0;

	for (int i = 0; i < race->n; i++) {
		int fds[SLOT_FDS];
		int k;

		if (!race->slot[i].running)
			continue;
		k = ops_of(race, &race->slot[i])->fds(&race->slot[i], fds);
		for (int j = 0; j < k; j++) {
			pfd[n] = (struct pollfd){ .fd = fds[j], .events = POLLIN };
			owner[n] = i;
			which[n++] = j;
		}
	}
	return n;
}

/* The backoff's waits grow to 16 s: without this, the last question could
 * go out 16 s before the race ends and a server that comes up meanwhile
 * would never be asked. A slot whose next question falls after the end
 * asks once more this long before it, time for the answer to come. */
#define LAST_CALL_MS 2000

struct race_clock {
	uint64_t deadline;
	uint64_t last_call;        /* 0: the race is too short for one */
};

static struct race_clock race_clock(unsigned int timeout_ms)
{
	uint64_t now = clock_now_ms();

	return (struct race_clock){ now + timeout_ms,
				    timeout_ms > 2 * LAST_CALL_MS ? now + timeout_ms - LAST_CALL_MS : 0 };
}

/* When the slot asks next: its own timer, or the last call. */
static uint64_t slot_next(const struct lease_race *race, const struct race_slot *s,
			  const struct race_clock *rc)
{
	uint64_t t = ops_of(race, s)->next_ms(s);

	if (rc->last_call && !s->last_called && t > rc->deadline)
		return rc->last_call;
	return t;
}

/* The earliest timer of the running slots, bounded by the deadline. */
static uint64_t race_until(const struct lease_race *race, const struct race_clock *rc, int *running)
{
	uint64_t until = rc->deadline;

	*running = 0;
	for (int i = 0; i < race->n; i++)
		if (race->slot[i].running) {
			uint64_t t = slot_next(race, &race->slot[i], rc);

			(*running)++;
			if (t < until)
				until = t;
		}
	return until;
}

static void race_timers(struct lease_race *race, const struct race_clock *rc)
{
	uint64_t now = clock_now_ms();

	for (int i = 0; i < race->n; i++) {
		struct race_slot *s = &race->slot[i];
		int r;

		if (!s->running || slot_next(race, s, rc) > now)
			continue;
		if (rc->last_call && now >= rc->last_call)
			s->last_called = true;
		if ((r = ops_of(race, s)->timer(s)) < 0)
			slot_drop(race, s, r);
	}
}

/* Start the slots not started yet: all at first, then those that join. */
static void race_start(struct lease_race *race)
{
	for (int i = 0; i < race->n; i++) {
		struct race_slot *s = &race->slot[i];
		int r;

		if (s->started)
			continue;
		log_info("%s: asking for an address on %s", ops_of(race, s)->name, s->link.name);
		s->started = s->running = true;
		r = ops_of(race, s)->start(s, race);
		if (r < 0)
			slot_drop(race, s, r);
	}
}

/* The slots' input; the index of a configured slot, else -1. */
static int race_input(struct lease_race *race, const struct pollfd *pfd, int n, const int *owner,
		      const int *which)
{
	for (int i = 0; i < n; i++) {
		struct race_slot *s = &race->slot[owner[i]];
		int r;

		if (!(pfd[i].revents & (POLLIN | POLLERR | POLLHUP)) || !s->running)
			continue;
		r = ops_of(race, s)->input(s, which[i]);
		if (r == 1)
			return owner[i];
		if (r < 0)
			slot_drop(race, s, r);
	}
	return -1;
}

int lease_race_run(struct lease_race *race, unsigned int timeout_ms)
{
	const struct race_clock rc = race_clock(timeout_ms);
	struct pollfd pfd[RACE_MAX * SLOT_FDS + 1];
	int owner[RACE_MAX * SLOT_FDS], which[RACE_MAX * SLOT_FDS];

	race_start(race);
	for (;;) {
		int running, n;
		uint64_t until = race_until(race, &rc, &running);

		/* With a watch, an interface may still join: the deadline ends it. */
		if (!running && !race->join)
			return -ENETDOWN;
		if (clock_now_ms() >= rc.deadline)
			return running ? -ETIMEDOUT : -ENETDOWN;
		n = race_fds(race, pfd, owner, which);
		if (race->join)
			pfd[n] = (struct pollfd){ .fd = race->watch_fd, .events = POLLIN };
		if (evwait_poll(pfd, n + (race->join ? 1 : 0), until) > 0) {
			int won = race_input(race, pfd, n, owner, which);

			if (won >= 0)
				return won;
			if (race->join && pfd[n].revents) {
				race->join(race, race->join_ctx);
				race_start(race);
			}
		}
		race_timers(race, &rc);
	}
}

void lease_race_result(const struct lease_race *race, int winner, struct net_state *out)
{
	ops_of(race, &race->slot[winner])->result(&race->slot[winner], out);
}

void lease_race_stop(struct lease_race *race)
{
	for (int i = 0; i < race->n; i++)
		if (race->slot[i].running) {
			ops_of(race, &race->slot[i])->stop(&race->slot[i]);
			race->slot[i].running = false;
		}
}
