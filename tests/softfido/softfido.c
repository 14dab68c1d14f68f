/* softfido: a CTAP 2.0 FIDO2 authenticator in software, for the tests only.
 * It makes a USB HID device through /dev/uhid (usage page 0xF1D0, 64-byte
 * reports, bus USB: libfido2 takes no other bus) and answers CTAPHID on it
 * with real keys, signatures and HMACs (ctaphid.c, ctap2*.c), its secrets
 * in the state file given. User presence: with --touch FIFO, each request
 * that needs it waits (sending KEEPALIVE "UP needed") until a line "touch"
 * is read from FIFO; with --always-present it is granted at once.
 *
 * Usage: softfido --state FILE (--touch FIFO | --always-present) [--timeout SEC]
 *                 [--initial-pin PIN]
 * --initial-pin sets the PIN of an authenticator that has none yet (as its
 * owner would with clientPin setPIN; the boot tests' enrolment guest has no
 * terminal for fido2-token -S); one with a PIN keeps its own.
 * Stops on SIGTERM or SIGINT, removing the device. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/uhid.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/softfido/ctap2.h"
#include "tests/softfido/ctaphid.h"
#include "tests/softfido/fidocrypto.h"
#include "tests/softfido/fidostate.h"

#ifndef BUS_USB
#define BUS_USB 0x03
#endif

/* The FIDO HID report descriptor (CTAP 2.0 8.1.8.2): one collection of
 * usage page 0xF1D0, 64-byte input and output reports, no report IDs. */
static const uint8_t report_descriptor[] = {
	0x06, 0xd0, 0xf1,	/* Usage Page (FIDO Alliance) */
	0x09, 0x01,		/* Usage (CTAPHID) */
	0xa1, 0x01,		/* Collection (Application) */
	0x09, 0x20,		/*   Usage (Input Report Data) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x40,		/*   Report Count (64) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0x09, 0x21,		/*   Usage (Output Report Data) */
	0x15, 0x00,
	0x26, 0xff, 0x00,
	0x75, 0x08,
	0x95, 0x40,
	0x91, 0x02,		/*   Output (Data, Variable, Absolute) */
	0xc0,			/* End Collection */
};

struct softfido {
	int uhid, touch;	/* touch -1: always present */
	int timeout_ms;
	char line[64];
	size_t linelen;
	struct fidostate state;
	struct ctap2 ctap;
	struct ctaphid hid;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int uhid_write(int fd, const struct uhid_event *ev)
{
	ssize_t n = write(fd, ev, sizeof(*ev));

	if (n != (ssize_t)sizeof(*ev)) {
		perror("softfido: write /dev/uhid");
		return -1;
	}
	return 0;
}

static int create_device(int fd)
{
	struct uhid_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_CREATE2;
	snprintf((char *)ev.u.create2.name, sizeof(ev.u.create2.name), "lifeboat softfido");
	snprintf((char *)ev.u.create2.phys, sizeof(ev.u.create2.phys), "softfido");
	ev.u.create2.rd_size = sizeof(report_descriptor);
	ev.u.create2.bus = BUS_USB;
	ev.u.create2.vendor = 0x1209;	/* pid.codes' test vendor ID */
	ev.u.create2.product = 0x000f;
	memcpy(ev.u.create2.rd_data, report_descriptor, sizeof(report_descriptor));
	return uhid_write(fd, &ev);
}

/* Every queued report to the host. */
static void flush(struct softfido *s)
{
	struct uhid_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_INPUT2;
	ev.u.input2.size = CTAPHID_REPORT;
	while (ctaphid_output(&s->hid, ev.u.input2.data))
		if (uhid_write(s->uhid, &ev) < 0)
			return;
}

static void reply_report(struct softfido *s, uint32_t type, uint32_t id)
{
	struct uhid_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	if (type == UHID_GET_REPORT_REPLY) {
		ev.u.get_report_reply.id = id;
		ev.u.get_report_reply.err = EIO;
	} else {
		ev.u.set_report_reply.id = id;
		ev.u.set_report_reply.err = EIO;
	}
	uhid_write(s->uhid, &ev);
}

/* One event from the kernel; -1 when /dev/uhid failed. */
static int uhid_event(struct softfido *s)
{
	struct uhid_event ev;
	ssize_t n = read(s->uhid, &ev, sizeof(ev));
	const uint8_t *data = ev.u.output.data;
	size_t len;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n < (ssize_t)sizeof(ev.type))
		return 0;
	switch (ev.type) {
	case UHID_OUTPUT:
		/* hidraw passes the report ID byte (0) in front of the report. */
		len = ev.u.output.size;
		if (len == CTAPHID_REPORT + 1 && data[0] == 0) {
			data++;
			len--;
		}
		ctaphid_input(&s->hid, data, len);
		flush(s);
		break;
	case UHID_GET_REPORT:
		reply_report(s, UHID_GET_REPORT_REPLY, ev.u.get_report.id);
		break;
	case UHID_SET_REPORT:
		reply_report(s, UHID_SET_REPORT_REPLY, ev.u.set_report.id);
		break;
	default:
		break;
	}
	return 0;
}

/* Reads the touch FIFO: 1 when a whole line "touch" came. */
static int read_touch(struct softfido *s)
{
	char c;
	int touched = 0;

	while (read(s->touch, &c, 1) == 1) {
		if (c != '\n') {
			if (s->linelen < sizeof(s->line) - 1)
				s->line[s->linelen++] = c;
			continue;
		}
		s->line[s->linelen] = '\0';
		touched |= !strcmp(s->line, "touch");
		s->linelen = 0;
	}
	return touched;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ctap2_presence_fn: keepalives every 100 ms (CTAP 2.0 8.1.9.1.3) while
 * waiting for the touch line, a CANCEL, or the timeout. */
static uint8_t presence(void *arg)
{
	struct softfido *s = arg;
	long long end = now_ms() + s->timeout_ms;

	if (s->touch < 0)
		return CTAP2_OK;
	fprintf(stderr, "softfido: waiting for a touch\n");
	while (!stop) {
		struct pollfd fds[2] = { { s->uhid, POLLIN, 0 }, { s->touch, POLLIN, 0 } };

		ctaphid_keepalive(&s->hid, CTAPHID_STATUS_UPNEEDED);
		flush(s);
		if (poll(fds, 2, 100) < 0 && errno != EINTR)
			break;
		if ((fds[0].revents & POLLIN) && uhid_event(s) < 0)
			break;
		if (ctaphid_cancelled(&s->hid))
			return CTAP2_ERR_KEEPALIVE_CANCEL;
		if ((fds[1].revents & POLLIN) && read_touch(s))
			return CTAP2_OK;
		if (now_ms() >= end)
			return CTAP2_ERR_USER_ACTION_TIMEOUT;
	}
	return CTAP2_ERR_USER_ACTION_TIMEOUT;
}

static void usage(void)
{
	fprintf(stderr, "usage: softfido --state FILE (--touch FIFO | --always-present) [--timeout SEC] [--initial-pin PIN]\n");
	exit(2);
}

static void parse_args(struct softfido *s, int argc, char **argv, const char **state,
		       const char **pin)
{
	static const struct option opts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "touch", required_argument, NULL, 't' },
		{ "always-present", no_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "initial-pin", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	const char *touch = NULL;
	int always = 0, c;

	s->timeout_ms = 30000;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's')
			*state = optarg;
		else if (c == 't')
			touch = optarg;
		else if (c == 'a')
			always = 1;
		else if (c == 'P' && strlen(optarg) >= 4 && strlen(optarg) < 64)
			*pin = optarg;
		else if (c == 'T' && atoi(optarg) > 0)
			s->timeout_ms = atoi(optarg) * 1000;
		else
			usage();
	}
	if (!*state || optind != argc || !!touch == always)
		usage();
	s->touch = -1;
	/* Read and write: the FIFO never reads end-of-file between writers. */
	if (touch && (s->touch = open(touch, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
		perror(touch);
		exit(1);
	}
}

static void run(struct softfido *s)
{
	struct uhid_event ev;

	while (!stop) {
		struct pollfd fd = { s->uhid, POLLIN, 0 };

		if (poll(&fd, 1, -1) < 0 && errno != EINTR)
			break;
		if ((fd.revents & POLLIN) && uhid_event(s) < 0)
			break;
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_DESTROY;
	uhid_write(s->uhid, &ev);
}

/* The PIN's hash as clientPin's setPIN keeps it (ctap2_pin.c). */
static int initial_pin(struct fidostate *st, const char *pin)
{
	uint8_t hash[32];

	if (!pin || st->pin_set)
		return 0;
	fidocrypto_sha256((const uint8_t *)pin, strlen(pin), hash);
	memcpy(st->pin_hash, hash, sizeof(st->pin_hash));
	st->pin_set = 1;
	st->pin_retries = FIDOSTATE_PIN_RETRIES;
	return fidostate_save(st);
}

int main(int argc, char **argv)
{
	static struct softfido s;
	struct sigaction sa;
	const char *state = NULL, *pin = NULL;

	parse_args(&s, argc, argv, &state, &pin);
	if (fidostate_load(&s.state, state) < 0 || initial_pin(&s.state, pin) < 0 ||
	    ctap2_init(&s.ctap, &s.state, presence, &s) < 0) {
		fprintf(stderr, "softfido: cannot start with %s\n", state);
		return 1;
	}
	ctaphid_init(&s.hid, ctap2_request, &s.ctap);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if ((s.uhid = open("/dev/uhid", O_RDWR | O_CLOEXEC)) < 0) {
		perror("softfido: /dev/uhid");
		return 1;
	}
	if (create_device(s.uhid) < 0)
		return 1;
	fprintf(stderr, "softfido: ready\n");
	run(&s);
	ctap2_free(&s.ctap);
	fidostate_free(&s.state);
	return 0;
}
