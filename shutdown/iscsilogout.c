/* iscsilogout: log out of the iSCSI sessions left, through NETLINK_ISCSI
 * (the order and the reasons are in iscsilogout.h, the messages in
 * iscsinl.h). */
#include "shutdown/iscsilogout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "bootlib/nlsock.h"
#include "common/fileread.h"
#include "shutdown/iscsinl.h"
#include "shutdown/diskbusy.h"

/* Removing the SCSI devices flushes their caches over the network; the
 * target answers a logout at once when it is there at all; the kernel
 * answers a request before sendto() returns. One session's worst case,
 * 10 + 5 + 5 requests * 2 s, stays within the step's 30 s. */
#define UNBIND_WAIT_MS 10000
#define LOGOUT_WAIT_MS 5000
#define REPLY_WAIT_MS 2000

static void read_attr(const char *dir, const char *name, char *buf, size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (file_read_line(path, buf, size) < 0)
		snprintf(buf, size, "?");
}

/* fn(dir, name, ctx) for each entry of dir whose name starts with prefix.
 * (Not glob(3): in this static program it pulls in glibc's NSS, 290 KB.) */
static void each_entry(const char *dir, const char *prefix,
		       void (*fn)(const char *dir, const char *name, void *ctx), void *ctx)
{
	DIR *d = opendir(dir);
	const struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			fn(dir, e->d_name, ctx);
	if (d)
		closedir(d);
}

static void add_conn(const char *dir, const char *name, void *ctx)
{
	struct iscsilogout_session *s = ctx;
	char prefix[32];

	(void)dir;
	snprintf(prefix, sizeof(prefix), "connection%" PRIu32 ":", s->sid);
	if (strncmp(name, prefix, strlen(prefix)) == 0 && s->n_conns < ISCSILOGOUT_CONN_MAX)
		s->cids[s->n_conns++] = (uint32_t)strtoul(name + strlen(prefix), NULL, 10);
}

static void scan_session(const char *sys, uint32_t sid, struct iscsilogout_session *s)
{
	char dir[256], sub[320], addr[64], port[16];

	memset(s, 0, sizeof(*s));
	s->sid = sid;
	snprintf(dir, sizeof(dir), "%s/class/iscsi_session/session%" PRIu32, sys, sid);
	read_attr(dir, "targetname", s->target, sizeof(s->target));
	snprintf(sub, sizeof(sub), "%s/class/iscsi_connection", sys);
	each_entry(sub, "connection", add_conn, s);
	snprintf(dir, sizeof(dir), "%s/class/iscsi_connection/connection%" PRIu32 ":%" PRIu32,
		 sys, sid, s->n_conns ? s->cids[0] : 0);
	read_attr(dir, "persistent_address", addr, sizeof(addr));
	read_attr(dir, "persistent_port", port, sizeof(port));
	snprintf(s->portal, sizeof(s->portal), "%s:%s", addr, port);
}

struct scan_ctx {
	const char *sys;
	struct iscsilogout_set *set;
};

static void add_session(const char *dir, const char *name, void *ctx)
{
	struct scan_ctx *c = ctx;
	const char *digits = name + strlen("session");
	char *end;
	unsigned long sid = strtoul(digits, &end, 10);

	(void)dir;
	if (*end == '\0' && end != digits && c->set->len < ISCSILOGOUT_SESSION_MAX)
		scan_session(c->sys, (uint32_t)sid, &c->set->sessions[c->set->len++]);
}

int iscsilogout_scan(const char *sys, struct iscsilogout_set *out)
{
	struct scan_ctx ctx = { sys, out };
	char dir[256];

	out->len = 0;
	if (access(sys, F_OK) < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "%s/class/iscsi_session", sys);
	each_entry(dir, "session", add_session, &ctx);
	return 0;
}

int iscsilogout_transport_handle(const char *sys, uint64_t *handle)
{
	char path[256], text[32], *end;
	int r;

	snprintf(path, sizeof(path), "%s/class/iscsi_transport/tcp/handle", sys);
	r = file_read_line(path, text, sizeof(text));
	if (r < 0)
		return r;
	*handle = strtoull(text, &end, 10);
	return end != text && *end == '\0' ? 0 : -EINVAL;
}

/* The walk of one session's disks: the first busy one is kept. */
struct busy_walk {
	bool (*busy)(const char *disk);
	char *name;
	size_t size;
	bool found;
};

static void check_disk(const char *dir, const char *name, void *ctx)
{
	struct busy_walk *w = ctx;

	(void)dir;
	if (!w->found && w->busy(name)) {
		snprintf(w->name, w->size, "%s", name);
		w->found = true;
	}
}

/* device/targetH:C:T/H:C:T:L/block/NAME */
static void walk_lun(const char *dir, const char *name, void *ctx)
{
	char path[640];

	if (strchr(name, ':') && snprintf(path, sizeof(path), "%s/%s/block", dir, name) <
	    (int)sizeof(path))
		each_entry(path, "", check_disk, ctx);
}

static void walk_target(const char *dir, const char *name, void *ctx)
{
	char path[512];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path))
		each_entry(path, "", walk_lun, ctx);
}

int iscsilogout_busy_disk(const char *sys, uint32_t sid, bool (*busy)(const char *disk),
			  char *name, size_t size)
{
	struct busy_walk w = { busy, name, size, false };
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/class/iscsi_session/session%" PRIu32 "/device", sys, sid);
	each_entry(dir, "target", walk_target, &w);
	return w.found;
}

/* Read what the kernel sends into st until done(st) or the deadline. */
static int nl_wait(int fd, struct iscsinl_state *st, bool (*done)(const struct iscsinl_state *),
		   unsigned int wait_ms)
{
	uint64_t deadline = clock_now_ms() + wait_ms;

	while (!done(st)) {
		uint8_t buf[8192] __attribute__((aligned(8)));
		struct iscsinl_msg msgs[16];
		struct pollfd p = { fd, POLLIN, 0 };
		uint64_t now = clock_now_ms();
		ssize_t n;
		size_t count;

		if (now >= deadline)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)(deadline - now)) < 0 && errno != EINTR)
			return -errno;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno != EAGAIN && errno != EINTR && errno != ENOBUFS)
			return -errno;
		count = n > 0 ? iscsinl_parse(buf, (size_t)n, msgs, 16) : 0;
		for (size_t i = 0; i < count; i++)
			iscsinl_note(st, &msgs[i]);
	}
	return 0;
}

static bool got_reply(const struct iscsinl_state *st)
{
	return st->replied;
}

static bool got_unbound(const struct iscsinl_state *st)
{
	return st->unbound;
}

static bool got_logout_answer(const struct iscsinl_state *st)
{
	return st->logout_answered || st->conn_failed;
}

/* Send one request and wait for its reply. 0 or -errno (the kernel's). */
static int nl_call(int fd, struct iscsinl_state *st, const struct iscsinl_request *req)
{
	static uint32_t seq;
	uint8_t buf[256] __attribute__((aligned(8)));
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int len = iscsinl_build(req, ++seq, buf, sizeof(buf)), r;

	if (len < 0)
		return len;
	st->awaiting = req->type;
	st->replied = false;
	if (sendto(fd, buf, (size_t)len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	r = nl_wait(fd, st, got_reply, REPLY_WAIT_MS);
	return r < 0 ? r : st->reply_error;
}

struct ending {
	int fd;
	uint64_t handle;
	const struct iscsilogout_session *s;
	struct iscsinl_state st;
};

static int call(struct ending *e, enum iscsinl_type type, uint32_t cid)
{
	struct iscsinl_request req = { type, e->handle, e->s->sid, cid };

	return nl_call(e->fd, &e->st, &req);
}

/* The SCSI devices go first, while the connection still carries their
 * cache flush; a kernel without unbind removes them with the session. */
static void unbind(struct ending *e)
{
	if (call(e, ISCSINL_UNBIND_SESSION, 0) < 0)
		return;
	if (nl_wait(e->fd, &e->st, got_unbound, UNBIND_WAIT_MS) < 0)
		log_warn("the iSCSI session %" PRIu32 "'s disks were not removed within %d s; "
			 "logging out anyway", e->s->sid, UNBIND_WAIT_MS / 1000);
}

/* Returns true when the target answered that the session is closed. */
static bool logout(struct ending *e)
{
	const struct iscsilogout_session *s = e->s;
	int r = call(e, ISCSINL_SEND_PDU, s->cids[0]);

	if (r == 0)
		r = nl_wait(e->fd, &e->st, got_logout_answer, LOGOUT_WAIT_MS);
	if (r == 0 && e->st.logout_answered && e->st.logout_response == 0)
		return true;
	if (r == -ETIMEDOUT)
		log_warn("the iSCSI target %s at %s did not answer the logout within %d s; "
			 "closing the connection without it", s->target, s->portal,
			 LOGOUT_WAIT_MS / 1000);
	else if (r < 0)
		log_warn("sending the logout to the iSCSI target %s at %s failed: %s; closing "
			 "the connection without it", s->target, s->portal, strerror(-r));
	else if (e->st.logout_answered)
		log_warn("the iSCSI target %s at %s answered the logout with \"%s\" (%u); "
			 "closing the connection anyway", s->target, s->portal,
			 iscsinl_response_text(e->st.logout_response), e->st.logout_response);
	else
		log_warn("the connection to the iSCSI target %s at %s failed before the "
			 "logout was answered; closing it", s->target, s->portal);
	return false;
}

/* Stop and destroy each connection, then the session. */
static int destroy(struct ending *e)
{
	const char *step = "stopping its connection";
	int r = 0;

	for (size_t i = 0; i < e->s->n_conns && r == 0; i++) {
		r = call(e, ISCSINL_STOP_CONN, e->s->cids[i]);
		if (r == 0) {
			step = "destroying its connection";
			r = call(e, ISCSINL_DESTROY_CONN, e->s->cids[i]);
		}
	}
	if (r == 0) {
		step = "destroying it";
		r = call(e, ISCSINL_DESTROY_SESSION, 0);
	}
	if (r < 0)
		log_error("ending the iSCSI session %" PRIu32 " (target %s at %s) failed at %s: %s; "
			  "it ends with the power-off", e->s->sid, e->s->target, e->s->portal, step,
			  strerror(-r));
	return r;
}

static int session_end(int fd, uint64_t handle, const struct iscsilogout_session *s)
{
	struct ending e = { fd, handle, s, { .sid = s->sid } };
	char busy[256];
	bool closed;

	if (iscsilogout_busy_disk("/sys", s->sid, diskbusy_held, busy, sizeof(busy))) {
		log_warn("the iSCSI session %" PRIu32 " (target %s at %s) is not logged out: its "
			 "disk %s is still in use (mounted or held; see the messages above); it "
			 "ends with the power-off", s->sid, s->target, s->portal, busy);
		return -EBUSY;
	}
	if (s->n_conns == 0) {
		log_warn("the iSCSI session %" PRIu32 " (target %s) has no connection in sysfs; "
			 "it ends with the power-off", s->sid, s->target);
		return -ENOTCONN;
	}
	unbind(&e);
	closed = logout(&e);
	if (destroy(&e) < 0)
		return -EIO;
	if (closed)
		log_info("logged out of the iSCSI target %s at %s (session %" PRIu32 "): the "
			 "target closed the session", s->target, s->portal, s->sid);
	else
		log_info("ended the iSCSI session %" PRIu32 " with %s at %s", s->sid, s->target,
			 s->portal);
	return closed ? 0 : -ECONNABORTED;
}

int iscsilogout_run(void)
{
	static struct iscsilogout_set set;
	uint64_t handle;
	int fd, r, left = 0;

	r = iscsilogout_scan("/sys", &set);
	if (r < 0 || set.len == 0)
		return r;
	r = iscsilogout_transport_handle("/sys", &handle);
	fd = r < 0 ? r : nlsock_open(SOCK_RAW, ISCSINL_PROTOCOL, ISCSINL_GROUP);
	if (fd < 0) {
		log_error("logging out of %zu iSCSI session(s) is not possible (%s: %s); they end "
			  "with the power-off", set.len, r < 0 ? "the tcp transport's handle" :
			  "the iSCSI netlink socket", strerror(-fd));
		return (int)set.len;
	}
	for (size_t i = 0; i < set.len; i++)
		left += session_end(fd, handle, &set.sessions[i]) < 0;
	close(fd);
	return left;
}
