/* target_url: a URL target: http and https PUT, ftp, sftp (scp needs a
 * file's size before sending it, and a stream has none: kdumptarget
 * refuses it). The dump goes as a stream in makedumpfile's flattened format
 * (`makedumpfile -R` turns it into the dump): a writer thread, started when
 * libcurl first asks for data, produces it into a pipe that libcurl reads.
 * Files are sent as NAME.incomplete and renamed when complete (WebDAV MOVE,
 * FTP RNFR/RNTO, SFTP rename), so a file named vmcore.flat is whole. Each
 * target may pin its own CA (https) and carry its own key and known hosts
 * (sftp). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "common/layout.h"
#include "kdump/capture.h"
#include "bootlib/curlfn.h"

#define CA_BUNDLE LAYOUT_KDUMP_CA

enum rename_kind { RENAME_MOVE, RENAME_FTP, RENAME_SFTP };

/* How each scheme renames a file once it is complete. */
static const struct scheme {
	const char *prefix;
	enum rename_kind rename;
} schemes[] = {
	{ "http://", RENAME_MOVE },
	{ "https://", RENAME_MOVE },
	{ "ftp://", RENAME_FTP },
	{ "sftp://", RENAME_SFTP },
};

struct upload {
	struct curlfn *fn;
	struct capture *cap;
	const struct kdump_target *target;
	const struct scheme *scheme;
	char base[1024];             /* url + the dump's directory + '/' */
	char error[CURL_ERROR_SIZE]; /* libcurl's detail of the last failure */
};

struct producer {
	struct capture *cap;
	int fd;
	int result;
	const char *text;            /* NULL: the dump; else these bytes */
	size_t len;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	struct diskdump_stats stats;
	struct dump_sink sink;

	if (p->text) {
		ssize_t n = write(p->fd, p->text, p->len);

		p->result = n == (ssize_t)p->len ? 0 : -EIO;
	} else {
		dump_sink_init(&sink, p->fd, true);
		p->result = dump_sink_begin(&sink);
		if (p->result == 0)
			p->result = capture_write_kdump(p->cap, &sink, &stats);
		if (p->result == 0)
			p->result = dump_sink_end(&sink);
	}
	close(p->fd);
	return NULL;
}

/* The producer starts when libcurl first asks for data, once the server
 * has taken the connection, the login and the file name: a target that
 * fails before costs no pass over memory. */
struct stream {
	struct producer p;
	pthread_t thread;
	bool started;
	int rfd;                     /* the pipe's end libcurl reads */
};

static size_t read_stream(char *buf, size_t size, size_t n, void *arg)
{
	struct stream *s = arg;
	ssize_t r;

	if (!s->started) {
		if (pthread_create(&s->thread, NULL, produce, &s->p) != 0)
			return CURL_READFUNC_ABORT;
		s->started = true;
	}
	r = read(s->rfd, buf, size * n);
	return r < 0 ? CURL_READFUNC_ABORT : (size_t)r;
}

static int stream_open(struct stream *s)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	s->rfd = fds[0];
	s->p.fd = fds[1];
	return 0;
}

static void stream_close(struct stream *s)
{
	/* The writer may be blocked on a pipe nobody reads any more. */
	close(s->rfd);
	if (s->started)
		pthread_join(s->thread, NULL);
	else
		close(s->p.fd);
}

/* The files this target names: its own CA for https, its key and the
 * server's host keys for sftp. */
static void target_options(struct upload *u, CURL *c)
{
	const struct kdump_target *t = u->target;

	u->fn->easy_setopt(c, CURLOPT_CAINFO, t->cafile[0] ? t->cafile : CA_BUNDLE);
	if (t->knownhosts[0])
		u->fn->easy_setopt(c, CURLOPT_SSH_KNOWNHOSTS, t->knownhosts);
	if (t->sshkey[0]) {
		u->fn->easy_setopt(c, CURLOPT_SSH_PRIVATE_KEYFILE, t->sshkey);
		/* "": libssh2 derives the public key from the private one. */
		u->fn->easy_setopt(c, CURLOPT_SSH_PUBLIC_KEYFILE, "");
		u->fn->easy_setopt(c, CURLOPT_SSH_AUTH_TYPES, (long)CURLSSH_AUTH_PUBLICKEY);
	}
}

static void common_options(struct upload *u, CURL *c)
{
	u->error[0] = '\0';
	u->fn->easy_setopt(c, CURLOPT_ERRORBUFFER, u->error);
	target_options(u, c);
	u->fn->easy_setopt(c, CURLOPT_NETRC_FILE, KDUMP_NETRC_PATH);
	u->fn->easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	u->fn->easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	u->fn->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	u->fn->easy_setopt(c, CURLOPT_FTP_CREATE_MISSING_DIRS, (long)CURLFTP_CREATE_DIR);
}

/* The path part of a URL: "/d/" of "sftp://user@host:22/d/". */
static const char *url_path(const char *url)
{
	const char *host = strstr(url, "://");

	host = host ? host + 3 : url;
	return host + strcspn(host, "/");
}

/* The rename after the upload, as the scheme does it. */
static struct curl_slist *rename_setup(struct upload *u, CURL *c, const char *from, const char *to)
{
	struct curl_slist *l;
	char line[1400];

	switch (u->scheme->rename) {
	case RENAME_MOVE:
		snprintf(line, sizeof(line), "Destination: %s%s", u->base, to);
		return u->fn->slist_append(NULL, line);
	case RENAME_FTP:
		snprintf(line, sizeof(line), "RNFR %s", from);
		l = u->fn->slist_append(NULL, line);

		snprintf(line, sizeof(line), "RNTO %s", to);
		l = u->fn->slist_append(l, line);
		u->fn->easy_setopt(c, CURLOPT_POSTQUOTE, l);
		return l;
	case RENAME_SFTP:
		/* SFTP's quote commands take paths from the server's root, not
		 * from the URL's directory. */
		snprintf(line, sizeof(line), "rename \"%s%s\" \"%s%s\"", url_path(u->base), from,
			 url_path(u->base), to);
		l = u->fn->slist_append(NULL, line);
		u->fn->easy_setopt(c, CURLOPT_POSTQUOTE, l);
		return l;
	}
	return NULL;
}

/* WebDAV has no rename inside the upload: a MOVE request after it. */
static CURLcode http_move(struct upload *u, const char *from, struct curl_slist *dest)
{
	char url[1400];
	CURL *c = u->fn->easy_init();
	CURLcode rc;

	if (!c)
		return CURLE_OUT_OF_MEMORY;
	snprintf(url, sizeof(url), "%s%s", u->base, from);
	common_options(u, c);
	u->fn->easy_setopt(c, CURLOPT_URL, url);
	u->fn->easy_setopt(c, CURLOPT_CUSTOMREQUEST, "MOVE");
	u->fn->easy_setopt(c, CURLOPT_HTTPHEADER, dest);
	rc = u->fn->easy_perform(c);
	u->fn->easy_cleanup(c);
	return rc;
}

/* What the user can do about a failed transfer, by libcurl's code. */
static const char *failure_hint(const struct upload *u, CURLcode rc, char *buf, size_t size)
{
	const struct kdump_target *t = u->target;

	if ((rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE) &&
	    kdump_target_is(t->where, "sftp"))
		snprintf(buf, size, "the server's host key is not the one in %s (knownhosts=); give the "
			 "server's key as ssh-keyscan prints it", t->knownhosts);
	else if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE)
		snprintf(buf, size, "the server's certificate does not verify against %s %s; pin the CA "
			 "that signed it with --kdump-target 'URL;cafile=FILE'",
			 t->cafile[0] ? "the CA pinned for this target," : "the image's CA bundle,",
			 t->cafile[0] ? t->cafile : CA_BUNDLE);
	else if (rc == CURLE_LOGIN_DENIED || rc == CURLE_REMOTE_ACCESS_DENIED)
		snprintf(buf, size, "the server refused the login; check the credentials in the image "
			 "(%s%s%s)", KDUMP_NETRC_PATH, t->sshkey[0] ? ", " : "", t->sshkey);
	else
		snprintf(buf, size, "check the server, its free space and the credentials in the image (%s)",
			 KDUMP_NETRC_PATH);
	return buf;
}

static void report_failure(const struct upload *u, const char *name, CURLcode rc, int produced)
{
	if (rc == CURLE_OK) {
		log_error("kdump: target %s: writing %s failed: %s", u->target->where, name, strerror(-produced));
	} else {
		char hint[600];

		log_error("kdump: target %s: sending %s failed: %s; %s", u->target->where, name,
			  u->error[0] ? u->error : u->fn->easy_strerror(rc), failure_hint(u, rc, hint, sizeof(hint)));
	}
}

/* A server that is not there yet (refused, unreachable, silent, its name
 * not known yet) as the errno the capture tries again on
 * (kdump/capture.c); any other failure is -EIO. */
static int transfer_errno(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
		return -ECONNREFUSED;
	case CURLE_OPERATION_TIMEDOUT:
		return -ETIMEDOUT;
	case CURLE_COULDNT_RESOLVE_HOST:
		return -EHOSTUNREACH;
	default:
		return -EIO;
	}
}

/* Send one file (the dump stream or some bytes) as NAME.incomplete, then
 * rename it to NAME. Returns 0, or after reporting -errno (transfer_errno). */
static int send_file(struct upload *u, const char *name, const char *text, size_t len)
{
	char from[256], url[1400];
	struct stream s = { .p = { .cap = u->cap, .text = text, .len = len } };
	struct curl_slist *rn;
	CURL *c = u->fn->easy_init();
	CURLcode rc;
	int r;

	snprintf(from, sizeof(from), "%s.incomplete", name);
	snprintf(url, sizeof(url), "%s%s", u->base, from);
	if (!c)
		return -ENOMEM;
	r = stream_open(&s);
	if (r < 0) {
		u->fn->easy_cleanup(c);
		return r;
	}
	common_options(u, c);
	u->fn->easy_setopt(c, CURLOPT_URL, url);
	u->fn->easy_setopt(c, CURLOPT_UPLOAD, 1L);
	u->fn->easy_setopt(c, CURLOPT_READFUNCTION, read_stream);
	u->fn->easy_setopt(c, CURLOPT_READDATA, &s);
	rn = rename_setup(u, c, from, name);
	rc = u->fn->easy_perform(c);
	stream_close(&s);
	if (rc == CURLE_OK && s.p.result == 0 && u->scheme->rename == RENAME_MOVE)
		rc = http_move(u, from, rn);
	u->fn->easy_cleanup(c);
	u->fn->slist_free_all(rn);
	if (rc != CURLE_OK || s.p.result < 0) {
		report_failure(u, name, rc, s.p.result);
		return transfer_errno(rc);
	}
	return 0;
}

static const struct scheme *scheme_find(const char *url)
{
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (strncmp(url, schemes[i].prefix, strlen(schemes[i].prefix)) == 0)
			return &schemes[i];
	return NULL;
}

static int curl_ready(struct curlfn *fn, const char *spec)
{
	char why[300];

	if (curlfn_open(fn, why, sizeof(why)) == 0)
		return 0;
	log_error("kdump: target %s needs libcurl, which the image lacks (%s); rebuild it "
		  "with this --kdump-target", spec, why);
	return -ENOENT;
}

int target_url_save(struct capture *cap, const struct kdump_target *t)
{
	static struct curlfn fn;
	const char *spec = t->where;
	struct upload u = { .fn = &fn, .cap = cap, .target = t, .scheme = scheme_find(spec) };
	int r;

	if (!u.scheme)
		return -EINVAL;
	r = curl_ready(&fn, spec);
	if (r == 0)
		r = capture_network_up(cap);
	if (r < 0)
		return r;
	snprintf(u.base, sizeof(u.base), "%s%s%s/", spec, spec[strlen(spec) - 1] == '/' ? "" : "/", cap->name);
	r = send_file(&u, "vmcore.flat", NULL, 0);
	if (r == 0 && cap->dmesg && send_file(&u, "vmcore-dmesg.txt", cap->dmesg, cap->dmesg_len) < 0)
		log_warn("kdump: the dump is saved but not vmcore-dmesg.txt (makedumpfile "
			 "--dump-dmesg reads the log from the dump)");
	if (r == 0)
		log_info("kdump: saved %svmcore.flat (makedumpfile -R vmcore < vmcore.flat makes the dump)", u.base);
	return r;
}
