/* Unit tests: net/config/leaserace.c's race, with a table of fake clients whose
 * sockets are socketpairs: an interface whose carrier comes while the race
 * runs joins it at once and can win; a dropped slot does not end a race
 * that an interface may still join; the first answer wins. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "net/config/leaserace.h"

/* A fake client: its socket's other end is the "server"; a byte 'L' is a
 * lease, 'X' a failing socket; start sends 'L' when answers is set. */
static struct {
	int pair[RACE_MAX][2];
	bool answers[RACE_MAX];
	int watch[2];
	int joins;
	int started;
	int timers;
	uint64_t timer_at[4];
} fx;

static int slot_no(const struct race_slot *s)
{
	return (int)(s->link.index);
}

static int fake_start(struct race_slot *s, const struct lease_race *race)
{
	(void)race;
	fx.started++;
	if (fx.answers[slot_no(s)] && send(fx.pair[slot_no(s)][1], "L", 1, 0) != 1)
		return -EIO;
	return 0;
}

static int fake_fds(const struct race_slot *s, int fds[SLOT_FDS])
{
	fds[0] = fx.pair[slot_no(s)][0];
	return 1;
}

static uint64_t fake_next(const struct race_slot *s)
{
	(void)s;
	return UINT64_MAX;
}

static int fake_timer(struct race_slot *s)
{
	(void)s;
	if (fx.timers < 4)
		fx.timer_at[fx.timers] = clock_now_ms();
	fx.timers++;
	return 0;
}

static int fake_input(struct race_slot *s, int which)
{
	char c = 0;

	(void)which;
	if (recv(fx.pair[slot_no(s)][0], &c, 1, 0) != 1)
		return 0;
	return c == 'L' ? 1 : c == 'X' ? -EIO : 0;
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

static const struct lease_ops fake_ops[LEASE_KINDS] = {
	[LEASE_DHCP4] = { "fake DHCP", fake_start, fake_fds, fake_next, fake_timer, fake_input,
			  fake_result, fake_stop },
};

static struct link_info link_no(int i)
{
	struct link_info l = { .index = i };

	snprintf(l.name, sizeof(l.name), "eth%d", i);
	return l;
}

/* The carrier of eth1 comes: it joins, and its server answers. */
static void join_late(struct lease_race *race, void *ctx)
{
	struct link_info late = link_no(1);
	char c;

	(void)ctx;
	while (recv(race->watch_fd, &c, 1, 0) == 1)
		;
	fx.joins++;
	assert_int_equal(lease_race_add(race, LEASE_DHCP4, &late), 0);
}

static int setup(void **state)
{
	(void)state;
	memset(&fx, 0, sizeof(fx));
	for (int i = 0; i < 3; i++)
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fx.pair[i]) < 0)
			return -1;
	return socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fx.watch);
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		close(fx.pair[i][0]);
		close(fx.pair[i][1]);
	}
	close(fx.watch[0]);
	close(fx.watch[1]);
	return 0;
}

static void race_init(struct lease_race *race, bool watch)
{
	struct link_info dead = link_no(0);

	memset(race, 0, sizeof(*race));
	race->ops = fake_ops;
	race->watch_fd = fx.watch[0];
	race->join = watch ? join_late : NULL;
	assert_int_equal(lease_race_add(race, LEASE_DHCP4, &dead), 0);
}

/* eth0 has no server; eth1's carrier comes once the race runs (the link
 * message is queued before it starts): eth1 joins and wins at once, not
 * after eth0's whole time. */
static void race_late_carrier_joins(void **state)
{
	static struct lease_race race;
	struct net_state st;
	uint64_t t0 = clock_now_ms();
	int r;

	(void)state;
	race_init(&race, true);
	fx.answers[1] = true;
	assert_int_equal(send(fx.watch[1], "n", 1, 0), 1);
	r = lease_race_run(&race, 5000);
	assert_int_equal(r, 1);
	assert_true(clock_now_ms() - t0 < 2000);
	assert_int_equal(fx.joins, 1);
	assert_int_equal(fx.started, 2);
	lease_race_result(&race, r, &st);
	assert_string_equal(st.link.name, "eth1");
	lease_race_stop(&race);
}

/* Every slot dropped, but an interface may still join: the race waits for
 * it until the deadline, and says the network is down then. */
static void race_dropped_waits_for_join(void **state)
{
	static struct lease_race race;

	(void)state;
	race_init(&race, true);
	assert_int_equal(send(fx.pair[0][1], "X", 1, 0), 1);
	assert_int_equal(lease_race_run(&race, 300), -ENETDOWN);
	assert_false(race.slot[0].running);
	lease_race_stop(&race);
	/* Without a watch, at once. */
	race_init(&race, false);
	assert_int_equal(send(fx.pair[0][1], "X", 1, 0), 1);
	assert_int_equal(lease_race_run(&race, 60000), -ENETDOWN);
	lease_race_stop(&race);
}

/* No answer anywhere: the timeout. The first slot to answer wins. */
static void race_timeout_and_first_answer(void **state)
{
	static struct lease_race race;
	struct link_info second = link_no(2);

	(void)state;
	race_init(&race, false);
	assert_int_equal(lease_race_run(&race, 100), -ETIMEDOUT);
	lease_race_stop(&race);
	race_init(&race, false);
	assert_int_equal(lease_race_add(&race, LEASE_DHCP4, &second), 0);
	fx.answers[2] = true;
	assert_int_equal(lease_race_run(&race, 5000), 1);
	lease_race_stop(&race);
}

/* A client whose next question would come after the race's end (the
 * backoff's long waits) asks once more 2 s before it, once: a server that
 * came up in the meantime is asked (issue 39). */
static void race_last_call_before_the_end(void **state)
{
	static struct lease_race race;
	uint64_t t0;

	(void)state;
	race_init(&race, false);
	t0 = clock_now_ms();
	assert_int_equal(lease_race_run(&race, 4500), -ETIMEDOUT);
	lease_race_stop(&race);
	assert_int_equal(fx.timers, 1);
	/* At the last call, not later than the end (a loaded machine may be late). */
	assert_in_range(fx.timer_at[0] - t0, 2450, 4500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(race_late_carrier_joins, setup, teardown),
		cmocka_unit_test_setup_teardown(race_dropped_waits_for_join, setup, teardown),
		cmocka_unit_test_setup_teardown(race_timeout_and_first_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(race_last_call_before_the_end, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
