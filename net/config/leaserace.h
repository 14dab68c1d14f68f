/* leaserace: ask for an address on several interfaces at once; the first answer wins. */
#ifndef LIFEBOAT_NET_LEASERACE_H
#define LIFEBOAT_NET_LEASERACE_H

#include "net/config/net_state.h"
#include "net/dhcp4/dhcp.h"
#include "net/ip6/dhcp6.h"
#include "net/ip6/slaac.h"
#include "net/ip6/static6.h"
#include "net/link/link.h"

/* How an interface is asked. */
enum lease_kind {
	LEASE_DHCP4,      /* DHCPv4 */
	LEASE_DHCP6,      /* DHCPv6 (ip=dhcp6) */
	LEASE_SLAAC,      /* router advertisements (ip=auto6) */
	LEASE_STATIC6,    /* ip=[ADDR]:...: the address, then its DAD */
	LEASE_KINDS
};

/* ip=either6 asks two ways on each interface. */
#define RACE_MAX (2 * LINKS_MAX)

struct race_slot {
	enum lease_kind kind;
	struct link_info link;
	bool running;
	bool started;
	bool last_called;          /* asked once more just before the race's end */
	union {
		struct dhcp_client v4;
		struct dhcp6_client v6;
		struct slaac_client ra;
		struct static6_client st6;
	} c;
};

#define SLOT_FDS 2

struct lease_race;

/* What the race asks of one kind of client: a row of net/config/leaserace.c's
 * table. The unit tests and the fuzz target give a table of their own. */
struct lease_ops {
	const char *name;
	int (*start)(struct race_slot *s, const struct lease_race *race);
	int (*fds)(const struct race_slot *s, int fds[SLOT_FDS]);
	uint64_t (*next_ms)(const struct race_slot *s);
	int (*timer)(struct race_slot *s);
	/* 1: configured, 0: go on, -errno: this slot is dropped. */
	int (*input)(struct race_slot *s, int which);
	void (*result)(const struct race_slot *s, struct net_state *out);
	void (*stop)(struct race_slot *s);
};

struct lease_race {
	struct race_slot slot[RACE_MAX];
	int n;
	const char *hostname;        /* ip='s, sent by DHCP; may be "" */
	struct in6_addr static_addr; /* LEASE_STATIC6's address and prefix length */
	int static_prefix;
	/* An interface whose carrier comes while the race runs joins it: with
	 * join set, the race polls watch_fd too and, when it is readable,
	 * calls join, which adds slots (lease_race_add); they start at once. */
	int watch_fd;
	void (*join)(struct lease_race *race, void *ctx);
	void *join_ctx;
	const struct lease_ops *ops; /* indexed by kind; NULL: net/'s clients */
};

/* Add one interface to ask, by kind; -ENOSPC when the race is full. */
int lease_race_add(struct lease_race *race, enum lease_kind kind, const struct link_info *link);
/* Start every slot and poll them all (and watch_fd, with join), until one
 * is configured (returns its index) or timeout_ms passes (-ETIMEDOUT); a
 * slot whose socket fails is dropped with a warning (-ENETDOWN when none is
 * left and none can join). */
int lease_race_run(struct lease_race *race, unsigned int timeout_ms);
/* The winner's configuration, into out. */
void lease_race_result(const struct lease_race *race, int winner, struct net_state *out);
/* End every slot: close the sockets and let the losers' offers go. */
void lease_race_stop(struct lease_race *race);
/* A name for the kind, for messages: "DHCP", "DHCPv6", ... */
const char *lease_race_kind_name(enum lease_kind kind);

#endif
