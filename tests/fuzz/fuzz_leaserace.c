/* Fuzz target: net/config/leaserace.c's race over slots that come and go. The
 * clients are fakes whose answers the input scripts, one byte a step: a
 * slot's input (0: go on, 1: configured, 2: its socket fails), its timer
 * (next due at once or never; failing), and the interfaces that join while
 * the race runs (0-3 slots of a kind). The race must return a running
 * slot's index, or -ETIMEDOUT / -ENETDOWN, and never poll past its arrays. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/config/leaserace.h"

static struct {
	const uint8_t *data;
	size_t size, at;
	int ready[2];         /* always readable: a byte queued, never read */
} script = { .ready = { -1, -1 } };

/* The next byte of the script; 1 once it is over, which ends the race. */
static uint8_t next_byte(void)
{
	return script.at < script.size ? script.data[script.at++] : 1;
}

static int fake_start(struct race_slot *s, const struct lease_race *race)
{
	(void)race;
	s->c.v4.next_ms = next_byte() & 1 ? 1 : UINT64_MAX;   /* 1: due */
	return next_byte() == 0xff ? -EIO : 0;
}

static int fake_fds(const struct race_slot *s, int fds[SLOT_FDS])
{
	(void)s;
	fds[0] = fds[1] = script.ready[0];
	return 1 + (next_byte() & 1);
}

static uint64_t fake_next(const struct race_slot *s)
{
	return s->c.v4.next_ms;
}

static int fake_timer(struct race_slot *s)
{
	uint8_t b = next_byte();

	s->c.v4.next_ms = b & 2 ? 1 : UINT64_MAX;
	return b == 0xfe ? -ETIMEDOUT : 0;
}

static int fake_input(struct race_slot *s, int which)
{
	uint8_t b = next_byte();

	(void)s;
	if (which < 0 || which >= SLOT_FDS)
		__builtin_trap();
	return b % 3 == 1 ? 1 : b % 3 == 2 ? -EIO : 0;
}

static void fake_result(const struct race_slot *s, struct net_state *out)
{
	memset(out, 0, sizeof(*out));
	out->link = s->link;
}

static void fake_stop(struct race_slot *s)
{
	(void)s;
}

#define FAKE { "fake", fake_start, fake_fds, fake_next, fake_timer, fake_input, fake_result, \
	       fake_stop }
static const struct lease_ops fake_ops[LEASE_KINDS] = { FAKE, FAKE, FAKE, FAKE };

static void fake_join(struct lease_race *race, void *ctx)
{
	uint8_t b = next_byte();
	struct link_info l = { .index = race->n + 1 };

	(void)ctx;
	for (int i = 0; i < (b & 3); i++)
		lease_race_add(race, (enum lease_kind)((b >> 2) % LEASE_KINDS), &l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lease_race race;
	struct link_info first = { .index = 1 };
	int r;

	if (script.ready[0] < 0 &&
	    (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, script.ready) < 0 ||
	     send(script.ready[1], "x", 1, 0) != 1))
		return 0;
	script.data = data;
	script.size = size;
	script.at = 0;
	memset(&race, 0, sizeof(race));
	race.ops = fake_ops;
	race.watch_fd = script.ready[0];
	race.join = size && (data[0] & 0x80) ? fake_join : NULL;
	lease_race_add(&race, LEASE_DHCP4, &first);
	r = lease_race_run(&race, 5);
	if (r >= 0 && (r >= race.n || !race.slot[r].running))
		__builtin_trap();
	if (r < 0 && r != -ETIMEDOUT && r != -ENETDOWN)
		__builtin_trap();
	lease_race_stop(&race);
	return 0;
}
