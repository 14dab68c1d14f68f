/* Unit tests: net/link/linkwatch.c: rtnetlink link messages, whole, cut off and malformed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <net/if.h>            /* before linux/if.h, which then defers to it */
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>

#include "net/link/linkwatch.h"

/* A datagram being built: messages appended one after another. */
struct dgram {
	_Alignas(4) char buf[1024];
	size_t len;
	size_t msg;      /* where the last message starts */
};

static void msg_begin(struct dgram *d, unsigned short type, int index, unsigned int flags)
{
	struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
			      .nlmsg_type = type };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = index,
				 .ifi_flags = flags };

	d->len = NLMSG_ALIGN(d->len);
	d->msg = d->len;
	memcpy(d->buf + d->len, &h, sizeof(h));
	memcpy(d->buf + d->len + NLMSG_HDRLEN, &ifi, sizeof(ifi));
	d->len += h.nlmsg_len;
}

/* Append an attribute to the last message, its length as given. */
static void attr_add(struct dgram *d, unsigned short type, const void *data, size_t len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(d->buf + d->msg);
	struct rtattr a = { .rta_len = (unsigned short)RTA_LENGTH(len), .rta_type = type };

	d->len = d->msg + NLMSG_ALIGN(h->nlmsg_len);
	memcpy(d->buf + d->len, &a, sizeof(a));
	memcpy(d->buf + d->len + RTA_LENGTH(0), data, len);
	d->len += RTA_ALIGN(a.rta_len);
	h->nlmsg_len = (unsigned int)(d->len - d->msg);
}

static void newlink_with_name(struct dgram *d, int index, unsigned int flags, const char *name)
{
	msg_begin(d, RTM_NEWLINK, index, flags);
	attr_add(d, IFLA_MTU, &(unsigned int){ 1500 }, 4);
	attr_add(d, IFLA_IFNAME, name, strlen(name) + 1);
}

static void newlink_parsed(void **state)
{
	struct dgram d = { 0 };
	struct link_event ev[2];

	(void)state;
	newlink_with_name(&d, 2, IFF_UP | IFF_RUNNING | IFF_LOWER_UP, "eth0");
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 2), 1);
	assert_int_equal(ev[0].index, 2);
	assert_string_equal(ev[0].name, "eth0");
	assert_true(ev[0].flags & IFF_LOWER_UP);
	assert_false(ev[0].removed);
}

/* Several messages in one datagram; other types skipped; more than max counted. */
static void several_messages(void **state)
{
	struct dgram d = { 0 };
	struct link_event ev[2];
	struct nlmsghdr done = { .nlmsg_len = NLMSG_LENGTH(4), .nlmsg_type = NLMSG_DONE };

	(void)state;
	newlink_with_name(&d, 2, IFF_UP, "eth0");
	msg_begin(&d, RTM_NEWADDR, 2, 0);
	msg_begin(&d, RTM_DELLINK, 3, 0);
	newlink_with_name(&d, 4, IFF_UP | IFF_LOWER_UP, "eth2");
	d.len = NLMSG_ALIGN(d.len);
	memcpy(d.buf + d.len, &done, sizeof(done));
	d.len += done.nlmsg_len;
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 2), 3);
	assert_string_equal(ev[0].name, "eth0");
	assert_int_equal(ev[1].index, 3);
	assert_true(ev[1].removed);
	assert_string_equal(ev[1].name, "");
}

static void empty_and_no_attributes(void **state)
{
	struct dgram d = { 0 };
	struct link_event ev[1];

	(void)state;
	assert_int_equal(linkwatch_parse(d.buf, 0, ev, 1), 0);
	msg_begin(&d, RTM_NEWLINK, 7, IFF_UP);
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), 1);
	assert_int_equal(ev[0].index, 7);
	assert_string_equal(ev[0].name, "");
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 0), 1);
}

/* Every cut of a good datagram short of its end is refused. */
static void truncated_refused(void **state)
{
	struct dgram d = { 0 };
	struct link_event ev[1];

	(void)state;
	newlink_with_name(&d, 2, IFF_UP, "eth0");
	for (size_t cut = 1; cut < d.len; cut++)
		assert_int_equal(linkwatch_parse(d.buf, cut, ev, 1), -EINVAL);
}

static void malformed_refused(void **state)
{
	struct dgram d = { 0 };
	struct link_event ev[1];
	struct nlmsghdr *h = (struct nlmsghdr *)d.buf;
	struct rtattr *a;
	char long_name[IF_NAMESIZE + 4];

	(void)state;
	/* A header shorter than itself, or longer than the datagram. */
	newlink_with_name(&d, 2, IFF_UP, "eth0");
	h->nlmsg_len = 8;
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), -EINVAL);
	h->nlmsg_len = (unsigned int)d.len + 4;
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), -EINVAL);
	/* A link message too short for its ifinfomsg. */
	h->nlmsg_len = NLMSG_LENGTH(4);
	assert_int_equal(linkwatch_parse(d.buf, NLMSG_LENGTH(4), ev, 1), -EINVAL);
	/* An attribute running past its message, or shorter than its header. */
	memset(&d, 0, sizeof(d));
	newlink_with_name(&d, 2, IFF_UP, "eth0");
	a = (struct rtattr *)(d.buf + NLMSG_LENGTH(sizeof(struct ifinfomsg)));
	a->rta_len = 200;
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), -EINVAL);
	a->rta_len = 2;
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), -EINVAL);
	/* A name without its NUL, or too long for an interface. */
	memset(&d, 0, sizeof(d));
	msg_begin(&d, RTM_NEWLINK, 2, 0);
	attr_add(&d, IFLA_IFNAME, "eth0", 4);
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), -EINVAL);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	memset(&d, 0, sizeof(d));
	newlink_with_name(&d, 2, 0, long_name);
	assert_int_equal(linkwatch_parse(d.buf, d.len, ev, 1), -EINVAL);
}

/* A message on an odd address (as a fuzzer's input may be) still parses. */
static void unaligned_buffer(void **state)
{
	struct dgram d = { 0 };
	char shifted[sizeof(d.buf) + 1];
	struct link_event ev[1];

	(void)state;
	newlink_with_name(&d, 5, IFF_LOWER_UP, "enp0s3");
	memcpy(shifted + 1, d.buf, d.len);
	assert_int_equal(linkwatch_parse(shifted + 1, d.len, ev, 1), 1);
	assert_string_equal(ev[0].name, "enp0s3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(newlink_parsed),
		cmocka_unit_test(several_messages),
		cmocka_unit_test(empty_and_no_attributes),
		cmocka_unit_test(truncated_refused),
		cmocka_unit_test(malformed_refused),
		cmocka_unit_test(unaligned_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
